/**
 * A query's rows read as one JSON value. libsql hands each row to JavaScript through a native
 * call and, for `raw(false)`, an object per row: ~1-2 µs a row, and a library-wide query reads
 * ~600 rows at 100,000 documents (three champion lists of 100, ~130 card scores, ~110 node
 * counts) against ~40 at 100. One `json_group_array` value per statement is parsed in one go.
 */
import type { Statement } from "./connection.js";

/**
 * A real column as JSON keeps every bit: SQLite's JSON prints reals with 15 significant digits
 * (a score read back would differ in its last bits), `%!.17g` prints enough to read the same
 * double back (a string in the array: read it with `Number`).
 */
export function exactReal(column: string): string {
  return `printf('%!.17g', ${column})`;
}

/**
 * SQL reading the rows of `source` as one JSON array of arrays (`columns`, SQL expressions over
 * its columns, in this order). `source` keeps its order: SQLite does not flatten a subquery with
 * LIMIT into an aggregate, and aggregates what it reads in that order.
 */
export function jsonRowsSql(source: string, columns: readonly string[]): string {
  return `SELECT json_group_array(json_array(${columns.join(", ")})) FROM (${source})`;
}

/** The rows of a {@link jsonRowsSql} statement. */
export function readJsonRows<T extends unknown[]>(statement: Statement, ...params: unknown[]): T[] {
  const row = statement.raw(true).get(...params) as [unknown] | undefined;
  return typeof row?.[0] === "string" ? (JSON.parse(row[0]) as T[]) : [];
}
