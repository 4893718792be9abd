import { BaseStore } from "@langchain/core/stores";
import { PageIndexError } from "pageindex-core";
import type { CreateIfAbsentStore } from "./create-if-absent.js";
import {
  RedisStoreConnectionError,
  RedisStoreError,
  RedisStoreTimeoutError,
  StoreCorruptionError,
  StoreReadOnlyError,
} from "./errors.js";
import { importOptionalPeer } from "./optional-peer.js";

/**
 * The part of a node-redis v5 client this store uses. Any `createClient()` result fits;
 * keeping the type this small avoids tying callers to one set of modules/generics.
 */
export interface RedisCommandClient {
  readonly isOpen: boolean;
  sendCommand(
    args: ReadonlyArray<string | Buffer>,
    options?: { typeMapping?: Record<number, unknown>; timeout?: number },
  ): Promise<unknown>;
}

/** A client this store opened itself and must close. */
interface OwnedRedisClient extends RedisCommandClient {
  close(): Promise<void>;
  destroy(): void;
}

/** Options of {@link RedisByteStore}. */
export interface RedisByteStoreOptions {
  /** Prepended to every key in Redis (e.g. `"myapp:"`), so several stores can share a database. */
  prefix?: string;
  /** Keys per MGET/MSET/DEL command (default 500). */
  batchSize?: number;
  /** {@link RedisByteStore.fromUrl} only: give up connecting after this long (default 5000 ms). */
  connectTimeoutMs?: number;
  /**
   * Longest wait for the answer to one command (default 10,000 ms), so a server that dies, hangs
   * or becomes unreachable after connecting fails the call with {@link RedisStoreTimeoutError}
   * instead of leaving it waiting forever (node-redis queues commands while it reconnects).
   * `0` waits without limit.
   */
  commandTimeoutMs?: number;
}

/** node-redis errors meaning the connection is gone, not that a command was refused. */
const CONNECTION_ERRORS = new Set([
  "SocketClosedUnexpectedlyError",
  "ClientClosedError",
  "ClientOfflineError",
  "ConnectionTimeoutError",
  "SocketTimeoutError",
  "DisconnectsClientError",
]);

/** Socket errors that mean the same. */
const CONNECTION_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
]);

/** Default of {@link RedisByteStoreOptions.commandTimeoutMs}. */
export const DEFAULT_REDIS_COMMAND_TIMEOUT_MS = 10_000;

// RESP type code of bulk strings ("$"); mapped to Buffer so binary values round-trip.
const BLOB_STRING = 36;
const BINARY = { typeMapping: { [BLOB_STRING]: Buffer } };

/** Escapes Redis glob characters so a prefix matches literally in SCAN MATCH. */
function globEscape(text: string): string {
  return text.replace(/[*?[\]\\]/g, "\\$&");
}

/** The URL without a password, for error messages. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(unparsable URL)";
  }
}

function toBuffer(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/**
 * The `redis` package, an optional peer dependency: loaded on demand, so users of the file or
 * memory backends neither install nor load it.
 */
async function loadRedis(): Promise<typeof import("redis")> {
  return importOptionalPeer(
    () => import("redis"),
    (cause) =>
      new PageIndexError(
        'The Redis store needs the "redis" package (node-redis v5), an optional peer dependency: run `npm install redis@5`',
        { cause },
      ),
  );
}

/**
 * A LangChain byte store over Redis (node-redis v5), for several processes or machines
 * sharing one index. Each `mset` batch is one MSET command, so it is applied atomically.
 * A key holding another Redis type (a hash, a list, …) is not a value of this store: `mget`
 * raises a {@link StoreCorruptionError} naming it rather than reporting it absent.
 */
export class RedisByteStore extends BaseStore<string, Uint8Array> implements CreateIfAbsentStore {
  lc_namespace = ["pageindex", "storage", "redis"];
  readonly prefix: string;
  /** See {@link RedisByteStoreOptions.commandTimeoutMs}. */
  readonly commandTimeoutMs: number;
  private readonly client: RedisCommandClient;
  private readonly batchSize: number;
  private owned: OwnedRedisClient | undefined;

  constructor(client: RedisCommandClient, options: RedisByteStoreOptions = {}) {
    super();
    this.client = client;
    this.prefix = options.prefix ?? "";
    this.batchSize = Math.max(1, options.batchSize ?? 500);
    this.commandTimeoutMs = Math.max(0, options.commandTimeoutMs ?? DEFAULT_REDIS_COMMAND_TIMEOUT_MS);
  }

