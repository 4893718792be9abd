/**
 * `pageindex index DIR` over generated libraries of small Markdown files (100 and 1,000 by
 * default; `--sizes 100,1000,10000`), on the folder store, through the command's own code
 * (`indexFiles`, offline) with the byte store wrapped to count what it is asked:
 *
 * - first run: files/s, and keys read and listed per file (a new document's write lists the
 *   document heads once, in the store's case-twin check);
 * - re-run with every file unchanged: files/s, keys read per file (the head under the file's
 *   id: constant, whatever the library's size), keys listed (none) and writes (none).
 *
 * Run: pnpm build && npx tsx scripts/bench-index-library.ts [--sizes 100,1000] [--concurrency 4]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileByteStore } from "pageindex-store";
import { indexFiles } from "../packages/pageindex-cli/src/cli/commands/index-files.js";
import { captureIo, countingStore, libraryContext, writeLibrary } from "../test/support/index-library.js";

const args = process.argv.slice(2);
const option = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const sizes = (option("--sizes") ?? "100,1000").split(",").map(Number);
const concurrency = Number(option("--concurrency") ?? 4);

const root = await mkdtemp(join(tmpdir(), "pageindex-library-bench-"));
console.log(`Offline, folder store, --concurrency ${concurrency}; files and store under ${root}\n`);
console.log(
  "| files | first run files/s | keys read / file | keys listed / file | re-run (unchanged) files/s | keys read / unchanged file | keys listed | writes |",
);
console.log("|---|---|---|---|---|---|---|---|");
try {
  for (const size of sizes) {
    const files = await writeLibrary(join(root, `lib-${size}`), size);
    const { bytes, store } = countingStore(await FileByteStore.fromPath(join(root, `store-${size}`)));
    const ctx = libraryContext(store, captureIo(), { json: true });
    let started = performance.now();
    await indexFiles(ctx, files, { concurrency });
    const firstMs = performance.now() - started;
    const first = { read: bytes.keysRead, listed: bytes.keysListed };
    bytes.reset();
    started = performance.now();
    await indexFiles(ctx, files, { concurrency });
    const againMs = performance.now() - started;
    const rate = (ms: number) => ((size * 1000) / ms).toFixed(0);
    console.log(
      `| ${size} | ${rate(firstMs)} | ${(first.read / size).toFixed(1)} | ${(first.listed / size).toFixed(1)} | ${rate(againMs)} | ${(bytes.keysRead / size).toFixed(2)} | ${bytes.keysListed} | ${bytes.writes} |`,
    );
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
