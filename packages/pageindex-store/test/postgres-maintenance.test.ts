/**
 * The open-time check that a PostgreSQL library's tables were vacuumed since they grew (after a
 * crash restart or a bulk import they are not, and its queries read the tables instead of the
 * champion lists' indexes): reported through `onProblem`, never failing the open.
 */
import { afterAll, describe, expect, it } from "vitest";
import {
  findUnvacuumedTables,
  openPostgresStore,
  type PageIndexStore,
  PostgresMaintenanceWarning,
} from "../src/index.js";
import {
  adminQuery,
  adminRows,
  dropSchema,
  POSTGRES_URL,
  postgresReachable,
  testSchema,
} from "./helpers/postgres.js";
import { makeTree } from "./helpers/trees.js";

const available = await postgresReachable("postgres-maintenance.test.ts");

describe.skipIf(!available)("openPostgresStore: the vacuum check", () => {
  const schema = testSchema("maintenance");
  afterAll(() => dropSchema(schema));

  const tables = async () =>
    (await adminRows("SELECT tablename FROM pg_tables WHERE schemaname = $1", [schema])).map((row) =>
      String(row.tablename),
    );
  const reopen = async (maintenanceWarningPages?: number) => {
    const problems: Error[] = [];
    const store: PageIndexStore = await openPostgresStore(POSTGRES_URL, {
      schema,
      onProblem: (problem) => problems.push(problem),
      ...(maintenanceWarningPages === undefined ? {} : { maintenanceWarningPages }),
    });
    await store.close();
    return problems;
  };

  it("names the unvacuumed tables with their page counts, and is quiet once they are vacuumed", async () => {
    expect(await reopen(0)).toEqual([]); // creates the tables
    // Autovacuum off, so that the server cannot vacuum behind the test's back.
    for (const table of await tables())
      await adminQuery(`ALTER TABLE "${schema}"."${table}" SET (autovacuum_enabled = false)`);
    const store = await openPostgresStore(POSTGRES_URL, { schema, maintenanceWarningPages: 0 });
    await store.addTrees(
      Array.from({ length: 12 }, (_, i) => makeTree(`doc-${i}`, { seed: i + 1, textChars: 600 })),
    );
    await store.close();

    const [warning, ...others] = await reopen(1);
    expect(others).toEqual([]);
    expect(warning).toBeInstanceOf(PostgresMaintenanceWarning);
    const named = (warning as PostgresMaintenanceWarning).tables;
    expect(named.map((t) => t.table)).toEqual(expect.arrayContaining(["byte_values", "library_sections"]));
    for (const t of named) expect(t.allVisiblePages * 2).toBeLessThan(t.pages);
    expect(warning?.message).toMatch(/VACUUM \(ANALYZE\)/);
    expect(warning?.message).toContain(schema);
    // Below the default size nothing is said, and 0 skips the check.
    expect(await reopen()).toEqual([]);
    expect(await reopen(0)).toEqual([]);

    for (const table of await tables()) await adminQuery(`VACUUM (ANALYZE) "${schema}"."${table}"`);
    expect(await reopen(1)).toEqual([]);
    expect(
      await findUnvacuumedTables(
        {
          query: (sql: string, params?: unknown[]) =>
            adminRows(sql, params).then((rows) => ({ rows, rowCount: rows.length })),
        },
        `"${schema}"`,
        1,
      ),
    ).toEqual([]);
  });
});
