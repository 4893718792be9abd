// Types of build-stamp.mjs, for the tests that exercise its staleness rules.
/** The repository root. */
export const root: string;
/** The workspace packages package folder `pkg` depends on, by name. */
export function workspaceDeps(pkg: string): string[];
/** Hash of everything the build of package folder `pkg` reads. */
export function inputsHash(pkg: string): string;
/** Whether package folder `pkg` was built from exactly its current inputs, outputs all there. */
export function isUpToDate(pkg: string): boolean;
/** Forgets the stamp of package folder `pkg`. */
export function clearStamp(pkg: string): void;
/** Records that package folder `pkg` was just built from its current inputs. */
export function writeStamp(pkg: string): void;
