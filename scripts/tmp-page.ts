import { parsedPdf } from "/work/wt/layoutref/scripts/parsed-pdf-cache.js";
import { SPLIT_DEVSET } from "/work/wt/layoutref/scripts/devset-split.js";
import { DEBIAN_CACHE } from "/work/wt/layoutref/scripts/debian-docs.js";
const [name, ...ps] = process.argv.slice(2);
const doc = SPLIT_DEVSET.find((d) => d.path.includes(name as string))!;
const pdf = (await parsedPdf(doc, DEBIAN_CACHE))!;
for (const p of ps) for (const l of pdf.pages[Number(p) - 1]!.lines) console.log(p, l.x.toFixed(0), l.size.toFixed(1), l.bold ? "B" : " ", JSON.stringify(l.text));
