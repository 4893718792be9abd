/**
 * Lists the outline-bearing PDFs in the fetched Debian documentation packages (the cache of
 * scripts/debian-docs.ts) with their producer and outline size: the pool the split dev set
 * (scripts/devset-split.ts) was chosen from. Reads only metadata and the outline.
 *
 * Run: npx tsx scripts/devset-inventory.ts [--cache DIR] > inventory.tsv
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { gunzipSync } from "node:zlib";
import { openPdf } from "../packages/pageindex-loader/src/pdf/read/document.js";
import { DEBIAN_CACHE, excludedPackage } from "./debian-docs.js";

const { values } = parseArgs({ options: { cache: { type: "string", default: DEBIAN_CACHE } } });
const root = join(values.cache as string, "x");

function* pdfFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    const st = statSync(p, { throwIfNoEntry: false });
    if (!st) continue;
    if (st.isDirectory()) yield* pdfFiles(p);
    else if (/\.pdf(\.gz)?$/i.test(name) && st.size > 20_000) yield p;
  }
}

interface Node {
  items: Node[];
}
const count = (items: readonly Node[]): number => items.reduce((n, i) => n + 1 + count(i.items ?? []), 0);
const depth = (items: readonly Node[]): number =>
  items.reduce((d, i) => Math.max(d, 1 + depth(i.items ?? [])), 0);

console.log("pkg\tpath\tpages\tbookmarks\tdepth\tproducer\tcreator");
for (const pkg of readdirSync(root).sort()) {
  if (excludedPackage(pkg)) continue;
  for (const file of pdfFiles(join(root, pkg))) {
    try {
      const raw = readFileSync(file);
      const data = new Uint8Array(file.endsWith(".gz") ? gunzipSync(raw) : raw);
      const doc = await openPdf(data, { source: file });
      const outline = ((await doc.getOutline()) ?? []) as unknown as Node[];
      const meta = await doc.getMetadata();
      const info = (meta.info ?? {}) as Record<string, unknown>;
      const clean = (v: unknown) =>
        String(v ?? "")
          .replace(/\s+/g, " ")
          .slice(0, 60);
      console.log(
        [
          pkg,
          relative(join(root, pkg), file),
          doc.numPages,
          count(outline),
          depth(outline),
          clean(info.Producer),
          clean(info.Creator),
        ].join("\t"),
      );
      await doc.destroy();
    } catch (error) {
      console.log(
        [pkg, relative(join(root, pkg), file), "error", (error as Error).message.slice(0, 60)].join("\t"),
      );
    }
  }
}
