import { createHash } from "node:crypto";
import type { BaseStore } from "@langchain/core/stores";
import type { Judgment } from "./types.js";

/**
 * Where judgments are remembered: query × judged node set → judgment. Only model judgments are
 * cached (lexical ones are cheaper to recompute than to store).
 */
export interface JudgmentCache {
  get(key: string): Promise<Judgment | undefined>;
  set(key: string, value: Judgment): Promise<void>;
}

/** Cache key of a judgment: a SHA-256 over everything that changes the answer (safe as a store key). */
export function judgmentKey(parts: ReadonlyArray<string | number | readonly string[] | undefined>): string {
  return `judgment-${createHash("sha256").update(JSON.stringify(parts)).digest("hex")}`;
}

/** Normalises a query for cache lookups: case and spacing do not change the question. */
export function normaliseQuery(query: string): string {
  return query.trim().replace(/\s+/g, " ").toLowerCase();
}

/** In-memory least-recently-used cache (the default). */
export class LruJudgmentCache implements JudgmentCache {
  private readonly entries = new Map<string, Judgment>();
  readonly maxEntries: number;

  constructor(maxEntries = 2000) {
    this.maxEntries = Math.max(1, maxEntries);
  }

  get size(): number {
    return this.entries.size;
  }

  async get(key: string): Promise<Judgment | undefined> {
    const value = this.entries.get(key);
    if (value === undefined) return undefined;
    // Re-insert to mark as most recently used (Map keeps insertion order).
    this.entries.delete(key);
    this.entries.set(key, value);
    return structuredClone(value);
  }

  async set(key: string, value: Judgment): Promise<void> {
    this.entries.delete(key);
    this.entries.set(key, structuredClone(value));
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }
}

/**
 * A cache over any LangChain byte store (`InMemoryStore`, `LocalFileStore`, Redis…), so
 * judgments survive restarts or are shared between processes. Unreadable entries are ignored.
 */
export class ByteStoreJudgmentCache implements JudgmentCache {
  private readonly store: BaseStore<string, Uint8Array>;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();

  constructor(store: BaseStore<string, Uint8Array>) {
    this.store = store;
  }

  async get(key: string): Promise<Judgment | undefined> {
    try {
      const [bytes] = await this.store.mget([key]);
      if (!bytes) return undefined;
      const value = JSON.parse(this.decoder.decode(bytes)) as Judgment;
      return Array.isArray(value?.verdicts) ? value : undefined;
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: Judgment): Promise<void> {
    try {
      await this.store.mset([[key, this.encoder.encode(JSON.stringify(value))]]);
    } catch {
      // A cache that cannot be written only costs a repeated call later.
    }
  }
}

/** Whether a value is a LangChain byte store rather than a {@link JudgmentCache}. */
export function isByteStore(value: unknown): value is BaseStore<string, Uint8Array> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { mget?: unknown }).mget === "function" &&
    typeof (value as { mset?: unknown }).mset === "function"
  );
}
