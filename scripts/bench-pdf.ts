// PDF indexing speed (no LLM): the loader's layout path (outline ignored, `structure: "layout"`)
// against raw `pdf-parse` v2 text extraction (`getText()`, pdf.js underneath) of the same bytes,
// in one process. Every run measures each file's raw extraction and loader back to back, in
// alternating order (raw first on even runs, loader first on odd ones, so warm caches and a GC
// left over by the previous job favour neither), as wall time and as the process's CPU time
// (`process.cpuUsage()`: user + system over all threads, so the neighbours' load on a shared
// machine counts less than in wall time). A file's ratio is the median over runs of loader time /
// raw time of the same run; the set's ratio is the median over runs of the summed times' ratio,
// with its range. `--outline` also times the outline path, `--read` the loader's read step alone,
// `--baseline FILE` another loader's layout path (FILE: its `pdf/loader.ts`, e.g. from a checkout
// of main), so a change is compared with what it replaces under the same load.
//
// PDFs: generated ones (pdf-lib, the tests' builder: a numbered report with a printed contents
// page, no outline, and the CLI's sample; `--generated 0` skips both), dev-set manuals from seven
// producers (fetched by scripts/debian-docs.ts into ~/.cache/pageindex-devset; `--devset a,b`
// picks others by label, `--devset none` skips them), `--corpus` adds ../shared/corpus, `--files
// a.pdf,b.pdf` adds files.
//
// Usage: pnpm build && npx tsx scripts/bench-pdf.ts [--runs N] [--devset a,b|none] [--generated N]
//        [--corpus] [--files a.pdf,b.pdf] [--outline] [--read] [--baseline FILE]
import { readFileSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { pdfToTree } from "pageindex-loader";
import { PDFParse } from "pdf-parse";
import { readPdf } from "../packages/pageindex-loader/src/pdf/read/read-pdf.js";
import { outlineStructure } from "../packages/pageindex-loader/src/pdf/structure/outline.js";
import {
  body,
  buildPdf,
  type LineSpec,
  type PageSpec,
  tocPage,
} from "../packages/pageindex-loader/test/fixtures/pdf-builder.js";
import { corpusPdfs } from "./corpus.js";
import { DEBIAN_CACHE, debianPdfBytes } from "./debian-docs.js";
import { SPLIT_DEVSET } from "./devset-split.js";

const { values } = parseArgs({
  options: {
    runs: { type: "string", default: "5" },
    devset: { type: "string" },
    generated: { type: "string", default: "120" },
    corpus: { type: "boolean", default: false },
    files: { type: "string" },
    outline: { type: "boolean", default: false },
    read: { type: "boolean", default: false },
    baseline: { type: "string" },
  },
});
const runs = Math.max(1, Number.parseInt(values.runs ?? "5", 10) || 5);

/** Dev-set manuals, one or two per producer, 17–196 pages (labels as in eval-devset-starts.ts). */
const DEVSET_DEFAULT = [
  "bash-doc/bashref.pdf", // Texinfo
  "cafeobj/pnguide.pdf", // LaTeX
  "krb5-doc/user.pdf", // Sphinx
  "toulbar2-doc/refman.pdf", // Doxygen
  "xorg-docs/icccm.pdf", // DocBook/FOP
  "linuxcnc-doc-en/LinuxCNC_Getting_Started.pdf", // DocBook/dblatex
  "groff/pdfmark.pdf", // groff
];

interface Sample {
  name: string;
  bytes: Uint8Array;
}

/** A numbered report of about `pages` pages: a printed contents page, chapters and sections, a page-number footer, no outline. */
async function generatedReport(pages: number): Promise<Sample> {
  const chapters = Math.max(2, Math.round(pages / 12));
  const perChapter = Math.max(1, Math.round(pages / chapters));
  const out: PageSpec[] = [{ lines: [{ text: "Operations Report", size: 24, bold: true }] }];
  const toc: Array<{ title: string; page: number; level?: number }> = [];
  for (let c = 1; c <= chapters; c++) {
    for (let p = 0; p < perChapter; p++) {
      const lines: LineSpec[] = [];
      if (p === 0) {
        lines.push({ text: `${c} Chapter on topic ${c}`, size: 16, bold: true, gap: 4 });
        toc.push({ title: `${c} Chapter on topic ${c}`, page: out.length + 2 });
      }
      const s = p + 1;
      lines.push({ text: `${c}.${s} Section ${s} of chapter ${c}`, size: 12, bold: true, gap: 6 });
      toc.push({ title: `${c}.${s} Section ${s} of chapter ${c}`, page: out.length + 2, level: 2 });
      lines.push(...body(p === 0 ? 40 : 42, c * 100 + p));
      out.push({ lines, footer: String(out.length + 1) });
    }
  }
  // The contents page goes second; keep it to one page's worth of entries.
  out.splice(1, 0, tocPage(toc.slice(0, 44)));
  return { name: `generated-report-${out.length}p.pdf`, bytes: await buildPdf({ pages: out }) };
}

async function samples(): Promise<Sample[]> {
  const out: Sample[] = [];
  const generated = Number.parseInt(values.generated ?? "120", 10);
  if (generated > 0) {
    out.push(await generatedReport(generated));
    // The CLI's sample, generated too (scripts/make-samples.ts).
    const sample = resolve(
      dirname(fileURLToPath(import.meta.url)),
      "../packages/pageindex-cli/samples/acme-annual-report-2025.pdf",
    );
    out.push({ name: basename(sample), bytes: new Uint8Array(readFileSync(sample)) });
  }
  const picks = values.devset === "none" ? [] : (values.devset?.split(",") ?? DEVSET_DEFAULT);
  for (const pick of picks) {
    const doc = SPLIT_DEVSET.find((d) => `${d.pkg}/${basename(d.path).replace(/\.gz$/, "")}`.includes(pick));
    const bytes = doc && debianPdfBytes(doc, DEBIAN_CACHE);
    if (bytes) out.push({ name: `${doc.pkg}/${basename(doc.path).replace(/\.gz$/, "")}`, bytes });
    else console.log(`skipped ${pick}: not in the dev set or not fetched`);
  }
  const files = [...(values.corpus ? corpusPdfs() : []), ...(values.files?.split(",").filter(Boolean) ?? [])];
  for (const file of files) out.push({ name: basename(file), bytes: new Uint8Array(readFileSync(file)) });
  return out;
}

async function rawPdfParse(bytes: Uint8Array): Promise<number> {
  // pdf.js may take ownership of the buffer it is given: hand each parser its own copy.
  const parser = new PDFParse({ data: bytes.slice() });
  try {
    const result = await parser.getText();
    return result.pages.length;
  } finally {
    await parser.destroy();
  }
}

const build = (bytes: Uint8Array, name: string, structure: "outline" | "layout") =>
  pdfToTree(bytes.slice(), { structure, summaries: "none" }, { name, path: name });

/** Wall and CPU milliseconds of one job. */
interface Cost {
  wall: number;
  cpu: number;
}

async function measure(work: () => Promise<unknown>): Promise<Cost> {
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  await work();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpu0);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};
const f2 = (x: number) => x.toFixed(2);

