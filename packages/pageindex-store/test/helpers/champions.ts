import { expect } from "vitest";
import { SECTION_FIELDS, sectionFieldTerms } from "../../src/library/query.js";
import { openConnection } from "../../src/library/sqlite/open.js";
import { FIELD_WEIGHT_SQL, impact, PendingRows } from "../../src/library/sqlite/pending.js";
import { SECTION_ID, sectionId } from "../../src/library/sqlite/schema.js";
import type { LibraryEntry } from "../../src/library/types.js";

/** FTS5 tokens of a field (unicode61 splits on anything but letters and digits). */
const tokens = (field: string) => field.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);

/** A section's terms with their field-weighted counts, and its length in tokens, as FTS5 counts them. */
function weightedTerms(fields: readonly string[]): { terms: Map<string, number>; len: number } {
  const terms = new Map<string, number>();
  let len = 0;
  fields.forEach((field, i) => {
    const weight = SECTION_FIELDS[i]?.weight ?? 1;
    for (const token of tokens(field)) {
      terms.set(token, (terms.get(token) ?? 0) + weight);
      len += 1;
    }
  });
  return { terms, len };
}

/**
 * Checks a library index file's champion lists against the documents it should hold, computed
 * here from the entries. What a query reads of a term with a list (the list's rows and the
 * pending rows, of documents not gone; those below the list's last row cut when the list does
 * not hold every row of its term) is the best of the sections holding it (impact, then the later
 * row id), and all of them when the list holds every row. With no backlog (just merged), every
 * term in more than `perTerm` sections has a list, each list holds at least `perTerm` rows (or
 * all), at most twice that, and no list or length names a section that is gone.
 */
export async function expectChampionsAgree(
  file: string,
  entries: readonly LibraryEntry[],
  perTerm: number,
): Promise<void> {
  const db = await openConnection(file, true);
  try {
    const docRows = db.prepare("SELECT doc, doc_id FROM documents").all() as Array<{
      doc: number;
      doc_id: string;
    }>;
    const docOf = new Map(docRows.map((r) => [r.doc_id, Number(r.doc)]));
    expect([...docOf.keys()].sort()).toEqual(entries.map((e) => e.card.docId).sort());
    const expected = new Map<string, Array<{ id: number; impact: number }>>();
    const lengths = new Map<number, number>();
    for (const entry of entries) {
      const doc = docOf.get(entry.card.docId) as number;
      entry.sections.slice(0, SECTION_ID.maxSections).forEach((s, i) => {
        const id = sectionId(doc, i, s.backMatter);
        const { terms, len } = weightedTerms(sectionFieldTerms(s));
        lengths.set(id, len);
        for (const [term, wf] of terms) {
          const list = expected.get(term) ?? [];
          list.push({ id, impact: impact(wf, len) });
          expected.set(term, list);
        }
      });
    }
    const stored = db.prepare("SELECT id, len FROM section_lengths ORDER BY id").all() as Array<{
      id: number;
      len: number;
    }>;
    expect(new Map(stored.map((r) => [Number(r.id), Number(r.len)]))).toEqual(lengths);
    const meta = new Map(
      (
        db.prepare("SELECT term, kept, complete, floor, floor_id FROM champion_terms").all() as Array<{
          term: string;
          kept: number;
          complete: number;
          floor: number;
          floor_id: number;
        }>
      ).map((m) => [m.term, m]),
    );
    const gone = new Set(
      (db.prepare("SELECT doc FROM champion_gone").all() as Array<{ doc: number }>).map((r) => Number(r.doc)),
    );
    const pendingRows = new Map<string, Array<{ id: number; impact: number }>>();
    new PendingRows(db, (source) => db.prepare(source));
    for (const { term, id, wf, len } of db
      .prepare(
        `SELECT i.term AS term, i.doc AS id, sum(${FIELD_WEIGHT_SQL}) AS wf, l.len AS len
         FROM temp.champion_pending_instances i JOIN section_lengths l ON l.id = i.doc GROUP BY i.term, i.doc`,
      )
      .all() as Array<{
      term: string;
      id: number;
      wf: number;
      len: number;
    }>) {
      const list = pendingRows.get(term) ?? [];
      list.push({ id: Number(id), impact: impact(wf, Number(len)) });
      pendingRows.set(term, list);
    }
    const pendingTerms = [...pendingRows.keys()];
    const merged = gone.size === 0 && pendingTerms.length === 0;
    const listed = db.prepare("SELECT id, impact FROM champions WHERE term = ?");
    const byImpact = (a: { id: number; impact: number }, b: { id: number; impact: number }) =>
      b.impact - a.impact || b.id - a.id;
    for (const term of new Set([...meta.keys(), ...pendingTerms, ...expected.keys()])) {
      const all = (expected.get(term) ?? []).sort(byImpact).map((r) => r.id);
      const rows = listed.all(term) as Array<{ id: number; impact: number }>;
      const list = meta.get(term);
      // A term in more rows than a query reads has a list once merged; a rarer one may have none
      // (a query has FTS5 score its rows).
      if (merged && all.length > perTerm) expect(list, term).toBeDefined();
      if (!list) {
        expect(rows, term).toEqual([]);
        continue;
      }
      if (merged) {
        expect(rows.length, term).toBe(Number(list.kept));
        expect(rows.length, term).toBeGreaterThanOrEqual(Math.min(perTerm, all.length));
        expect(rows.length, term).toBeLessThanOrEqual(2 * perTerm);
      }
      let view = [...rows, ...(pendingRows.get(term) ?? [])]
        .filter((r) => !gone.has(Math.floor(r.id / SECTION_ID.perDocument)))
        .map((r) => ({ id: Number(r.id), impact: Number(r.impact) }))
        .sort(byImpact);
      if (list.complete !== 1)
        view = view.filter(
          (r) => r.impact > list.floor || (r.impact === list.floor && r.id >= list.floor_id),
        );
      else expect(view.length, term).toBe(all.length);
      expect(
        view.map((r) => r.id),
        term,
      ).toEqual(all.slice(0, view.length));
    }
  } finally {
    db.close();
  }
}
