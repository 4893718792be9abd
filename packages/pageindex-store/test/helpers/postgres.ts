import pg from "pg";

/** The PostgreSQL URL tests use: `PAGEINDEX_TEST_POSTGRES_URL`, else a local default. */
export const POSTGRES_URL =
  process.env.PAGEINDEX_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Whether a PostgreSQL server answers at {@link POSTGRES_URL}; warns visibly when not. */
export async function postgresReachable(suite: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 1500 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.query("SELECT 1");
    await client.end();
    return true;
  } catch (error) {
    await client.end().catch(() => undefined);
    console.warn(
      `[${suite}] SKIPPED: no PostgreSQL server at ${POSTGRES_URL} (${(error as Error).message}). ` +
        "Start one (initdb -A trust, pg_ctl start; see .ci/run) or set PAGEINDEX_TEST_POSTGRES_URL.",
    );
    return false;
  }
}

/**
 * A pool at {@link POSTGRES_URL} that records the text of every statement run through it (not
 * those of clients it lends out), for tests that count a store's round trips.
 */
export function recordingPool(): {
  pool: { query: pg.Pool["query"]; connect: () => Promise<pg.PoolClient>; end: () => Promise<void> };
  statements: string[];
} {
  const inner = new pg.Pool({ connectionString: POSTGRES_URL });
  const statements: string[] = [];
  const query = ((sql: string, params?: unknown[]) => {
    statements.push(sql);
    return inner.query(sql, params);
  }) as pg.Pool["query"];
  return { pool: { query, connect: () => inner.connect(), end: () => inner.end() }, statements };
}

/** A unique schema name so parallel test files never share tables. */
export function testSchema(label: string): string {
  return `pit_${label}_${process.pid}_${Math.random().toString(16).slice(2, 10)}`;
}

/** Runs one statement on a connection of its own (schema upkeep the store does not offer). */
export async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Runs one query on a connection of its own and returns its rows (checks of what a store wrote). */
export async function adminRows(
  sql: string,
  params: unknown[] = [],
): Promise<Array<Record<string, unknown>>> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** Drops a test schema and everything in it. */
export function dropSchema(schema: string): Promise<void> {
  return adminQuery(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