type Job = "raw" | "layout" | "outline" | "read" | "baseline";

type BuildTree = typeof pdfToTree;
const baselineTree: BuildTree | undefined = values.baseline
  ? ((await import(resolve(values.baseline))) as { pdfToTree: BuildTree }).pdfToTree
  : undefined;

const list = await samples();
if (list.length === 0) {
  console.log("no PDFs to measure");
  process.exit(0);
}
const info = new Map<string, { pages: number; outline: boolean }>();
for (const s of list) {
  const parsed = await readPdf(s.bytes.slice(), { source: s.name });
  info.set(s.name, { pages: parsed.pageCount, outline: outlineStructure(parsed.outline).usable });
}
const jobsOf = (s: Sample): Job[] => [
  "raw",
  "layout",
  ...(values.outline && info.get(s.name)?.outline ? (["outline"] as const) : []),
  ...(values.read ? (["read"] as const) : []),
  ...(baselineTree ? (["baseline"] as const) : []),
];
const run = (job: Job, s: Sample): Promise<unknown> => {
  if (job === "raw") return rawPdfParse(s.bytes);
  if (job === "read") return readPdf(s.bytes.slice(), { source: s.name });
  if (job === "baseline") {
    if (!baselineTree) throw new Error("no --baseline loader");
    return baselineTree(
      s.bytes.slice(),
      { structure: "layout", summaries: "none" },
      { name: s.name, path: s.name },
    );
  }
  return build(s.bytes, s.name, job);
};

