import { randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, stat, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { BaseStore } from "@langchain/core/stores";
import { InvalidIdError } from "../errors.js";

/** Options of {@link FileByteStore}. */
export interface FileByteStoreOptions {
  /**
   * Flush each file (and the folder) to disk before a write returns, so a power loss cannot
   * reorder writes. Off by default: a crashed *process* never sees a torn value either way,
   * because every value is written to a temp file and renamed into place.
   */
  durable?: boolean;
  /** How many files to read or write at once (default 32). */
  concurrency?: number;
}

/**
 * Longest key: its temp file's name, `<key>.<pid, up to 10 digits>.<12 hex>`, must stay within
 * the 255-byte file-name limit of common file systems.
 */
const MAX_KEY_LENGTH = 255 - (1 + 10 + 1 + 12);
const KEY_PATTERN = new RegExp(`^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,${MAX_KEY_LENGTH - 1}}$`);
/** Temp files live in a dot-folder: no valid key starts with a dot, so none can collide with it. */
const TEMP_DIR = ".tmp";
/** Temp files older than this are leftovers of a crashed writer and are removed on open. */
const STALE_TEMP_MS = 60 * 60 * 1000;

function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}

async function inBatches<T>(
  items: readonly T[],
  size: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    await Promise.all(items.slice(i, i + size).map(fn));
  }
}

/**
 * A LangChain byte store keeping one file per key in a folder: the embedded default of
 * `PageIndexStore.fromPath`. Writes are atomic (temp file + rename), so a reader or a crashed
 * writer never leaves a half-written value; keys are restricted to `[A-Za-z0-9_.-]`, may not
 * start with a dot, and so can never name a path outside the folder.
 */
export class FileByteStore extends BaseStore<string, Uint8Array> {
  lc_namespace = ["pageindex", "storage", "file"];
  /** Absolute path of the folder. */
  readonly rootPath: string;
  private readonly durable: boolean;
  private readonly concurrency: number;
  private readonly tempPath: string;

  constructor(rootPath: string, options: FileByteStoreOptions = {}) {
    super();
    this.rootPath = resolve(rootPath);
    this.tempPath = join(this.rootPath, TEMP_DIR);
    this.durable = options.durable ?? false;
    this.concurrency = Math.max(1, options.concurrency ?? 32);
  }

  /** Opens (creating if needed) a store in `rootPath` and removes stale temp files of crashed writers. */
  static async fromPath(rootPath: string, options: FileByteStoreOptions = {}): Promise<FileByteStore> {
    const store = new FileByteStore(rootPath, options);
    await mkdir(store.tempPath, { recursive: true });
    await store.removeStaleTemps(STALE_TEMP_MS);
    return store;
  }

  /** Deletes temp files older than `maxAgeMs` (younger ones may belong to a live writer). */
  async removeStaleTemps(maxAgeMs: number): Promise<number> {
    let names: string[];
    try {
      names = await readdir(this.tempPath);
    } catch (error) {
      if (isErrno(error, "ENOENT")) return 0;
      throw error;
    }
    let removed = 0;
    const cutoff = Date.now() - maxAgeMs;
    await inBatches(names, this.concurrency, async (name) => {
      const file = join(this.tempPath, name);
      try {
        if ((await stat(file)).mtimeMs <= cutoff) {
          await unlink(file);
          removed += 1;
        }
      } catch (error) {
        if (!isErrno(error, "ENOENT")) throw error;
      }
    });
    return removed;
  }

  private pathOf(key: string): string {
    if (typeof key !== "string" || !KEY_PATTERN.test(key)) {
      throw new InvalidIdError(
        `Invalid key ${JSON.stringify(key)} for the file store at ${this.rootPath}: use 1-${MAX_KEY_LENGTH} characters from A-Z a-z 0-9 _ . - not starting with a dot`,
      );
    }
    return join(this.rootPath, key);
  }

  async mget(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    const paths = keys.map((key) => this.pathOf(key));
    const out: (Uint8Array | undefined)[] = new Array(keys.length);
    const indices = paths.map((_, i) => i);
    await inBatches(indices, this.concurrency, async (i) => {
      try {
        out[i] = await readFile(paths[i] as string);
      } catch (error) {
        if (!isErrno(error, "ENOENT") && !isErrno(error, "EISDIR")) throw error;
        out[i] = undefined;
      }
    });
    return out;
  }

  async mset(keyValuePairs: [string, Uint8Array][]): Promise<void> {
    // The last value of a repeated key wins, as in a single mset of a map.
    const entries = new Map<string, Uint8Array>();
    for (const [key, value] of keyValuePairs) {
      this.pathOf(key);
      entries.set(key, value);
    }
    await mkdir(this.tempPath, { recursive: true });
    await inBatches([...entries], this.concurrency, ([key, value]) => this.writeAtomically(key, value));
    if (this.durable && entries.size > 0) await this.syncFolder();
  }

  private async writeAtomically(key: string, value: Uint8Array): Promise<void> {
    const temp = join(this.tempPath, `${key}.${process.pid}.${randomBytes(6).toString("hex")}`);
    try {
      const handle = await open(temp, "w");
      try {
        await handle.writeFile(value);
        if (this.durable) await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.pathOf(key));
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
  }

  private async syncFolder(): Promise<void> {
    const handle = await open(this.rootPath, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  async mdelete(keys: string[]): Promise<void> {
    const paths = keys.map((key) => this.pathOf(key));
    await inBatches(paths, this.concurrency, async (path) => {
      try {
        await unlink(path);
      } catch (error) {
        if (!isErrno(error, "ENOENT")) throw error;
      }
    });
  }

  async *yieldKeys(prefix = ""): AsyncGenerator<string> {
    let names: string[];
    try {
      names = await readdir(this.rootPath);
    } catch (error) {
      if (isErrno(error, "ENOENT")) return;
      throw error;
    }
    for (const name of names) {
      if (name.startsWith(prefix) && KEY_PATTERN.test(name)) yield name;
    }
  }
}
