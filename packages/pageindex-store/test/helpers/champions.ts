import { expect } from "vitest";
import { sectionFieldTerms } from "../../src/library/query.js";
import { impact, weightedTerms } from "../../src/library/sqlite/champions.js";
import { openConnection } from "../../src/library/sqlite/open.js";
import { SECTION_ID, sectionId } from "../../src/library/sqlite/schema.js";
import type { LibraryEntry } from "../../src/library/types.js";

/**
 * Checks a library index file's champion lists against the documents it should hold, computed
 * here from the entries: each term's list is the best `kept` of the sections holding it (impact,
 * then the later row id), holds at least `perTerm` of them (or all), at most twice that, holds every one
 * when marked complete, and no list or length names a section that is gone.
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
    const meta = db.prepare("SELECT term, kept, complete FROM champion_terms").all() as Array<{
      term: string;
      kept: number;
      complete: number;
    }>;
    expect(meta.map((m) => m.term).sort()).toEqual([...expected.keys()].sort());
    const read = db.prepare("SELECT id FROM champions WHERE term = ? ORDER BY impact DESC, id DESC");
    for (const { term, kept, complete } of meta) {
      const all = (expected.get(term) ?? []).sort((a, b) => b.impact - a.impact || b.id - a.id);
      const list = (read.all(term) as Array<{ id: number }>).map((r) => Number(r.id));
      expect(list.length, term).toBe(Number(kept));
      expect(list.length, term).toBeGreaterThanOrEqual(Math.min(perTerm, all.length));
      expect(list.length, term).toBeLessThanOrEqual(2 * perTerm);
      if (complete === 1) expect(list.length, term).toBe(all.length);
      expect(list, term).toEqual(all.slice(0, list.length).map((r) => r.id));
    }
  } finally {
    db.close();
  }
}
