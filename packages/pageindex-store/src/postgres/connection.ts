import { createHash } from "node:crypto";
import { PageIndexError } from "pageindex-core";
import { StoreReadOnlyError } from "../store/errors.js";
import { importOptionalPeer } from "../store/optional-peer.js";
import { PostgresStoreConnectionError, PostgresStoreError, PostgresStoreTimeoutError } from "./errors.js";

/** A row as node-postgres returns it. */
export type PostgresRow = Record<string, unknown>;

/** The part of a node-postgres `Pool` or `PoolClient` that runs statements. */
export interface PostgresQueryable {
  query(text: string, values?: readonly unknown[]): Promise<{ rows: PostgresRow[]; rowCount: number | null }>;
}

/** A client checked out of the pool (for a transaction); `release` returns it. */
export interface PostgresPoolClient extends PostgresQueryable {
  release(destroy?: boolean | Error): void;
}

/**
 * The part of a node-postgres `Pool` the store uses. A caller's own `new pg.Pool(...)` fits;
 * keeping the type this small means users need no `@types/pg` to compile.
 */
export interface PostgresPool extends PostgresQueryable {
  connect(): Promise<PostgresPoolClient>;
  end(): Promise<void>;
}

/** node-postgres' query config for a named statement. */
interface NamedStatement {
  name: string;
  text: string;
  values: readonly unknown[];
}

/**
 * Runs `text` as a named statement (node-postgres' query config; `db` must take one): the
 * server parses it once per connection and keeps its plan (a generic one once its custom plans
 * cost no less), where an unnamed statement is parsed, analysed and planned on every run. The
 * name is the text's digest, so one text is one statement on every connection.
 */
export function queryPrepared(
  db: PostgresQueryable,
  text: string,
  values: readonly unknown[],
): ReturnType<PostgresQueryable["query"]> {
  const name = `pageindex_${createHash("sha1").update(text).digest("hex").slice(0, 40)}`;
  const config: NamedStatement = { name, text, values };
  return (
    db as unknown as { query(statement: NamedStatement): ReturnType<PostgresQueryable["query"]> }
  ).query(config);
}

/** Connection options shared by the PostgreSQL byte store and library index. */
export interface PostgresConnectionOptions {
  /**
   * The schema holding the store's tables (default `"pageindex"`), created when absent, so
   * several stores can share one database. Letters, digits and `_`, starting with a letter or `_`.
   */
  schema?: string;
  /** Give up connecting after this long (default 5000 ms). */
  connectTimeoutMs?: number;
  /**
   * Longest wait for the answer to one statement (default 30,000 ms), so a server that hangs or
   * becomes unreachable fails the call with {@link PostgresStoreTimeoutError}. `0` waits without limit.
   */
  commandTimeoutMs?: number;
  /** Most connections the pool opens (default 10). */
  maxConnections?: number;
}

/** Default of {@link PostgresConnectionOptions.commandTimeoutMs}. */
export const DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS = 30_000;

/** Default of {@link PostgresConnectionOptions.schema}. */
export const DEFAULT_POSTGRES_SCHEMA = "pageindex";

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** The schema name, checked and quoted for SQL. @throws {PageIndexError} for an unusable name. */
export function quotedSchema(schema = DEFAULT_POSTGRES_SCHEMA): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new PageIndexError(
      `Unusable PostgreSQL schema name ${JSON.stringify(schema)}: use letters, digits and "_" (at most 63, not starting with a digit)`,
    );
  }
  return `"${schema}"`;
}

/** The URL without its password (and without a password= query parameter), for messages. */
export function redactPostgresUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    for (const name of [...parsed.searchParams.keys()]) {
      if (name.toLowerCase() === "password") parsed.searchParams.set(name, "***");
    }
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/**
 * Splits a `schema` query parameter off a connection URL (`postgres://host/db?schema=docs`), so
 * one URL can name both the database and the schema of one library (the CLI's `--postgres`).
 * node-postgres never sees the parameter.
 */
export function schemaFromUrl(url: string): { url: string; schema?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  const schema = parsed.searchParams.get("schema");
  if (schema === null) return { url };
  parsed.searchParams.delete("schema");
  return { url: parsed.toString(), schema };
}

/** Socket errors meaning the connection is gone or was never made. */
const CONNECTION_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/** SQLSTATE classes/codes meaning the same: 08 connection exception, 57P0x shutdown, 53300 too many connections. */
function isConnectionState(code: string): boolean {
  return code.startsWith("08") || /^57P0[1-3]$/.test(code) || code === "53300";
}

/**
 * Maps a node-postgres failure to the store's errors.
 * @returns the typed error (the original when it is not about the connection).
 */
