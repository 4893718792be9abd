/**
 * Where the layout path's errors come from (issue 26), per dev-set PDF, worst first: each
 * reference entry (outline's top two levels, as layout-devset-score.ts) the tree misses is
 * classed as never a candidate (a weak candidate only, a strong one the layout rules set aside —
 * running heads, labels, the title page, contents pages —, a line without a heading's look, or a
 * title not on its page at all), a candidate the heading model dropped, kept but nested below
 * the top two levels, or kept at the other depth; each extra node as a deeper bookmark or no
 * bookmark at all. `--producer-cv` (train PDFs only) diagnoses each PDF's tree as producer-grouped
 * cross-validation builds it, by the heading model fitted without its producer (heading-fit.ts),
 * and sums the classes per producer: where a producer no fit has seen loses its entries.
 *
 * Run: npx tsx scripts/diagnose-devset-layout.ts [--half train|validation] [--only NAME] [--list] [--extra] [--no-contents] [--producer-cv] [--cache DIR]
 */
import { parseArgs } from "node:util";
import { findHeadings, type Heading } from "../packages/pageindex-loader/src/pdf/structure/candidates.js";
import { keepLikelyHeadings } from "../packages/pageindex-loader/src/pdf/structure/heading-evidence.js";
import {
  headingContext,
  layoutCandidates,
  layoutStructure,
} from "../packages/pageindex-loader/src/pdf/structure/layout.js";
import { DEBIAN_CACHE } from "./debian-docs.js";
import { headingDocs, heldOutModels } from "./heading-fit.js";
import { allLevels, layoutDevsetDocs } from "./layout-devset-docs.js";
import { layoutF1, topTwo } from "./layout-devset-score.js";
import { type Entry, SIMILARITY, similar } from "./structure-match.js";

const { values } = parseArgs({
  options: {
    cache: { type: "string", default: DEBIAN_CACHE },
    half: { type: "string" },
    only: { type: "string" },
    list: { type: "boolean" },
    extra: { type: "boolean" },
    "producer-cv": { type: "boolean" },
    "no-contents": { type: "boolean" },
  },
});
if (values["producer-cv"] && values.half === "validation") throw new Error("--producer-cv: train PDFs only");
/** With --producer-cv: each producer's heading model, fitted without any PDF it made. */
const producerModels = values["producer-cv"]
  ? heldOutModels(
      await headingDocs({ cache: values.cache as string, half: "train", extra: true }),
      (d) => d.producer,
      (d) => !values.only || d.label.includes(values.only),
    )
  : undefined;

const near = (a: { title: string; page: number }, b: { title: string; page: number }): boolean =>
  a.page === b.page && similar(a.title, b.title) >= SIMILARITY;

interface Row {
  half: string;
  producer: string;
  label: string;
  f1: number;
  counts: Record<string, number>;
  notes: string[];
}

