/**
 * A champion list's rows as the lists' statement sends them: one JSON value a term, a column each,
 * packed where text would cost the client most. Ranks are float8 at full precision (a section's
 * score is computed from them bit for bit), and their shortest decimal text is ~19 bytes that
 * `JSON.parse` converts slowly: they come as their 8 binary bytes (`float8send`, big-endian)
 * concatenated, base64. Back matter comes as one character a row. A card list's node ids and back
 * matter are constant ('' and false) and are not sent. At 100,000 documents a query reads ~450 list
 * rows (sections' and cards'): 24 KB of JSON with full-precision numbers before, ~14 KB after.
 */

/** A term's rows read from its champion list, columnar. */
export interface ListedTerm {
  /** Index of the term in the terms asked for. */
  term: number;
  docIds: readonly string[];
  /** A section list's node ids; a card list has none (every row's is ''). */
  nodeIds: readonly string[] | undefined;
  /** A section list's back matter, '1' (back matter) or '0' a row; a card list has none. */
  backMatter: string | undefined;
  ranks: readonly number[];
  /** Each row's document's node count, where the list's rows carry them (null: this row does not). */
  nodes: readonly (number | null)[] | undefined;
}

/** What the statement sends a term: see {@link listedColumnsSql}. */
type ListedColumns = [string[], string, string[] | null, string | null, (number | null)[]?];

/**
 * The SQL expression (text) of one term's rows aggregated from `listed` (columns doc_id, node_id,
 * back_matter, rank, nodes), for a sections' list or a cards', with or without node counts. Every
 * aggregate of one group reads its rows in the same order, so the columns stay aligned.
 */
export function listedColumnsSql(sections: boolean, carried: boolean): string {
  const perSection = sections
    ? "json_agg(node_id), string_agg(CASE WHEN back_matter THEN '1' ELSE '0' END, '')"
    : "NULL, NULL";
  return `json_build_array(json_agg(doc_id), encode(string_agg(float8send(rank), ''::bytea), 'base64'), ${perSection}${carried ? ", json_agg(nodes)" : ""})::text`;
}

/** Decodes one term's value of {@link listedColumnsSql}. */
export function decodeListed(term: number, text: string): ListedTerm {
  const [docIds, packed, nodeIds, backMatter, nodes] = JSON.parse(text) as ListedColumns;
  // base64 with PostgreSQL's line breaks, which the decoder skips.
  const bytes = Buffer.from(packed, "base64");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ranks = new Array<number>(bytes.length / 8);
  for (let r = 0; r < ranks.length; r += 1) ranks[r] = view.getFloat64(r * 8); // big-endian, as sent
  return { term, docIds, nodeIds: nodeIds ?? undefined, backMatter: backMatter ?? undefined, ranks, nodes };
}