// Warm-up, not counted: pdf.js module load, JIT, the tokenizer's rank table.
const first = list[0] as Sample;
for (const job of jobsOf(first)) await run(job, first);

/** costs[file][job][run] */
const costs = new Map<string, Map<Job, Cost[]>>();
for (let r = 0; r < runs; r++) {
  for (const s of list) {
    const jobs = jobsOf(s);
    const order = r % 2 === 0 ? jobs : [...jobs].reverse();
    const byJob = costs.get(s.name) ?? new Map<Job, Cost[]>();
    for (const job of order) {
      const c = await measure(() => run(job, s));
      byJob.set(job, [...(byJob.get(job) ?? []), c]);
    }
    costs.set(s.name, byJob);
  }
  process.stderr.write(`run ${r + 1}/${runs} done\n`);
}

/** Median over runs of job / raw in the same run, for wall or CPU time. */
const ratio = (byJob: Map<Job, Cost[]>, job: Job, key: keyof Cost): number => {
  const raw = byJob.get("raw") as Cost[];
  return median((byJob.get(job) ?? []).map((c, i) => c[key] / (raw[i] as Cost)[key]));
};

console.log(
  `${runs} runs, alternating order; ratios: loader time / raw pdf-parse time of the same run, median over runs\n`,
);
const extra = [
  values.outline ? "outline path × wall | outline × CPU" : "",
  values.read ? "read step × wall" : "",
  baselineTree ? "baseline layout × CPU" : "",
]
  .filter(Boolean)
  .join(" | ");
console.log(
  `file | pages | raw ms wall | raw ms CPU | layout × wall | layout × CPU | layout pages/s${extra ? ` | ${extra}` : ""}`,
);
console.log(
  `--- | ---: | ---: | ---: | ---: | ---: | ---:${extra ? " | ---:".repeat(extra.split("|").length) : ""}`,
);
for (const s of list) {
  const byJob = costs.get(s.name) as Map<Job, Cost[]>;
  const raw = byJob.get("raw") as Cost[];
  const layout = byJob.get("layout") as Cost[];
  const pages = info.get(s.name)?.pages ?? 0;
  const cells = [
    s.name,
    pages,
    median(raw.map((c) => c.wall)).toFixed(0),
    median(raw.map((c) => c.cpu)).toFixed(0),
    f2(ratio(byJob, "layout", "wall")),
    f2(ratio(byJob, "layout", "cpu")),
    ((pages * 1000) / median(layout.map((c) => c.wall))).toFixed(0),
  ];
  if (values.outline)
    cells.push(
      ...(byJob.has("outline")
        ? [f2(ratio(byJob, "outline", "wall")), f2(ratio(byJob, "outline", "cpu"))]
        : ["no usable outline", "-"]),
    );
  if (values.read) cells.push(f2(ratio(byJob, "read", "wall")));
  if (baselineTree) cells.push(f2(ratio(byJob, "baseline", "cpu")));
  console.log(cells.join(" | "));
}

/** Per run: summed job time / summed raw time over the files that ran the job. */
const setRatios = (job: Job, key: keyof Cost): number[] =>
  Array.from({ length: runs }, (_, r) => {
    let num = 0;
    let den = 0;
    for (const byJob of costs.values()) {
      const c = byJob.get(job)?.[r];
      const raw = byJob.get("raw")?.[r];
      if (!c || !raw) continue;
      num += c[key];
      den += raw[key];
    }
    return num / den;
  });
const pagesAll = [...info.values()].reduce((a, b) => a + b.pages, 0);
console.log(`\nall ${list.length} PDFs, ${pagesAll} pages:`);
for (const job of [
  "layout",
  ...(values.outline ? ["outline"] : []),
  ...(values.read ? ["read"] : []),
  ...(baselineTree ? ["baseline"] : []),
] as Job[]) {
  for (const key of ["wall", "cpu"] as const) {
    const rs = setRatios(job, key);
    console.log(
      `  ${job} / raw, ${key === "cpu" ? "CPU " : "wall"}: median ${f2(median(rs))}× (runs: ${rs.map(f2).join(", ")})`,
    );
  }
}
if (baselineTree) {
  const rs = setRatios("layout", "cpu").map((x, r) => x / (setRatios("baseline", "cpu")[r] as number));
  console.log(`  layout / baseline, CPU : median ${f2(median(rs))}× (runs: ${rs.map(f2).join(", ")})`);
}
