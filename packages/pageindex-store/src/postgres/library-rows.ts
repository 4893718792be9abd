import { metadataFacets } from "../catalog/card.js";
import { summaryLine } from "../library/query.js";
import type { LibraryEntry } from "../library/types.js";
import { cardVector, sectionVector } from "./library-vectors.js";

/** What a batch of library entries writes, as column arrays for `INSERT … SELECT unnest(…)`. */
export interface LibraryRows {
  /** doc_id, version_id, card (JSON text), tsv. */
  cards: unknown[][];
  /** key, value, doc_id (lowercased, as the catalog's filters compare). */
  facets: unknown[][];
  /** doc_id, node_id, title, ancestors (JSON text), level, pages, lines, back_matter, summary, tsv. */
  sections: unknown[][];
  /** Sections and cards holding each term; the empty term counts all of them. */
  counts: Map<string, [number, number]>;
}

const columns = (n: number): unknown[][] => Array.from({ length: n }, () => []);

/** Text as a PostgreSQL text column takes it: without NUL characters (a PDF's text may hold them). */
const pgText = (value: string): string => value.replaceAll("\u0000", "");

/** JSON whose strings hold no NUL either: PostgreSQL's json operators (`->>`) refuse `\u0000`. */
const pgJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === "string" ? pgText(v) : v));

function push(target: unknown[][], values: readonly unknown[]): void {
  values.forEach((value, i) => {
    target[i]?.push(value);
  });
}

/** The rows of `entries` (one entry per document). */
export function libraryRows(entries: readonly LibraryEntry[]): LibraryRows {
  const rows: LibraryRows = {
    cards: columns(4),
    facets: columns(3),
    sections: columns(12),
    counts: new Map([["", [0, entries.length]]]),
  };
  const count = (terms: readonly string[], field: 0 | 1) => {
    for (const term of terms) {
      const pair = rows.counts.get(term);
      if (pair) pair[field] += 1;
      else rows.counts.set(term, field === 0 ? [1, 0] : [0, 1]);
    }
  };
  let sectionTotal = 0;
  for (const { card, sections } of entries) {
    const vector = cardVector(card);
    count(vector.terms, 1);
    push(rows.cards, [card.docId, card.versionId, pgJson(card), vector.literal]);
    const facets = new Map<string, [string, string]>();
    for (const [key, value] of [...metadataFacets(card.metadata), ["kind", card.kind] as [string, string]]) {
      const facet: [string, string] = [key.toLowerCase(), value.trim().toLowerCase()];
      facets.set(facet.join("\u0001"), facet);
    }
    for (const [key, value] of facets.values()) push(rows.facets, [key, pgText(value), card.docId]);
    for (const s of sections) {
      const section = sectionVector(s);
      count(section.terms, 0);
      push(rows.sections, [
        card.docId,
        s.nodeId,
        pgText(s.title),
        pgJson(s.ancestors),
        s.level,
        s.startPage ?? null,
        s.endPage ?? null,
        s.startLine ?? null,
        s.endLine ?? null,
        s.backMatter,
        pgText(summaryLine(s.summary)),
        section.literal,
      ]);
    }
    sectionTotal += sections.length;
  }
  (rows.counts.get("") as [number, number])[0] = sectionTotal;
  return rows;
}
