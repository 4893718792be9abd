/**
 * Section starts on the split dev set (issue 26; scripts/devset-split.ts): the loader as users
 * run it (`structure: "outline"`, the bookmarks' destinations give page and y), scored as
 * scripts/eval-section-starts.ts scores (scripts/section-starts-score.ts): % of leaf and inner
 * sections whose text opens with their own heading (among those whose title is printed on their
 * start page), characters lost and duplicated against the body text. Rows per PDF, then per half
 * and producer. `--json FILE` keeps the rows, `--against FILE` prints a before column from such
 * a file. PDFs are fetched as scripts/debian-docs.ts does (cache outside the repository) and read
 * once (scripts/parsed-pdf-cache.ts; `--fresh` reads them again); the outline path's steps then
 * run as the loader runs them (pipeline/sections.ts).
 *
 * `--extra` adds the train side's fitting rows (TRAIN_EXTRA, half "train-extra", after the split set).
 *
 * Run: npx tsx scripts/eval-devset-starts.ts [--half train|validation] [--extra] [--only NAME] [--show NAME] [--json out.json] [--against before.json]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { createTree } from "pageindex-core";
import { layoutContext, outlineStructure } from "../packages/pageindex-loader/src/pdf/index.js";
import {
  bodyFurniture,
  entriesToDrafts,
  locateEntries,
  orderPositions,
  TextSlicer,
} from "../packages/pageindex-loader/src/pdf/structure/sections.js";
import { textFurniture, withEdgeBands } from "../packages/pageindex-loader/src/pdf/text/running-heads.js";
import { DEBIAN_CACHE } from "./debian-docs.js";
import { SPLIT_DEVSET, TRAIN_EXTRA } from "./devset-split.js";
import { parsedPdf } from "./parsed-pdf-cache.js";
import { nodeSections, score, withoutHeadings } from "./section-starts-score.js";

const { values } = parseArgs({
  options: {
    cache: { type: "string", default: DEBIAN_CACHE },
    half: { type: "string" },
    only: { type: "string" },
    show: { type: "string" },
    json: { type: "string" },
    against: { type: "string" },
    fresh: { type: "boolean", default: false },
    extra: { type: "boolean", default: false },
  },
});

/** One PDF's result. */
interface Row {
  label: string;
  half: string;
  producer: string;
  pages: number;
  sections: number;
  checkable: number;
  starting: number;
  lost: number;
  duplicated: number;
  error?: string;
}

/** A row's counts before anything is counted (a PDF's, or a producer's total). */
const NO_COUNTS = { pages: 0, sections: 0, checkable: 0, starting: 0, lost: 0, duplicated: 0 } as const;

/** A row's key: its label, numbered when several PDFs share it (gap-doc's two manual.pdf). */
const keyed = (list: readonly Row[]): Map<string, Row> => {
  const out = new Map<string, Row>();
  for (const r of list) {
    let key = r.label;
    for (let n = 2; out.has(key); n++) key = `${r.label}#${n}`;
    out.set(key, r);
  }
  return out;
};
const before = keyed(
  values.against && existsSync(values.against)
    ? (JSON.parse(readFileSync(values.against, "utf8")) as Row[])
    : [],
);
const extra = new Set(values.extra ? TRAIN_EXTRA : []);
const docs = [...SPLIT_DEVSET, ...extra].filter((d) => !values.half || d.half === values.half);
const pct = (a: number, b: number): string => (b === 0 ? "-" : ((100 * a) / b).toFixed(2));
const rows: Row[] = [];

console.log(
  "half | producer | doc | pages | sections | checkable | start at heading % | before % | chars lost | chars duplicated",
);
console.log("--- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---:");
for (const doc of docs) {
  const name = basename(doc.path).replace(/\.gz$/, "");
  const label = `${doc.pkg}/${name}`;
  if (values.only && !label.includes(values.only)) continue;
  const row: Row = {
    label,
    half: extra.has(doc) ? "train-extra" : doc.half,
    producer: doc.producer,
    ...NO_COUNTS,
  };
  try {
    const pdf = await parsedPdf(doc, values.cache as string, values.fresh);
    if (!pdf) continue;
    row.pages = pdf.pageCount;
    // The loader's outline path (pipeline/sections.ts): headings placed past the layout's
    // furniture and the edge bands, text cut without the running heads, never a heading line.
    const layout = layoutContext(pdf.pages, { pageLabels: pdf.pageLabels });
    const located = withEdgeBands(pdf.pages, layout.furniture);
    const outline = outlineStructure(pdf.outline);
    if (!outline.usable) throw new Error(`outline not usable: ${outline.reason}`);
    const entries = outline.entries;
    locateEntries(entries, pdf.pages, located);
    orderPositions(entries);
    const furniture = textFurniture(pdf.pages, layout.runningHeads, located);
    const slicer = new TextSlicer(pdf.pages, bodyFurniture(furniture, entries));
    const tree = createTree(
      { docId: "eval", docName: name, kind: "pdf", build: { loader: "pdf", structure: "outline" } },
      entriesToDrafts(entries, slicer),
    );
    const s = score(nodeSections(tree.nodes), pdf.pages, withoutHeadings(furniture, tree.nodes, pdf.pages));
    Object.assign(row, {
      sections: s.sections,
      checkable: s.checkable,
      starting: s.starting,
      lost: s.lost,
      duplicated: s.duplicated,
    });
    if (values.show && label.includes(values.show)) for (const b of s.bad.slice(0, 40)) console.log(`  ${b}`);
  } catch (error) {
    row.error = (error as Error).message.split("\n")[0];
  }
  rows.push(row);
  const b = before.get([...keyed(rows).keys()].at(-1) as string);
  console.log(
    `${row.half} | ${row.producer} | ${label} | ${row.pages} | ${row.sections} | ${row.checkable} | ${row.error ? `failed: ${row.error}` : pct(row.starting, row.checkable)} | ${b ? pct(b.starting, b.checkable) : "-"} | ${row.lost} | ${row.duplicated}`,
  );
}

/** Sums of rows by half and producer. */
function totals(list: readonly Row[]): Map<string, Row> {
  const out = new Map<string, Row>();
  for (const r of list) {
    for (const key of [`${r.half} | ${r.producer}`, `${r.half} | all`]) {
      const t = out.get(key) ?? {
        ...r,
        label: key,
        ...NO_COUNTS,
      };
      t.pages += r.pages;
      t.sections += r.sections;
      t.checkable += r.checkable;
      t.starting += r.starting;
      t.lost += r.lost;
      t.duplicated += r.duplicated;
      out.set(key, t);
    }
  }
  return out;
}
const now = totals(rows);
const then = totals([...before.values()]);
console.log(
  "\nhalf | producer | PDFs | sections checked | start at heading % | before % | chars lost | chars duplicated | before: lost / duplicated",
);
console.log("--- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---:");
for (const key of [...now.keys()].sort()) {
  const t = now.get(key) as Row;
  const b = then.get(key);
  const n = rows.filter(
    (r) => `${r.half} | ${r.producer}` === key || (key.endsWith("| all") && key.startsWith(`${r.half} |`)),
  ).length;
  console.log(
    `${key} | ${n} | ${t.checkable} | ${pct(t.starting, t.checkable)} | ${b ? pct(b.starting, b.checkable) : "-"} | ${t.lost} | ${t.duplicated} | ${b ? `${b.lost} / ${b.duplicated}` : "-"}`,
  );
}
if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 1));
