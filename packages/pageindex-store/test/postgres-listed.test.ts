/**
 * A champion list's rows as the lists' statement packs them (`listedColumnsSql`: ranks as their
 * binary float8 bytes in base64, back matter a character a row) decode to the rows the server
 * holds: every rank to the bit (a section's score is computed from it), in the same order as the
 * ids and counts beside it, across base64's line breaks; a card list sends no node ids or back
 * matter.
 */
import { describe, expect, it } from "vitest";
import { decodeListed, listedColumnsSql } from "../src/postgres/library-listed.js";
import { adminRows, postgresReachable } from "./helpers/postgres.js";

const available = await postgresReachable("postgres-listed.test.ts");

/** Ranks whose shortest decimal text is long, tiny, huge or exactly representable. */
const AWKWARD = [
  0.1 + 0.2,
  1 / 3,
  5e-324,
  1.7976931348623157e308,
  0.5232790210579015,
  0,
  2 ** -40,
  123456.789,
];

/** `rows` list rows of one term: ranks cycling through {@link AWKWARD} (shifted by the row), every third back matter. */
function rows(count: number) {
  return Array.from({ length: count }, (_, r) => ({
    docId: `doc-${String(count - r).padStart(4, "0")}, "quoted"`,
    nodeId: `n${r}`,
    backMatter: r % 3 === 2,
    rank: (AWKWARD[r % AWKWARD.length] as number) * (1 + r / 7),
    nodes: r % 5 === 4 ? null : r * 11,
  }));
}

/** The server's aggregate of `listed` rows built from parameters, in their order. */
async function packed(values: ReturnType<typeof rows>, sections: boolean, carried: boolean): Promise<string> {
  const [row] = await adminRows(
    `WITH listed AS (
       SELECT * FROM unnest($1::text[], $2::text[], $3::boolean[], $4::float8[], $5::int[])
         WITH ORDINALITY AS l(doc_id, node_id, back_matter, rank, nodes, o) ORDER BY o)
     SELECT ${listedColumnsSql(sections, carried)} AS value FROM listed`,
    [
      values.map((v) => v.docId),
      values.map((v) => v.nodeId),
      values.map((v) => v.backMatter),
      values.map((v) => v.rank),
      values.map((v) => v.nodes),
    ],
  );
  return row?.value as string;
}

describe.skipIf(!available)("champion list rows packed for the client", () => {
  it("decodes a sections' list to its rows, ranks to the bit, across base64 line breaks", async () => {
    const values = rows(40); // 320 bytes of ranks: several base64 lines
    const listed = decodeListed(2, await packed(values, true, true));
    expect(listed.term).toBe(2);
    expect(listed.docIds).toEqual(values.map((v) => v.docId));
    expect(listed.nodeIds).toEqual(values.map((v) => v.nodeId));
    expect([...(listed.backMatter ?? "")].map((c) => c === "1")).toEqual(values.map((v) => v.backMatter));
    expect(listed.ranks).toHaveLength(values.length);
    expect(listed.ranks.every((rank, r) => Object.is(rank, values[r]?.rank))).toBe(true);
    expect(listed.nodes).toEqual(values.map((v) => v.nodes));
  });

  it("sends a cards' list without node ids, back matter or counts", async () => {
    const values = rows(9);
    const text = await packed(values, false, false);
    const listed = decodeListed(0, text);
    expect(listed.docIds).toEqual(values.map((v) => v.docId));
    expect(listed.ranks).toEqual(values.map((v) => v.rank));
    expect(listed.nodeIds).toBeUndefined();
    expect(listed.backMatter).toBeUndefined();
    expect(listed.nodes).toBeUndefined();
    expect(text).not.toContain("n1");
  });
});
