import { BaseStore } from "@langchain/core/stores";
import { CoalescedReads } from "../store/coalesced-reads.js";
import type { CreateIfAbsentStore } from "../store/create-if-absent.js";
import {
  DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS,
  guarded,
  inTransaction,
  type PostgresConnectionOptions,
  type PostgresPool,
  type PostgresQueryable,
  quotedSchema,
  withOpenedPool,
} from "./connection.js";

/** Options of {@link PostgresByteStore}. */
export interface PostgresByteStoreOptions extends PostgresConnectionOptions {
  /** Keys per statement for mget/mset/mdelete (default 500). */
  batchSize?: number;
}

/** Escapes LIKE's wildcards so a prefix matches literally. */
function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, "\\$&")}%`;
}

function toBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/**
 * Creates the schema and the byte table when absent. Serialised by an advisory lock: two
 * processes creating the same table at once would otherwise collide in the catalog.
 */
export async function ensureByteTable(pool: PostgresPool, schema: string, timeoutMs: number): Promise<void> {
  await inTransaction(pool, "create tables", timeoutMs, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('pageindex-store schema'))");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    // COLLATE "C": byte order, so a LIKE 'prefix%' scan uses the primary key's index.
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${schema}.byte_values (key text COLLATE "C" PRIMARY KEY, value bytea NOT NULL)`,
    );
  });
}

/**
 * A LangChain byte store over one PostgreSQL table, `(key text primary key, value bytea)` in a
 * schema of its own, for several processes or machines sharing one index (and, with
 * {@link openPostgresStore}, one engine for trees and the library index). Each `mset` is one
 * transaction, so it is applied all-or-nothing.
 * @example
 * ```ts
 * const byteStore = await PostgresByteStore.fromUrl("postgres://app@db.example/pageindex");
 * const store = new PageIndexStore(byteStore);
 * await store.addTree(tree);
 * await byteStore.close();
 * ```
 */
export class PostgresByteStore extends BaseStore<string, Uint8Array> implements CreateIfAbsentStore {
  lc_namespace = ["pageindex", "storage", "postgres"];
  /** The quoted schema name. */
  readonly schema: string;
  readonly commandTimeoutMs: number;
  private readonly pool: PostgresPool;
  private readonly table: string;
  private readonly batchSize: number;
  /** Reads started together (a reader opening several documents) go as one statement. */
  private readonly reads: CoalescedReads<Uint8Array>;
  private owned: boolean;

  /**
   * Over a pool the caller opened (and closes); the table must exist (see
   * {@link PostgresByteStore.fromUrl}, which creates it, or {@link PostgresByteStore.open}).
   */
  constructor(pool: PostgresPool, options: PostgresByteStoreOptions = {}) {
    super();
    this.pool = pool;
    this.schema = quotedSchema(options.schema);
    this.table = `${this.schema}.byte_values`;
    this.batchSize = Math.max(1, options.batchSize ?? 500);
    this.commandTimeoutMs = Math.max(0, options.commandTimeoutMs ?? DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS);
    this.owned = false;
    this.reads = new CoalescedReads((keys) => this.readKeys(keys));
  }

  /** Over a caller's pool, creating the schema and table when absent. */
  static async open(pool: PostgresPool, options: PostgresByteStoreOptions = {}): Promise<PostgresByteStore> {
    const store = new PostgresByteStore(pool, options);
    await ensureByteTable(pool, store.schema, store.commandTimeoutMs);
    return store;
  }

  /**
   * Connects to `url` (e.g. `postgres://user:password@host:5432/db`) with a pool this store owns
   * ({@link PostgresByteStore.close} ends it), creating the schema and table when absent.
   * @throws {PostgresStoreError} when `pg` is not installed or the server cannot be reached.
   */
  static async fromUrl(url: string, options: PostgresByteStoreOptions = {}): Promise<PostgresByteStore> {
    quotedSchema(options.schema); // an unusable name fails before connecting
    return withOpenedPool(url, options, async (pool) => {
      const store = await PostgresByteStore.open(pool, options);
      store.owned = true;
      return store;
    });
  }

