/**
 * Drops a PostgreSQL schema and everything in it, for the evaluation and bench scripts that build
 * libraries in their own schemas. `pg` is the store's optional peer, so it is loaded from there.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<unknown>;
  end(): Promise<void>;
}

export async function dropPostgresSchema(url: string, schema: string): Promise<void> {
  const pg = createRequire(
    fileURLToPath(new URL("../packages/pageindex-store/package.json", import.meta.url)),
  )("pg") as { Client: new (options: { connectionString: string }) => PgClient };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema.replace(/"/g, '""')}" CASCADE`);
  } finally {
    await client.end();
  }
}
