import pg from "pg";
import { describe, expect, it } from "vitest";
import {
  openPostgresStore,
  PageIndexStore,
  PostgresByteStore,
  PostgresStoreConnectionError,
  PostgresStoreError,
  PostgresStoreTimeoutError,
} from "../src/index.js";
import { dropSchema, POSTGRES_URL, postgresReachable, testSchema } from "./helpers/postgres.js";
import { makeTree } from "./helpers/trees.js";
import { describeStoreBehaviour } from "./store.behaviour.js";

const available = await postgresReachable("postgres.test.ts");

it("PostgresByteStore.fromUrl fails fast with a typed error, password hidden, when no server answers", async () => {
  const error = await PostgresByteStore.fromUrl("postgres://app:hunter2@127.0.0.1:1/db", {
    connectTimeoutMs: 2000,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PostgresStoreConnectionError);
  expect((error as Error).message).toMatch(
    /cannot reach PostgreSQL at postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/db/,
  );
  expect((error as Error).message).not.toContain("hunter2");
});

it("refuses what is not a connection URL before connecting, naming it and the expected shape", async () => {
  for (const url of ["notaurl", "http://127.0.0.1:5432/db", ""]) {
    const error = await openPostgresStore(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresStoreError);
    expect(error).not.toBeInstanceOf(PostgresStoreConnectionError);
    expect((error as Error).message).toMatch(/Invalid PostgreSQL URL .*expected postgres:\/\//);
  }
  for (const url of ["mysql://app:hunter2@db/x", "postgres://app:hun ter2@db:port/x"]) {
    const secret = await openPostgresStore(url).catch((e: unknown) => e);
    expect(secret).toBeInstanceOf(PostgresStoreError);
    expect((secret as Error).message).not.toContain("hun");
  }
});

it("refuses a schema name that is not a plain identifier before connecting", async () => {
  const error = await PostgresByteStore.fromUrl("postgres://127.0.0.1:1/db", {
    schema: 'x"; drop table y; --',
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toMatch(/Unusable PostgreSQL schema name/);
});

describeStoreBehaviour(
  "PostgresByteStore (real PostgreSQL server)",
  async () => {
    const schema = testSchema("behaviour");
    const byteStore = await PostgresByteStore.fromUrl(POSTGRES_URL, { schema });
    const handles = [byteStore];
    return {
      byteStore,
      reopen: async () => {
        const other = await PostgresByteStore.fromUrl(POSTGRES_URL, { schema });
        handles.push(other);
        return other;
      },
      cleanup: async () => {
        await Promise.all(handles.map((h) => h.close()));
        await dropSchema(schema);
      },
    };
  },
  !available,
);

describe.skipIf(!available)("PostgresByteStore", () => {
  it("round-trips binary values across batches, scans a prefix literally and stays inside its schema", async () => {
    const schema = testSchema("bytes");
    const store = await PostgresByteStore.fromUrl(POSTGRES_URL, { schema, batchSize: 3 });
    const neighbour = await PostgresByteStore.fromUrl(POSTGRES_URL, { schema: `${schema}x` });
    try {
      const pairs = Array.from({ length: 10 }, (_, i): [string, Uint8Array] => [
        `k_%.${i}`,
        new Uint8Array([i, 0, 255]),
      ]);
      await store.mset([
        ...pairs,
        ["kx%.1", new Uint8Array([7])],
        ["k_%.0", new Uint8Array([9])],
        pairs[0] as [string, Uint8Array],
      ]);
      await neighbour.mset([["k_%.99", new Uint8Array([1])]]);
      const values = await store.mget([...pairs.map(([k]) => k), "missing"]);
      expect(values.slice(0, 10).map((v) => [...(v as Uint8Array)])).toEqual(pairs.map(([, v]) => [...v]));
      expect(values[10]).toBeUndefined();
      const keys: string[] = [];
      for await (const key of store.yieldKeys("k_%.")) keys.push(key);
      expect(keys).toEqual(pairs.map(([k]) => k).sort());
      expect(await store.createIfAbsent("k_%.1", new Uint8Array([5]))).toBe(false);
      expect(await store.createIfAbsent("new", new Uint8Array([5]))).toBe(true);
      await store.mdelete(keys);
      const after = await store.mget(["k_%.1", "kx%.1", "new"]);
      expect(after.map((v) => v && [...v])).toEqual([undefined, [7], [5]]);
      expect((await neighbour.mget(["k_%.99"])).map((v) => v && [...v])).toEqual([[1]]);
    } finally {
      await store.close();
      await neighbour.close();
      await dropSchema(schema);
      await dropSchema(`${schema}x`);
    }
  });

  it("a statement that outlives commandTimeoutMs fails with a timeout error and the store stays usable", async () => {
    const schema = testSchema("timeout");
    const store = await PostgresByteStore.fromUrl(POSTGRES_URL, { schema, commandTimeoutMs: 300 });
    const locker = new pg.Client({ connectionString: POSTGRES_URL });
    await locker.connect();
    try {
      await store.mset([["held", new Uint8Array([1])]]);
      // Another session holds the row: the write waits for the lock past the timeout.
      await locker.query("BEGIN");
      await locker.query(`SELECT * FROM "${schema}".byte_values WHERE key = 'held' FOR UPDATE`);
      const error = await store.mset([["held", new Uint8Array([2])]]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PostgresStoreTimeoutError);
      expect(error).toBeInstanceOf(PostgresStoreError);
      await locker.query("ROLLBACK");
      expect((await store.mget(["held"])).map((v) => v && [...v])).toEqual([[1]]);
    } finally {
      await locker.end();
      await store.close();
      await dropSchema(schema);
    }
  });

  it("a PageIndexStore over it keeps trees across handles, as another machine would see them", async () => {
    const schema = testSchema("trees");
    const first = await PostgresByteStore.fromUrl(POSTGRES_URL, { schema });
    const second = await PostgresByteStore.fromUrl(POSTGRES_URL, { schema });
    try {
      const tree = makeTree("doc", { nodes: 25 });
      await new PageIndexStore(first).addTree(tree);
      const other = new PageIndexStore(second);
      expect(await other.getTree("doc")).toEqual(tree);
      expect(await other.deleteDocument("doc")).toBe(true);
      expect(await new PageIndexStore(first).hasDocument("doc")).toBe(false);
    } finally {
      await first.close();
      await second.close();
      await dropSchema(schema);
    }
  });

  it("openPostgresStore keeps trees and the library tables in one schema and ends its pool on close", async () => {
    const schema = testSchema("open");
    const store = await openPostgresStore(POSTGRES_URL, { schema });
    const raw = new pg.Client({ connectionString: POSTGRES_URL });
    await raw.connect();
    try {
      const tree = makeTree("doc", { nodes: 12 });
      await store.addTree(tree);
      expect(await store.getTree("doc")).toEqual(tree);
      const { rows } = await raw.query(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name",
        [schema],
      );
      expect(rows.map((r) => r.table_name)).toEqual([
        "byte_values",
        "library_card_champion_pending",
        "library_card_champion_terms",
        "library_card_champions",
        "library_cards",
        "library_champion_pending",
        "library_champion_terms",
        "library_champions",
        "library_facets",
        "library_node_counts",
        "library_sections",
        "library_terms",
        "library_write_intents",
      ]);
      await store.close();
      const after = await store.getTree("doc").catch((e: unknown) => e);
      expect(after).toBeInstanceOf(PostgresStoreConnectionError);
    } finally {
      await raw.end();
      await dropSchema(schema);
    }
  });

  it("openPostgresStore names the server without its password when none answers", async () => {
    const error = await openPostgresStore("postgresql://reader:s3cr%3Et@127.0.0.1:1/docs", {
      connectTimeoutMs: 1000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PostgresStoreConnectionError);
    expect((error as Error).message).toContain("postgresql://reader:***@127.0.0.1:1/docs");
    expect((error as Error).message).not.toMatch(/s3cr/);
  });
});
