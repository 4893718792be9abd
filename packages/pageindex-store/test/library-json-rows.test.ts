/**
 * Rows read as one JSON value (json-rows.ts): the values, reals to the last bit, and the order
 * of the statement read, as row by row.
 */
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { exactReal, jsonRowsSql, readJsonRows } from "../src/library/sqlite/json-rows.js";
import { openConnection } from "../src/library/sqlite/open.js";
import { tempFolders } from "./helpers/temp-folders.js";

const folder = tempFolders("library-json-rows-");

/** Reals whose 15-digit forms read back as other doubles, and a spread of others. */
function reals(): number[] {
  const out = [0.1 + 0.2, 1 / 3, -29.790683966039545, -11.570389724317652, 2 ** -40, 6.5];
  let x = 0.7;
  for (let i = 0; i < 200; i += 1) {
    x = (x * 9301 + 49297) % 233280;
    out.push((x / 233280 - 0.5) * 10 ** (i % 9));
  }
  return out;
}

describe("rows read as one JSON value", () => {
  it("reads reals back to the last bit, integers as they are, in the statement's order", async () => {
    const db = await openConnection(join(await folder(), "rows.sqlite"), false, 0);
    try {
      db.exec("CREATE TABLE t (id INTEGER PRIMARY KEY, score REAL NOT NULL)");
      const values = reals();
      const insert = db.prepare("INSERT INTO t (id, score) VALUES (?, ?)");
      // Row ids as large as section ids (document row × 2²¹), so they are not read as reals.
      for (const [i, score] of values.entries()) insert.run(i * 2 ** 21 + 7, score);
      const source = "SELECT id, score FROM t ORDER BY score DESC, id LIMIT ?";
      const expected = db.prepare(source).raw(true).all(150) as Array<[number, number]>;
      const read = readJsonRows<[number, string]>(
        db.prepare(jsonRowsSql(source, ["id", exactReal("score")])),
        150,
      ).map(([id, score]) => [id, Number(score)]);
      expect(read).toEqual(expected);
      // SQLite's own JSON numbers keep 15 digits: what exactReal is for.
      const plain = readJsonRows<[number, number]>(db.prepare(jsonRowsSql(source, ["id", "score"])), 150);
      expect(plain).not.toEqual(expected);
      // No row: an empty list.
      expect(readJsonRows(db.prepare(jsonRowsSql(source, ["id"])), 0)).toEqual([]);
    } finally {
      db.close();
    }
  });
});
