import type { LibraryReader } from "./types.js";

/**
 * Whether a reader can search the library by section: it has `searchLibrary` and does not say
 * it lacks an index behind it (`PageIndexStore.hasLibrary` is false for a store opened without
 * `library`). The retriever uses the library when a reader has one.
 */
export function isLibraryReader(reader: object): reader is LibraryReader {
  const candidate = reader as Partial<LibraryReader> & { hasLibrary?: boolean };
  return typeof candidate.searchLibrary === "function" && candidate.hasLibrary !== false;
}
