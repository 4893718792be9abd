import { readdir, stat } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { CliError, EXIT } from "./output.js";

/** File types `index` accepts, each also gzip-compressed (`guide.md.gz`, as Debian ships its docs). */
export const INDEXABLE_EXTENSIONS = [".pdf", ".md", ".markdown", ".mdx", ".txt"];

/** Whether `index` takes the file: an accepted extension, before a `.gz` if there is one. */
const isIndexable = (path: string) =>
  INDEXABLE_EXTENSIONS.includes(extname(path.replace(/\.gz$/i, "")).toLowerCase());

/** Stats a path given on the command line. @throws {CliError} when nothing is there. */
async function statInput(input: string): Promise<Awaited<ReturnType<typeof stat>>> {
  // resolve("") is the current folder: an unset shell variable ("$DOCS") would index it all.
  if (input.trim() === "") throw new CliError("An empty path was given: name a file or folder", EXIT.usage);
  try {
    return await stat(resolve(input));
  } catch {
    throw new CliError(`No such file or folder: ${input}`, EXIT.usage);
  }
}

/**
 * Checks that every path given exists, without walking folders: cheap enough to run before
 * `index` imports the loader, so a typo is reported at once.
 * @throws {CliError} for a missing path.
 */
export async function assertInputsExist(inputs: string[]): Promise<void> {
  for (const input of inputs) await statInput(input);
}

/**
 * Expands files and folders (recursively, skipping dot-folders and node_modules) into the files
 * to index, in a stable order. A named file of another type is an error; inside folders such
 * files are skipped, and pushed to `skipped` when given (so the run's summary can name them).
 * @throws {CliError} for a missing path or an unsupported file named explicitly.
 */
export async function expandInputs(inputs: string[], skipped: string[] = []): Promise<string[]> {
  const out: string[] = [];
  for (const input of inputs) {
    const path = resolve(input);
    const info = await statInput(input);
    if (info.isDirectory()) {
      out.push(...(await walkFolder(path, skipped)));
    } else if (isIndexable(path)) {
      out.push(path);
    } else {
      throw new CliError(
        `Unsupported file type: ${input} (index accepts ${INDEXABLE_EXTENSIONS.join(", ")}, each also as .gz)`,
        EXIT.usage,
      );
    }
  }
  return [...new Set(out)];
}

async function walkFolder(dir: string, skipped: string[]): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walkFolder(path, skipped)));
    else if (entry.isFile() && isIndexable(path)) out.push(path);
    else if (entry.isFile()) skipped.push(path);
  }
  return out;
}