const rows: Row[] = [];
/** Per half, why entries never became candidates. */
const lostBy = new Map<string, Map<string, number>>();
for await (const { doc, label, pdf, outline, reference, ctx } of layoutDevsetDocs({
  cache: values.cache as string,
  half: producerModels ? "train" : values.half,
  only: values.only,
  extra: values.extra,
  noContents: values["no-contents"],
})) {
  const model = producerModels?.get(doc.producer);
  const whyLost = lostBy.get(doc.half) ?? new Map<string, number>();
  lostBy.set(doc.half, whyLost);
  const bookmarks = allLevels(outline);
  const candidates: Heading[] = layoutCandidates(ctx).headings;
  const kept = new Set(keepLikelyHeadings(candidates, headingContext(ctx), model));
  const result = layoutStructure(ctx, model ? { headingModel: model } : {});
  const predicted = topTwo(result.entries);
  const deep = allLevels(result.entries);
  // Every heading-like line, strong or weak, furniture and contents pages included: where a
  // missed entry was lost before the heading model saw it.
  const raw = findHeadings(ctx.pages, { body: ctx.body });
  const lineOnPage = (r: Entry): boolean =>
    (pdf.pages.find((p) => p.pageNumber === r.page)?.lines ?? []).some(
      (l) => similar(l.text, r.title) >= SIMILARITY,
    );
  const counts: Record<string, number> = {
    "missed: no candidate": 0,
    "missed: model dropped": 0,
    "missed: nested below 2": 0,
    "wrong depth": 0,
    "extra: deeper bookmark": 0,
    "extra: no bookmark": 0,
  };
  const notes: string[] = [];
  const bump = (k: string, note: string) => {
    counts[k] = (counts[k] ?? 0) + 1;
    notes.push(`${k} | ${note}`);
  };
  for (const r of reference) {
    const same = predicted.find((p) => near(p, r));
    if (same) {
      if (same.level !== r.level)
        bump("wrong depth", `${r.title} [p${r.page}] ref ${r.level}, layout ${same.level}`);
      continue;
    }
    const c = candidates.find((h) => near(h, r));
    if (!c) {
      const w = raw.find((x) => near(x, r));
      const why = !w
        ? lineOnPage(r)
          ? "a line of the page, no heading look"
          : "title not on its page"
        : w.strength === "weak"
          ? "weak candidate"
          : "set aside by layout rules";
      whyLost.set(why, (whyLost.get(why) ?? 0) + 1);
      bump("missed: no candidate", `${r.title} [p${r.page}] L${r.level} (${why})`);
    } else if (!kept.has(c)) bump("missed: model dropped", `${r.title} [p${r.page}] L${r.level}`);
    else {
      const d = deep.find((p) => near(p, r));
      bump("missed: nested below 2", `${r.title} [p${r.page}] ref ${r.level}, layout ${d?.level ?? "?"}`);
    }
  }
  for (const p of predicted) {
    if (reference.some((r) => near(p, r))) continue;
    const b = bookmarks.find((x) => near(x, p));
    if (b) bump("extra: deeper bookmark", `${p.title} [p${p.page}] layout ${p.level}, bookmark ${b.level}`);
    else bump("extra: no bookmark", `${p.title} [p${p.page}] layout ${p.level}`);
  }
  rows.push({
    half: doc.half,
    producer: doc.producer,
    label,
    f1: layoutF1(reference, result.entries).f1,
    counts,
    notes,
  });
}

const keys = Object.keys(rows[0]?.counts ?? {});
console.log(`half | doc | F1 | ${keys.join(" | ")}`);
console.log(`--- | --- | ---: | ${keys.map(() => "---:").join(" | ")}`);
for (const half of ["train", "validation"]) {
  const list = rows.filter((r) => r.half === half).sort((a, b) => a.f1 - b.f1);
  for (const r of list) {
    console.log(
      `${half} | ${r.label} | ${(100 * r.f1).toFixed(1)} | ${keys.map((k) => r.counts[k]).join(" | ")}`,
    );
    if (values.list) for (const n of r.notes) console.log(`    ${n}`);
  }
  if (list.length > 0) {
    const sum = (k: string) => list.reduce((s, r) => s + (r.counts[k] ?? 0), 0);
    console.log(`${half} | all ${list.length} | | ${keys.map(sum).join(" | ")}`);
    const why = [...(lostBy.get(half) ?? new Map<string, number>())].map(([k, n]) => `${k} ${n}`);
    console.log(`${half}: entries that were never candidates: ${why.join(", ")}`);
  }
}
if (producerModels) {
  console.log(`\nproducer | PDFs | mean F1 | ${keys.join(" | ")}`);
  console.log(`--- | ---: | ---: | ${keys.map(() => "---:").join(" | ")}`);
  for (const producer of [...new Set(rows.map((r) => r.producer))]) {
    const list = rows.filter((r) => r.producer === producer);
    const sum = (k: string) => list.reduce((s, r) => s + (r.counts[k] ?? 0), 0);
    const f1 = list.reduce((s, r) => s + r.f1, 0) / list.length;
    console.log(`${producer} | ${list.length} | ${(100 * f1).toFixed(1)} | ${keys.map(sum).join(" | ")}`);
  }
}
