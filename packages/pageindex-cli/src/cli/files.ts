import { readdir, stat } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { CliError, EXIT } from "./output.js";

/** File types `index` accepts. */
export const INDEXABLE_EXTENSIONS = [".pdf", ".md", ".markdown", ".mdx", ".txt"];

const isIndexable = (path: string) => INDEXABLE_EXTENSIONS.includes(extname(path).toLowerCase());

/**
 * Expands files and folders (recursively, skipping dot-folders and node_modules) into the files
 * to index, in a stable order. A named file of another type is an error; inside folders such
 * files are skipped silently.
 * @throws {CliError} for a missing path or an unsupported file named explicitly.
 */
export async function expandInputs(inputs: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const input of inputs) {
    const path = resolve(input);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(path);
    } catch {
      throw new CliError(`No such file or folder: ${input}`, EXIT.usage);
    }
    if (info.isDirectory()) {
      out.push(...(await walkFolder(path)));
    } else if (isIndexable(path)) {
      out.push(path);
    } else {
      throw new CliError(
        `Unsupported file type: ${input} (index accepts ${INDEXABLE_EXTENSIONS.join(", ")})`,
        EXIT.usage,
      );
    }
  }
  return [...new Set(out)];
}

async function walkFolder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await walkFolder(path)));
    else if (entry.isFile() && isIndexable(path)) out.push(path);
  }
  return out;
}
