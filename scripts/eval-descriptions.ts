/**
 * Descriptions without a model, on real documents: every PDF and Markdown file of
 * `../shared/corpus` (FinanceBench filings, PageIndex's samples, Markdown specs; skipped with a
 * message when absent) and of a few Debian documentation packages, fetched here with
 * `apt-get download` into a cache folder (`$PAGEINDEX_DEBIAN_CACHE`, default
 * `<tmpdir>/pageindex-debian-docs`; never committed) and unpacked with `dpkg-deb -x`.
 *
 * For each document: the description the loader now stores (`tree.description`, no model) and,
 * for comparison, what the old extractive description made of the same tree (title, first
 * sentence of the first node with text — for a PDF, its first page's running text). Prints
 * how many descriptions are non-empty, then every one.
 *
 * Run: pnpm --filter pageindex-store --filter pageindex-loader build && npx tsx scripts/eval-descriptions.ts
 *   [--no-debian] [--packages glpk-doc,octave-doc,…]
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { TreeDocument } from "pageindex-core";
import { describeDocument, PageIndexLoader } from "pageindex-loader";
import { CORPUS_DIR } from "./corpus.js";

/** Doc packages with PDFs or Markdown (never r-doc-pdf, gnuplot-doc, libigraph-doc or texlive-*-doc). */
const DEFAULT_PACKAGES = ["glpk-doc", "octave-doc", "debian-reference-en", "nodejs-doc"];
const FORBIDDEN = /^(?:r-doc-pdf|gnuplot-doc|libigraph-doc|texlive-.*-doc)$/;

const args = process.argv.slice(2);
const packagesArg = args[args.indexOf("--packages") + 1];
const packages = args.includes("--packages") && packagesArg ? packagesArg.split(",") : DEFAULT_PACKAGES;

function filesUnder(dir: string, pattern: RegExp): string[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .map((f) => join(dir, f))
    .filter((f) => pattern.test(f) && statSync(f, { throwIfNoEntry: false })?.isFile()) // dangling links out
    .sort();
  // A package may link one file under two names: measure it once.
  return [...new Map(files.map((f) => [realpathSync(f), f])).values()];
}

/** Downloads and unpacks the packages once; returns their PDF and Markdown files (.md.gz unzipped). */
function debianDocuments(): Array<{ name: string; bytes: Uint8Array }> {
  const cache = process.env.PAGEINDEX_DEBIAN_CACHE ?? join(tmpdir(), "pageindex-debian-docs");
  const unpacked = join(cache, "root");
  mkdirSync(unpacked, { recursive: true });
  for (const pkg of packages) {
    if (FORBIDDEN.test(pkg)) throw new Error(`${pkg} is not to be used here`);
    if (readdirSync(cache).some((f) => f.startsWith(`${pkg}_`) && f.endsWith(".deb"))) continue;
    try {
      execFileSync("apt-get", ["download", pkg], { cwd: cache, stdio: "ignore" });
    } catch (error) {
      console.log(`apt-get download ${pkg} failed (${(error as Error).message.split("\n")[0]}); skipped`);
    }
  }
  for (const deb of readdirSync(cache).filter((f) => f.endsWith(".deb"))) {
    execFileSync("dpkg-deb", ["-x", join(cache, deb), unpacked]);
  }
  return filesUnder(unpacked, /\.(?:pdf|md|md\.gz)$/i).map((file) => ({
    name: basename(file).replace(/\.gz$/, ""),
    bytes: file.endsWith(".gz") ? gunzipSync(readFileSync(file)) : readFileSync(file),
  }));
}

function corpusDocuments(): Array<{ name: string; bytes: Uint8Array }> {
  if (!existsSync(CORPUS_DIR)) {
    console.log(`Corpus not found at ${CORPUS_DIR}: measuring the Debian documents only.`);
    return [];
  }
  return filesUnder(CORPUS_DIR, /\.(?:pdf|md)$/i)
    .filter((f) => basename(f) !== "README.md")
    .map((file) => ({ name: basename(file), bytes: readFileSync(file) }));
}

/** The old extractive description: title and the first sentence of the first node with text. */
async function before(tree: TreeDocument): Promise<string> {
  const markup = tree.kind === "pdf" ? "plain" : "markdown";
  const title = (tree.metadata?.pdf as { title?: string } | undefined)?.title;
  return (await describeDocument(tree, { markup, ...(title ? { title } : {}) })).description ?? "";
}

const documents = [
  ...corpusDocuments().map((d) => ({ ...d, from: "corpus" })),
  ...(args.includes("--no-debian") ? [] : debianDocuments().map((d) => ({ ...d, from: "debian" }))),
];
const rows: Array<{
  from: string;
  name: string;
  kind: string;
  description: string;
  old: string;
  ms: number;
}> = [];
for (const doc of documents) {
  const started = performance.now();
  try {
    const tree = await new PageIndexLoader(new File([doc.bytes], doc.name), {
      pdf: { summaries: "none" },
      markdown: { summaries: "none" },
    }).loadTree();
    rows.push({
      from: doc.from,
      name: doc.name,
      kind: tree.kind,
      description: tree.description ?? "",
      old: await before(tree),
      ms: performance.now() - started,
    });
  } catch (error) {
    console.log(`${doc.name}: not loaded (${(error as Error).message})`);
  }
}

const count = (kind: string) => {
  const of = rows.filter((r) => r.kind === kind);
  return `${of.filter((r) => r.description.trim() !== "").length}/${of.length}`;
};
console.log(`\nNon-empty descriptions without a model: PDF ${count("pdf")}, Markdown ${count("markdown")}`);
console.log(
  `(${rows.filter((r) => r.from === "corpus").length} corpus and ${rows.filter((r) => r.from === "debian").length} Debian documents)\n`,
);
const cell = (text: string) => text.replace(/\|/g, "\\|");
console.log("| document | description (now) | before (first node's text) |");
console.log("|---|---|---|");
for (const r of rows) console.log(`| ${cell(r.name)} | ${cell(r.description)} | ${cell(r.old)} |`);