  /**
   * One command, answered within `commandTimeoutMs`: node-redis gets the timeout (and drops the
   * command from its queue), and a timer of our own covers clients that ignore it.
   * @throws {RedisStoreTimeoutError} @throws {RedisStoreConnectionError} when the connection is gone.
   * @throws {StoreReadOnlyError} for a write to a read-only replica.
   */
  private async send(args: Array<string | Buffer>, binary = false): Promise<unknown> {
    const command = String(args[0]);
    const limit = this.commandTimeoutMs;
    const options = { ...(binary ? BINARY : {}), ...(limit > 0 ? { timeout: limit } : {}) };
    let timer: NodeJS.Timeout | undefined;
    try {
      const reply = this.client.sendCommand(args, options);
      if (limit <= 0) return await reply;
      reply.catch(() => undefined); // settles after the timer won: nobody is waiting for it any more
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new RedisStoreTimeoutError(command, limit)), limit);
      });
      return await Promise.race([reply, expired]);
    } catch (error) {
      // node-redis's error classes keep the name "Error": tell them by their class.
      const name = (error as object | undefined)?.constructor?.name ?? "";
      // node-redis's own timeout (TimeoutError) arrives first when it honours the option.
      if (name === "TimeoutError") throw new RedisStoreTimeoutError(command, limit, { cause: error });
      const code = (error as NodeJS.ErrnoException | undefined)?.code ?? "";
      if (CONNECTION_ERRORS.has(name) || CONNECTION_CODES.has(code)) {
        throw new RedisStoreConnectionError(command, (error as Error).message, { cause: error });
      }
      if (/^READONLY\b/.test((error as Error | undefined)?.message ?? "")) {
        // A read-only replica: the store cannot be written there.
        throw new StoreReadOnlyError(`Redis (${command})`, (error as Error).message, { cause: error });
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Connects to `url` (e.g. `redis://127.0.0.1:6379`) with a client this store owns;
   * {@link RedisByteStore.close} disconnects it.
   */
  static async fromUrl(url: string, options: RedisByteStoreOptions = {}): Promise<RedisByteStore> {
    // node-redis answers any other URL with a bare "TypeError: Invalid protocol".
    const protocol = URL.canParse(url) ? new URL(url).protocol : undefined;
    if (protocol !== "redis:" && protocol !== "rediss:") {
      throw new RedisStoreError(
        `Not a Redis URL: ${redactUrl(url)} (use redis://host:6379, or rediss:// for TLS)`,
      );
    }
    const { createClient } = await loadRedis();
    let connected = false;
    const client = createClient({
      url,
      socket: {
        connectTimeout: options.connectTimeoutMs ?? 5000,
        // Fail fast when the server is not there at all; once connected, ride out restarts.
        reconnectStrategy: (retries: number, cause: Error) =>
          connected ? Math.min(50 * 2 ** retries, 2000) : cause,
      },
    });
    client.on("error", () => {
      // Reported through the failing command or connect(); without a listener Node would throw.
    });
    try {
      await client.connect();
      connected = true;
    } catch (error) {
      if (client.isOpen) client.destroy();
      throw new PageIndexError(`Cannot connect to Redis at ${redactUrl(url)}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const store = new RedisByteStore(client as unknown as RedisCommandClient, options);
    store.owned = client as unknown as OwnedRedisClient;
    return store;
  }

  /**
   * Disconnects the client if this store opened it (see {@link RedisByteStore.fromUrl}). A server
   * that no longer answers cannot hold it up: after `commandTimeoutMs` the socket is destroyed.
   */
  async close(): Promise<void> {
    const owned = this.owned;
    this.owned = undefined;
    if (!owned?.isOpen) return;
    const closing = owned.close().then(
      () => true,
      () => false,
    );
    const limit = this.commandTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), limit > 0 ? limit : 2 ** 31 - 1);
    });
    const closed = await Promise.race([closing, expired]);
    clearTimeout(timer);
    if (!closed && owned.isOpen) owned.destroy();
  }

  async mget(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    const out: (Uint8Array | undefined)[] = [];
    for (let i = 0; i < keys.length; i += this.batchSize) {
      const batch = keys.slice(i, i + this.batchSize).map((key) => this.prefix + key);
      const values = (await this.send(["MGET", ...batch], true)) as Array<Buffer | null>;
      await this.checkAbsent(batch.filter((_, j) => values[j] === null));
      for (const value of values) out.push(value ?? undefined);
    }
    return out;
  }

  /**
   * MGET answers nil both for a missing key and for one holding a non-string type; tell them
   * apart (one EXISTS for the batch, TYPE only when something is there).
   * @throws {StoreCorruptionError} for a key holding another type.
   */
  private async checkAbsent(redisKeys: string[]): Promise<void> {
    if (redisKeys.length === 0) return;
    if (Number(await this.send(["EXISTS", ...redisKeys])) === 0) return;
    const types = await Promise.all(redisKeys.map((key) => this.send(["TYPE", key])));
    const index = types.findIndex((type) => String(type) !== "none" && String(type) !== "string");
    if (index < 0) return; // written since the MGET: absent at the time it read
    const redisKey = redisKeys[index] as string;
    throw new StoreCorruptionError(
      redisKey.slice(this.prefix.length),
      `Redis key "${redisKey}" holds a ${String(types[index])}, not a string value (not written by pageindex-store)`,
    );
  }

  async mset(keyValuePairs: [string, Uint8Array][]): Promise<void> {
    for (let i = 0; i < keyValuePairs.length; i += this.batchSize) {
      const args: Array<string | Buffer> = ["MSET"];
      for (const [key, value] of keyValuePairs.slice(i, i + this.batchSize)) {
        args.push(this.prefix + key, toBuffer(value));
      }
      await this.send(args);
    }
  }

  /** Creates `key` unless it exists (`SET key value NX`), atomically across clients. */
  async createIfAbsent(key: string, value: Uint8Array): Promise<boolean> {
    const reply = await this.send(["SET", this.prefix + key, toBuffer(value), "NX"]);
    return reply !== null && reply !== undefined;
  }

  async mdelete(keys: string[]): Promise<void> {
    for (let i = 0; i < keys.length; i += this.batchSize) {
      const batch = keys.slice(i, i + this.batchSize).map((key) => this.prefix + key);
      await this.send(["DEL", ...batch]);
    }
  }

  async *yieldKeys(prefix = ""): AsyncGenerator<string> {
    const match = `${globEscape(this.prefix + prefix)}*`;
    let cursor = "0";
    // SCAN may return a key twice while Redis rehashes; yield each once.
    const seen = new Set<string>();
    do {
      const reply = (await this.send(["SCAN", cursor, "MATCH", match, "COUNT", "1000"])) as [
        string,
        string[],
      ];
      cursor = String(reply[0]);
      for (const key of reply[1]) {
        if (seen.has(key)) continue;
        seen.add(key);
        yield key.slice(this.prefix.length);
      }
    } while (cursor !== "0");
  }
}
