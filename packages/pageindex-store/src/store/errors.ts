import { InvalidIdError, PageIndexError } from "pageindex-core";

/**
 * A value in the store is unreadable: corrupt or truncated bytes, a value written by another
 * program under our namespace, or a node text that is missing. Names the document and key so
 * the document can be deleted or rebuilt; the rest of the store stays usable.
 */
export class StoreCorruptionError extends PageIndexError {
  /** The document the value belongs to, when known. */
  readonly docId?: string;
  /** The byte-store key holding the bad value. */
  readonly key: string;
  /** What is wrong with the value. */
  readonly reason: string;

  constructor(key: string, reason: string, docId?: string, options?: { cause?: unknown }) {
    const doc = docId === undefined ? "" : ` (document "${docId}")`;
    super(
      `Corrupt store value at key "${key}"${doc}: ${reason}. Add the document again (or delete it) to replace the bad value.`,
      options,
    );
    this.key = key;
    this.reason = reason;
    if (docId !== undefined) this.docId = docId;
  }
}

/** A stored value uses a format version this package cannot read. */
export class StoreVersionError extends PageIndexError {
  readonly docId?: string;
  readonly key: string;
  /** The version found in the value. */
  readonly found: unknown;
  /** The version this package reads and writes. */
  readonly supported: number;

  constructor(key: string, found: unknown, supported: number, what: string, docId?: string) {
    const doc = docId === undefined ? "" : ` of document "${docId}"`;
    const advice =
      typeof found === "number" && found > supported
        ? "it was written by a newer pageindex-store; upgrade this package to read it"
        : "no upgrade from that version exists; rebuild the document (delete it and index it again)";
    super(
      `Unsupported ${what} version ${JSON.stringify(found)}${doc} at key "${key}" (this package reads version ${supported}): ${advice}`,
    );
    this.key = key;
    this.found = found;
    this.supported = supported;
    if (docId !== undefined) this.docId = docId;
  }
}

/**
 * A new document id equals a stored document's id but for letter case. On case-insensitive
 * file systems (macOS, Windows) their keys would name the same files, so one document would
 * silently replace the other; the store refuses the new id instead.
 */
export class DocumentIdConflictError extends InvalidIdError {
  /** The id being added. */
  readonly docId: string;
  /** The stored document's id. */
  readonly existingDocId: string;

  constructor(docId: string, existingDocId: string) {
    super(
      `Document id "${docId}" differs only in letter case from the stored document "${existingDocId}": on case-insensitive file systems (macOS, Windows) both would share the same files. Use "${existingDocId}" to replace that document, or choose another id.`,
    );
    this.docId = docId;
    this.existingDocId = existingDocId;
  }
}

/**
 * A write was refused because the store is read-only: opened with `readOnly: true`, a folder
 * (or file system) the process may not write to, or a Redis read-only replica.
 * @example
 * ```ts
 * try {
 *   await store.addTree(tree);
 * } catch (error) {
 *   if (error instanceof StoreReadOnlyError) console.error(`cannot write to ${error.location}`);
 * }
 * ```
 */
export class StoreReadOnlyError extends PageIndexError {
  /** Where the store is (folder path or description). */
  readonly location: string;

  constructor(location: string, reason: string, options?: { cause?: unknown }) {
    super(`The store at ${location} is read-only: ${reason}`, options);
    this.location = location;
  }
}

/**
 * A write the store's storage could not complete: disk full, quota exceeded, an I/O error.
 * Nothing half-written is visible (every value is written whole, then renamed into place).
 * @example
 * ```ts
 * try {
 *   await store.addTree(tree);
 * } catch (error) {
 *   if (error instanceof StoreWriteError && error.code === "ENOSPC") console.error("disk full");
 * }
 * ```
 */
export class StoreWriteError extends PageIndexError {
  /** Where the store is (folder path or description). */
  readonly location: string;
  /** The system's error code (ENOSPC, EDQUOT, EIO…). */
  readonly code: string;

  constructor(location: string, code: string, options?: { cause?: unknown }) {
    const what: Record<string, string> = {
      ENOSPC: "the disk is full",
      EDQUOT: "the disk quota is exceeded",
      EIO: "an I/O error occurred",
    };
    super(
      `Cannot write to the store at ${location}: ${what[code] ?? `the file system refused the write (${code})`}; nothing half-written is visible — free space and run the command again`,
      options,
    );
    this.location = location;
    this.code = code;
  }
}

/** A value of the store exists but could not be read (permission denied, an I/O error). */
export class StoreReadError extends PageIndexError {
  /** Where the store is (folder path or description). */
  readonly location: string;

  constructor(location: string, reason: string, options?: { cause?: unknown }) {
    super(`Cannot read the store at ${location}: ${reason}`, options);
    this.location = location;
  }
}

/**
 * A read kept finding the document replaced under it (each version it started on was gone before
 * it finished): the document is being rewritten faster than it can be read. Not corruption: retry.
 */
export class StoreReadConflictError extends PageIndexError {
  readonly docId: string;

  constructor(docId: string, attempts: number) {
    super(
      `Document "${docId}" was replaced ${attempts} times while it was being read, each time after its superseded version's grace period (supersededGraceMs); try again`,
    );
    this.docId = docId;
  }
}

/**
 * Redis could not serve a command of the store: no answer in time, or the connection is gone.
 * @example
 * ```ts
 * const store = await PageIndexStore.fromRedis(url, { commandTimeoutMs: 5000 });
 * try {
 *   await retriever.invoke(question);
 * } catch (error) {
 *   if (error instanceof RedisStoreError) console.error("Redis is unavailable:", error.message);
 * }
 * ```
 */
export class RedisStoreError extends PageIndexError {}

/** The connection to Redis broke or is closed (server stopped, network lost) while a command ran. */
export class RedisStoreConnectionError extends RedisStoreError {
  /** The Redis command that failed (MGET, MSET, …). */
  readonly command: string;

  constructor(command: string, reason: string, options?: { cause?: unknown }) {
    super(`Redis connection lost during ${command}: ${reason}`, options);
    this.command = command;
  }
}

/** A Redis command got no answer within the store's command timeout (server gone, hung or unreachable). */
export class RedisStoreTimeoutError extends RedisStoreError {
  /** The Redis command that timed out (MGET, MSET, …). */
  readonly command: string;
  readonly timeoutMs: number;

  constructor(command: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(
      `Redis did not answer ${command} within ${timeoutMs} ms (server stopped, hung or unreachable; raise commandTimeoutMs for a slow server)`,
      options,
    );
    this.command = command;
    this.timeoutMs = timeoutMs;
  }
}
