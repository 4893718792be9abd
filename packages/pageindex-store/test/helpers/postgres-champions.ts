import pg from "pg";
import { expect } from "vitest";
import { CARD_RANK_WEIGHTS, SECTION_RANK_WEIGHTS } from "../../src/postgres/library-vectors.js";
import { POSTGRES_URL } from "./postgres.js";

type Row = [string, string, number];

/** Rows by term, best first (then document order), as a list orders them. */
function byTerm(rows: ReadonlyArray<Record<string, unknown>>): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const r of rows) {
    const term = r.term as string;
    out.set(term, [...(out.get(term) ?? []), [r.doc_id as string, r.node_id as string, Number(r.rank)]]);
  }
  for (const list of out.values())
    list.sort((a, b) => b[2] - a[2] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : 1));
  return out;
}

/**
 * Checks a PostgreSQL library's champion lists against the rows stored. What a query reads of a
 * term (its list's rows and its pending rows together) is exactly the best of the rows holding
 * it (ts_rank of the term alone over the row's length factor, then document order), at
 * least `perTerm` of them or all, and names no row that is gone. With nothing pending (just
 * merged), each term in some row has a list of at most `kept` rows, marked complete exactly when
 * it holds them all, its floor its last row; no list is left for a term in no row; the node
 * counts match the cards.
 */
export async function expectPostgresListsAgree(schema: string, perTerm: number, kept: number): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    const s = `"${schema}"`;
    for (const kind of [
      {
        lists: "library_champion",
        table: "library_sections",
        node: "s.node_id",
        weights: SECTION_RANK_WEIGHTS,
        // BM25's length factor, b = 0.75 at a reference length of 64 lexemes (cards too).
        perLength: "/ (0.25 + 0.01171875 * length(s.tsv))",
      },
      {
        lists: "library_card_champion",
        table: "library_cards",
        node: "''",
        weights: CARD_RANK_WEIGHTS,
        perLength: "/ (0.25 + 0.01171875 * length(s.tsv))",
      },
    ]) {
      const expected = byTerm(
        (
          await client.query(
            `SELECT u.lexeme AS term, s.doc_id, ${kind.node} AS node_id,
                    ts_rank('${kind.weights}', s.tsv, ('''' || u.lexeme || '''')::tsquery, 0)::float8 ${kind.perLength} AS rank
             FROM ${s}.${kind.table} s, unnest(s.tsv) AS u`,
          )
        ).rows,
      );
      const listed = byTerm((await client.query(`SELECT * FROM ${s}.${kind.lists}s`)).rows);
      const pending = byTerm((await client.query(`SELECT * FROM ${s}.${kind.lists}_pending`)).rows);
      const read = byTerm(
        (
          await client.query(
            `SELECT term, doc_id, node_id, rank FROM ${s}.${kind.lists}s
             UNION ALL SELECT term, doc_id, node_id, rank FROM ${s}.${kind.lists}_pending`,
          )
        ).rows,
      );
      for (const [term, all] of expected) {
        const seen = read.get(term) ?? [];
        const n = Math.min(perTerm, all.length);
        expect(seen.slice(0, n), term).toEqual(all.slice(0, n));
        const real = new Set(all.map((r) => JSON.stringify(r)));
        for (const row of seen) expect(real.has(JSON.stringify(row)), `${term} ${row}`).toBe(true);
      }
      for (const term of read.keys()) expect(expected.has(term), term).toBe(true);
      if (pending.size > 0) continue;
      const { rows: terms } = await client.query(
        `SELECT term, kept, complete, floor_doc, floor_node FROM ${s}.${kind.lists}_terms WHERE term <> ''`,
      );
      expect(new Set(terms.map((t) => t.term))).toEqual(new Set(expected.keys()));
      expect(new Set(listed.keys())).toEqual(new Set(expected.keys()));
      for (const t of terms) {
        const all = expected.get(t.term) ?? [];
        const list = listed.get(t.term) ?? [];
        expect(list.length, t.term).toBe(Number(t.kept));
        expect(list.length, t.term).toBeLessThanOrEqual(kept);
        expect(list.length, t.term).toBeGreaterThanOrEqual(Math.min(perTerm, all.length));
        expect(list, t.term).toEqual(all.slice(0, list.length));
        expect(t.complete, t.term).toBe(list.length === all.length);
        expect([t.floor_doc, t.floor_node], t.term).toEqual(list.at(-1)?.slice(0, 2));
      }
    }
    // The node counts kept with the lists: one per card, its nodeCount.
    const counts = async (sql: string) =>
      (await client.query(sql)).rows.map((r) => [r.doc_id, Number(r.nodes)]);
    expect(await counts(`SELECT doc_id, nodes FROM ${s}.library_node_counts ORDER BY doc_id`)).toEqual(
      await counts(
        `SELECT doc_id, (card->>'nodeCount')::int AS nodes FROM ${s}.library_cards ORDER BY doc_id`,
      ),
    );
    // Each section list row, merged or pending, carries its document's count (this release's
    // shape; lists an earlier release wrote, and this one reads as they are, have no column).
    for (const table of ["library_champions", "library_champion_pending"]) {
      const carried = await client.query(
        "SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'nodes' AND NOT attisdropped",
        [`${s}.${table}`],
      );
      if (carried.rows.length === 0) continue;
      const { rows } = await client.query(
        `SELECT r.term, r.doc_id, r.nodes, n.nodes AS counted FROM ${s}.${table} r
         LEFT JOIN ${s}.library_node_counts n ON n.doc_id = r.doc_id
         WHERE r.nodes IS DISTINCT FROM n.nodes OR r.nodes IS NULL`,
      );
      expect(rows, table).toEqual([]);
    }
  } finally {
    await client.end();
  }
}
