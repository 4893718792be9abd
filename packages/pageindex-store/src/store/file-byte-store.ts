import { randomBytes } from "node:crypto";
import { link, mkdir, open, readdir, rename, rmdir, stat, unlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { BaseStore } from "@langchain/core/stores";
import { FileReadError, InvalidIdError, PageIndexError, readRegularFile } from "pageindex-core";
import type { CreateIfAbsentStore } from "./create-if-absent.js";
import { StoreCorruptionError, StoreReadError, StoreReadOnlyError, StoreWriteError } from "./errors.js";

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
  /**
   * Open without writing anything (default false): no `.tmp/` folder is created and no temp file
   * removed, so a folder checked into git or on a read-only disk opens as it is; every write
   * raises {@link StoreReadOnlyError}.
   */
  readOnly?: boolean;
  /**
   * Largest value read (default 256 MiB): a file over it is reported as corrupt instead of read,
   * so a value replaced by a link to a huge file cannot exhaust memory.
   */
  maxValueBytes?: number;
}

/** Default of {@link FileByteStoreOptions.maxValueBytes}. */
export const DEFAULT_MAX_VALUE_BYTES = 256 * 1024 * 1024;

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
/**
 * The name of a temp file this store writes, `<key>.<pid>.<12 hex>`: only such files are ever
 * removed from `.tmp/`, so a user folder that has its own `.tmp/` loses nothing else.
 */
const TEMP_NAME_PATTERN = /^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.[0-9]{1,10}\.[0-9a-f]{12}$/;
/** Errors of a write the file system refused for lack of permission or a read-only mount. */
const READ_ONLY_CODES = new Set(["EACCES", "EPERM", "EROFS"]);
/** Errors of a write the file system could not complete: full disk or quota, I/O failure, too many files. */
const WRITE_FAILURE_CODES = new Set([
  "ENOSPC",
  "EDQUOT",
  "EIO",
  "EFBIG",
  "EMFILE",
  "ENFILE",
  "EMLINK",
  "ENOTDIR",
]);

function isErrno(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === code;
}

/**
 * Runs `fn` over `items`, `size` at a time. Every call of a batch settles before the first
 * failure is thrown, so nothing is still writing when the caller cleans up after it.
 */
async function inBatches<T>(
  items: readonly T[],
  size: number,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    const results = await Promise.allSettled(items.slice(i, i + size).map(fn));
    const failed = results.find((result) => result.status === "rejected");
    if (failed) throw failed.reason;
  }
}

/**
 * A LangChain byte store keeping one file per key in a folder: the embedded default of
 * `PageIndexStore.fromPath`. Writes are atomic (temp file + rename), so a reader or a crashed
 * writer never leaves a half-written value; keys are restricted to `[A-Za-z0-9_.-]`, may not
 * start with a dot, and so can never name a path outside the folder.
 */
export class FileByteStore extends BaseStore<string, Uint8Array> implements CreateIfAbsentStore {
  lc_namespace = ["pageindex", "storage", "file"];
  /** Absolute path of the folder. */
  readonly rootPath: string;
  /** Whether writes are refused (see {@link FileByteStoreOptions.readOnly}). */
  readonly readOnly: boolean;
  private readonly durable: boolean;
  private readonly concurrency: number;
  private readonly maxValueBytes: number;
  private readonly tempPath: string;

  constructor(rootPath: string, options: FileByteStoreOptions = {}) {
    super();
    // resolve("") is the current folder: an unset variable would spread the store's files there.
    if (typeof rootPath !== "string" || rootPath.trim() === "") {
      throw new PageIndexError(
        'The store folder path is empty: give a folder, e.g. ".pageindex" (an empty path would put the store\'s files in the current folder)',
      );
    }
    this.rootPath = resolve(rootPath);
    this.tempPath = join(this.rootPath, TEMP_DIR);
    this.durable = options.durable ?? false;
    this.readOnly = options.readOnly ?? false;
    this.concurrency = Math.max(1, options.concurrency ?? 32);
    this.maxValueBytes = Math.max(1, options.maxValueBytes ?? DEFAULT_MAX_VALUE_BYTES);
  }