  /** Ends the pool if this store opened it (see {@link PostgresByteStore.fromUrl}). */
  async close(): Promise<void> {
    if (!this.owned) return;
    this.owned = false;
    await this.pool.end().catch(() => undefined);
  }

  private run<T>(operation: string, fn: (db: PostgresQueryable) => Promise<T>): Promise<T> {
    return guarded(operation, this.commandTimeoutMs, () => fn(this.pool));
  }

  /**
   * Values of `keys`; the reads other callers start in the same turn of the event loop are made
   * in the same statement.
   */
  mget(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    return this.reads.get(keys);
  }

  private async readKeys(keys: string[]): Promise<Map<string, Uint8Array>> {
    const found = new Map<string, Uint8Array>();
    for (let i = 0; i < keys.length; i += this.batchSize) {
      const batch = keys.slice(i, i + this.batchSize);
      // As base64 text, where bytea's text form is hex: 1.33 bytes sent a byte against 2, and
      // cheaper to decode (the driver reads every field as text; it has no binary bytea).
      const { rows } = await this.run("mget", (db) =>
        db.query(
          `SELECT key, encode(value, 'base64') AS value FROM ${this.table} WHERE key = ANY($1::text[])`,
          [batch],
        ),
      );
      // PostgreSQL breaks base64 into lines, which the decoder skips.
      for (const row of rows) found.set(row.key as string, Buffer.from(row.value as string, "base64"));
    }
    return found;
  }

  async mset(keyValuePairs: [string, Uint8Array][]): Promise<void> {
    // The last value of a key given twice wins, as in a sequence of writes.
    const latest = new Map<string, Uint8Array>();
    for (const [key, value] of keyValuePairs) latest.set(key, value);
    const pairs = [...latest];
    if (pairs.length === 0) return;
    const write = async (db: PostgresQueryable) => {
      for (let i = 0; i < pairs.length; i += this.batchSize) {
        const batch = pairs.slice(i, i + this.batchSize);
        await db.query(
          `INSERT INTO ${this.table} (key, value) SELECT * FROM unnest($1::text[], $2::bytea[])
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
          [batch.map(([key]) => key), batch.map(([, value]) => toBuffer(value))],
        );
      }
    };
    if (pairs.length <= this.batchSize) await this.run("mset", write);
    else await inTransaction(this.pool, "mset", this.commandTimeoutMs, write);
  }

  /** Creates `key` unless it exists (`INSERT … ON CONFLICT DO NOTHING`), atomically across clients. */
  async createIfAbsent(key: string, value: Uint8Array): Promise<boolean> {
    const { rowCount } = await this.run("createIfAbsent", (db) =>
      db.query(`INSERT INTO ${this.table} (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING`, [
        key,
        toBuffer(value),
      ]),
    );
    return rowCount === 1;
  }

  async mdelete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += this.batchSize) {
      const batch = keys.slice(i, i + this.batchSize);
      await this.run("mdelete", (db) =>
        db.query(`DELETE FROM ${this.table} WHERE key = ANY($1::text[])`, [batch]),
      );
    }
  }

  /** Keys starting with `prefix`, in byte order, read a page at a time. */
  async *yieldKeys(prefix = ""): AsyncGenerator<string> {
    const pattern = likePrefix(prefix);
    let after: string | undefined;
    for (;;) {
      const { rows } = await this.run("yieldKeys", (db) =>
        after === undefined
          ? db.query(`SELECT key FROM ${this.table} WHERE key LIKE $1 ORDER BY key LIMIT $2`, [
              pattern,
              this.batchSize,
            ])
          : db.query(`SELECT key FROM ${this.table} WHERE key LIKE $1 AND key > $2 ORDER BY key LIMIT $3`, [
              pattern,
              after,
              this.batchSize,
            ]),
      );
      for (const row of rows) yield row.key as string;
      if (rows.length < this.batchSize) return;
      after = rows[rows.length - 1]?.key as string;
    }
  }
}