export function postgresError(operation: string, error: unknown, timeoutMs: number): unknown {
  if (error instanceof PageIndexError) return error;
  const message = (error as Error | undefined)?.message ?? String(error);
  const code = String((error as { code?: unknown } | undefined)?.code ?? "");
  if (
    /Query read timeout|timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(
      message,
    )
  ) {
    return new PostgresStoreTimeoutError(operation, timeoutMs, { cause: error });
  }
  if (code === "57014") {
    // statement_timeout on the server's side.
    return new PostgresStoreTimeoutError(operation, timeoutMs, { cause: error });
  }
  if (code === "25006") {
    return new StoreReadOnlyError(`PostgreSQL (${operation})`, message, { cause: error });
  }
  if (
    CONNECTION_CODES.has(code) ||
    isConnectionState(code) ||
    /Connection terminated|Client has encountered a connection error|Cannot use a pool after calling end/i.test(
      message,
    )
  ) {
    return new PostgresStoreConnectionError(operation, message, { cause: error });
  }
  return error;
}

/** Runs `fn` and rethrows its failure as the store's typed error. */
export async function guarded<T>(operation: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw postgresError(operation, error, timeoutMs);
  }
}

/**
 * Runs `fn` inside one transaction on one pooled client: committed when it returns, rolled back
 * when it throws (the client is dropped from the pool when even the rollback fails).
 */
export async function inTransaction<T>(
  pool: PostgresPool,
  operation: string,
  timeoutMs: number,
  fn: (client: PostgresQueryable) => Promise<T>,
): Promise<T> {
  return guarded(operation, timeoutMs, async () => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      await client.query("BEGIN");
      const result = await fn(client);
      await client.query("COMMIT");
      return result;
    } catch (error) {
      await client.query("ROLLBACK").catch((rollbackError: Error) => {
        broken = rollbackError;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  });
}

/**
 * The `pg` package (node-postgres), an optional peer dependency: loaded on demand, so users of
 * the other backends neither install nor load it.
 */
async function loadPg(): Promise<typeof import("pg")> {
  const loaded = await importOptionalPeer(
    () => import("pg") as Promise<typeof import("pg") & { default?: typeof import("pg") }>,
    (cause) =>
      new PostgresStoreError(
        'The PostgreSQL store needs the "pg" package (node-postgres 8), an optional peer dependency: run `npm install pg@8`',
        { cause },
      ),
  );
  // pg is CommonJS: from ESM its API sits on `default`.
  return loaded.default ?? loaded;
}

/**
 * Opens a pool on `url` and builds something over it; the pool is ended when building fails, so
 * an opener that throws leaves no connection behind.
 */
export async function withOpenedPool<T>(
  url: string,
  options: PostgresConnectionOptions,
  build: (pool: PostgresPool) => Promise<T>,
): Promise<T> {
  const pool = await openPostgresPool(url, options);
  try {
    return await build(pool);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}

/** Schemes node-postgres reads a connection from (a unix socket's folder may be given bare). */
const URL_SCHEMES = new Set(["postgres:", "postgresql:", "socket:"]);

/**
 * Refuses what is not a connection URL before anything is tried: node-postgres reads any string,
 * and "notaurl" became a host lookup of "base" failing with ENOTFOUND.
 * @throws {PostgresStoreError} naming the value (without its password) and the expected shape.
 */
function checkPostgresUrl(url: string): void {
  if (url.startsWith("/")) return;
  const scheme = URL.canParse(url) ? new URL(url).protocol : undefined;
  if (scheme !== undefined && URL_SCHEMES.has(scheme)) return;
  // An unparsable value is echoed only when it cannot hold a password (no "@" in it); else
  // redactPostgresUrl names it "(unparsable URL)".
  const shown = scheme === undefined && !url.includes("@") ? JSON.stringify(url) : redactPostgresUrl(url);
  throw new PostgresStoreError(
    `Invalid PostgreSQL URL ${shown}: expected postgres://user:password@host:5432/database (or postgresql://, socket:)`,
  );
}

/**
 * Opens a pool on `url` and checks that the server answers.
 * @throws {PostgresStoreError} when `pg` is missing or the server cannot be reached (the URL is
 * named without its password).
 */
export async function openPostgresPool(
  url: string,
  options: PostgresConnectionOptions = {},
): Promise<PostgresPool> {
  checkPostgresUrl(url);
  const pg = await loadPg();
  const timeoutMs = Math.max(0, options.commandTimeoutMs ?? DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS);
  let pool: import("pg").Pool;
  try {
    pool = new pg.Pool({
      connectionString: url,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
      max: Math.max(1, options.maxConnections ?? 10),
      // The server cancels a statement past the limit (so a timed-out write is not applied later);
      // the client gives up a little after, for a server that does not answer at all.
      ...(timeoutMs > 0 ? { statement_timeout: timeoutMs, query_timeout: timeoutMs + 2000 } : {}),
    });
  } catch (error) {
    throw new PostgresStoreError(
      `Invalid PostgreSQL URL ${redactPostgresUrl(url)}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  // An idle client losing its connection is reported here; the next statement gets a new one.
  pool.on("error", () => undefined);
  try {
    await pool.query("SELECT 1");
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new PostgresStoreConnectionError(
      `connect`,
      `cannot reach PostgreSQL at ${redactPostgresUrl(url)}: ${(error as Error).message || (error as { code?: string }).code || "no answer"}`,
      { cause: error },
    );
  }
  return pool as unknown as PostgresPool;
}
