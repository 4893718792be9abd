/**
 * Where outline destinations point relative to the heading they name (issue 26), per producer on
 * the split dev set (scripts/devset-split.ts): for each bookmark whose destination gives a y
 * inside the page's text, the line that reads as its title (scripts/section-starts-score.ts's
 * check) nearest to that y, and how far its baseline stands from the destination's top, in units
 * of its font size (negative: below the top). Also how many lines stand between the top and the
 * heading. The window heading-position.ts searches around a destination comes from this table.
 *
 * Run: npx tsx scripts/measure-destinations.ts [--half train|validation] [--only NAME]
 */

import { basename } from "node:path";
import { parseArgs } from "node:util";
import { outlineStructure } from "../packages/pageindex-loader/src/pdf/index.js";
import { flatten } from "../packages/pageindex-loader/src/pdf/structure/sections.js";
import type { PdfLine } from "../packages/pageindex-loader/src/pdf/types.js";
import { DEBIAN_CACHE } from "./debian-docs.js";
import { SPLIT_DEVSET } from "./devset-split.js";
import { parsedPdf } from "./parsed-pdf-cache.js";
import { isHeading } from "./section-starts-score.js";

const { values } = parseArgs({
  options: {
    cache: { type: "string", default: DEBIAN_CACHE },
    half: { type: "string" },
    only: { type: "string" },
  },
});
const docs = SPLIT_DEVSET.filter((d) => !values.half || d.half === values.half);

/** Offsets (heading baseline − destination top, in heading sizes) and lines skipped, by producer. */
const byProducer = new Map<string, { offsets: number[]; skipped: number[]; none: number; top: number }>();
for (const doc of docs) {
  const label = `${doc.pkg}/${basename(doc.path)}`;
  if (values.only && !label.includes(values.only)) continue;
  const pdf = await parsedPdf(doc, values.cache as string);
  if (!pdf) continue;
  const stats = byProducer.get(doc.producer) ?? { offsets: [], skipped: [], none: 0, top: 0 };
  byProducer.set(doc.producer, stats);
  for (const e of flatten(outlineStructure(pdf.outline).entries)) {
    const page = pdf.pages[e.page - 1];
    if (!page || e.y === undefined || page.lines.length === 0) continue;
    const textTop = Math.max(...page.lines.map((l) => l.y + l.maxSize));
    if (e.y >= textTop - 1) {
      stats.top++;
      continue;
    }
    const y = e.y;
    let best: PdfLine | undefined;
    page.lines.forEach((l, i) => {
      if (!isHeading(e.title, l.text, page.lines[i + 1]?.text)) return;
      if (!best || Math.abs(l.y - y) < Math.abs(best.y - y)) best = l;
    });
    if (!best || Math.abs(best.y - y) > 200) {
      stats.none++;
      continue;
    }
    const h = best;
    stats.offsets.push((h.y - y) / h.maxSize);
    stats.skipped.push(page.lines.filter((l) => l.y < y + 0.5 * l.maxSize && l.y > h.y + 0.1).length);
  }
  console.error(`${label}: done`);
}

const q = (xs: number[], p: number): string => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? "-" : (s[Math.min(s.length - 1, Math.floor(p * s.length))] as number).toFixed(2);
};
console.log(
  "producer | bookmarks measured | at page top | title not printed near | offset p0.5 % | p1 % | p50 | p99 | p99.5 | max | headings with lines between top and them",
);
console.log("--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---:");
const all = { offsets: [] as number[], skipped: [] as number[], none: 0, top: 0 };
for (const [producer, s] of [...byProducer].sort()) {
  all.offsets.push(...s.offsets);
  all.skipped.push(...s.skipped);
  all.none += s.none;
  all.top += s.top;
  const between = s.skipped.filter((n) => n > 0).length;
  console.log(
    `${producer} | ${s.offsets.length} | ${s.top} | ${s.none} | ${q(s.offsets, 0.005)} | ${q(s.offsets, 0.01)} | ${q(s.offsets, 0.5)} | ${q(s.offsets, 0.99)} | ${q(s.offsets, 0.995)} | ${q(s.offsets, 1)} | ${between}`,
  );
}
console.log(
  `all | ${all.offsets.length} | ${all.top} | ${all.none} | ${q(all.offsets, 0.005)} | ${q(all.offsets, 0.01)} | ${q(all.offsets, 0.5)} | ${q(all.offsets, 0.99)} | ${q(all.offsets, 0.995)} | ${q(all.offsets, 1)} | ${all.skipped.filter((n) => n > 0).length}`,
);