  /**
   * Opens (creating if needed) a store in `rootPath` and removes stale temp files of crashed
   * writers. With `readOnly`, the folder must exist and nothing is created or removed.
   * @throws {StoreReadOnlyError} when the folder cannot be written (open it with `readOnly`).
   * @throws {PageIndexError} for a `readOnly` folder that does not exist or is not a folder.
   */
  static async fromPath(rootPath: string, options: FileByteStoreOptions = {}): Promise<FileByteStore> {
    const store = new FileByteStore(rootPath, options);
    if (store.readOnly) {
      const info = await stat(store.rootPath).catch((error: unknown) => {
        throw new PageIndexError(
          `Cannot open the store folder ${store.rootPath}: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      });
      if (!info.isDirectory()) throw new PageIndexError(`The store path ${store.rootPath} is not a folder`);
      return store;
    }
    await store.writing(() => mkdir(store.tempPath, { recursive: true }));
    await store.removeStaleTemps(STALE_TEMP_MS);
    return store;
  }

  /**
   * Deletes this store's temp files (named `<key>.<pid>.<hex>`) older than `maxAgeMs` (younger
   * ones may belong to a live writer); other files in `.tmp/` are never touched.
   */
  async removeStaleTemps(maxAgeMs: number): Promise<number> {
    if (this.readOnly) return 0;
    let names: string[];
    try {
      names = await readdir(this.tempPath);
    } catch (error) {
      if (isErrno(error, "ENOENT")) return 0;
      throw error;
    }
    let removed = 0;
    const cutoff = Date.now() - maxAgeMs;
    const ours = names.filter((name) => TEMP_NAME_PATTERN.test(name));
    await inBatches(ours, this.concurrency, async (name) => {
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

  /**
   * Runs a write; a refusal by the file system (permissions, read-only mount) becomes
   * {@link StoreReadOnlyError}, a failure to complete it (disk full, I/O error) {@link StoreWriteError}.
   */
  private async writing<T>(write: () => Promise<T>): Promise<T> {
    if (this.readOnly) throw new StoreReadOnlyError(this.rootPath, "it was opened read-only");
    try {
      return await write();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      if (code !== undefined && READ_ONLY_CODES.has(code)) {
        throw new StoreReadOnlyError(this.rootPath, `the file system refused a write (${code})`, {
          cause: error,
        });
      }
      if (code !== undefined && WRITE_FAILURE_CODES.has(code)) {
        throw new StoreWriteError(this.rootPath, code, { cause: error });
      }
      throw error;
    }
  }

  private tempFile(key: string): string {
    return join(this.tempPath, `${key}.${process.pid}.${randomBytes(6).toString("hex")}`);
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
      out[i] = await this.readValue(keys[i] as string, paths[i] as string);
    });
    return out;
  }

  /**
   * One value through the bounded read: absent is `undefined`; a key that is not a regular file
   * (a directory, FIFO, device link such as `/dev/zero`) or is over `maxValueBytes` is
   * {@link StoreCorruptionError}, refused without blocking or reading it whole.
   */
  private async readValue(key: string, path: string): Promise<Uint8Array | undefined> {
    try {
      return await readRegularFile(path, { maxBytes: this.maxValueBytes, label: path });
    } catch (error) {
      if (!(error instanceof FileReadError)) throw error;
      if (error.problem === "not-found") return undefined;
      if (error.problem === "unreadable")
        throw new StoreReadError(this.rootPath, error.message, { cause: error });
      throw new StoreCorruptionError(key, error.message, undefined, { cause: error });
    }
  }

  async mset(keyValuePairs: [string, Uint8Array][]): Promise<void> {
    // The last value of a repeated key wins, as in a single mset of a map.
    const entries = new Map<string, Uint8Array>();
    for (const [key, value] of keyValuePairs) {
      this.pathOf(key);
      entries.set(key, value);
    }
    if (entries.size === 0) return;
    await this.writing(async () => {
      await mkdir(this.tempPath, { recursive: true });
      await inBatches([...entries], this.concurrency, ([key, value]) => this.writeAtomically(key, value));
      if (this.durable && entries.size > 0) await this.syncFolder();
    });
  }

  /**
   * Creates `key` only if no file has its name, atomically across processes: the value is
   * written whole to a temp file, then hard-linked into place (a link fails when the name exists).
   */
  async createIfAbsent(key: string, value: Uint8Array): Promise<boolean> {
    const path = this.pathOf(key);
    return this.writing(async () => {
      await mkdir(this.tempPath, { recursive: true });
      const temp = this.tempFile(key);
      try {
        await this.writeTemp(temp, value);
        await link(temp, path);
        if (this.durable) await this.syncFolder();
        return true;
      } catch (error) {
        if (isErrno(error, "EEXIST")) return false;
        throw error;
      } finally {
        await unlink(temp).catch(() => undefined);
      }
    });
  }

  private async writeTemp(temp: string, value: Uint8Array): Promise<void> {
    const handle = await open(temp, "w");
    try {
      await handle.writeFile(value);
      if (this.durable) await handle.sync();
    } finally {
      await handle.close();
    }
  }

  private async writeAtomically(key: string, value: Uint8Array): Promise<void> {
    const temp = this.tempFile(key);
    try {
      await this.writeTemp(temp, value);
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
    if (paths.length === 0) return;
    await this.writing(() =>
      inBatches(paths, this.concurrency, async (path) => {
        try {
          await unlink(path);
        } catch (error) {
          if (isErrno(error, "ENOENT")) return;
          // An empty directory under a key's name (damage) goes too; anything in it stays.
          if (!isErrno(error, "EISDIR") && !isErrno(error, "EPERM")) throw error;
          await rmdir(path).catch(() => {
            throw error;
          });
        }
      }),
    );
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
