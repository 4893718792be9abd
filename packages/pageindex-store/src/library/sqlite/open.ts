import { accessSync, constants, existsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { FileReadError, openRegularFile } from "pageindex-core";
import { LibraryIndexError } from "../errors.js";
import { CHAMPIONS, type ChampionBuildProgress, ChampionLists } from "./champions.js";
import type { Connection } from "./connection.js";
import { migrateNodeCounts } from "./node-counts.js";
import { CHAMPION_BACKLOG_SCHEMA, CHAMPION_SCHEMA, INTENTS_TABLE, SCHEMA, SCHEMA_VERSION } from "./schema.js";
import { migrateSegments, SEGMENT_KEYS_SCHEMA } from "./segments.js";
import { migrateTermRows } from "./term-rows.js";

export type { Connection, Statement } from "./connection.js";

/** How long a statement waits for another process's lock before failing (ms). */
export const BUSY_TIMEOUT_MS = 10_000;

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Error codes (and extended codes' text) that mean "not a database / damaged". */
function corrupt(error: unknown): boolean {
  const code = String((error as { code?: unknown })?.code ?? "");
  const message = String((error as { message?: unknown })?.message ?? "");
  return /NOTADB|CORRUPT/.test(code) || /not a database|malformed|corrupt/i.test(message);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Where a read-only connection reads from. With a write-ahead log holding pages (a writer is at
 * work, or stopped without closing) it shares the writer's log and lock files (`mode=ro`), as
 * it does when it may create them; only in a folder it cannot write, with an empty log or none,
 * does it read the file as a finished, unchanging database (`immutable=1`): every committed
 * page is in the file then, and no writer can be at work there.
 */
function readOnlyUri(path: string): string {
  const uri = `file:${encodeURI(path).replaceAll("?", "%3f").replaceAll("#", "%23")}`;
  const wal = `${path}-wal`;
  const logged = existsSync(wal) && statSync(wal).size > 0;
  return logged || writable(dirname(path)) ? `${uri}?mode=ro` : `${uri}?immutable=1`;
}
/**
 * Refuses an index file (or its `-wal` / `-shm` companion) that exists but is not a regular
 * file: SQLite would block for ever on a FIFO and read a device such as `/dev/zero` without end.
 * Checked on a handle opened without blocking, so the check itself cannot hang.
 */
async function assertRegularFiles(path: string): Promise<void> {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      const { handle } = await openRegularFile(file);
      await handle.close();
    } catch (error) {
      // Only the file's type is checked here: SQLite reports its own open errors.
      if (!(error instanceof FileReadError) || error.problem !== "not-regular") continue;
      throw new LibraryIndexError(
        file,
        `${error.message}; delete it and reopen the store for writing (pageindex index or vacuum) to rebuild the index`,
        { cause: error },
      );
    }
  }
}

/**
 * Opens (and for a writer, creates) the library index file: WAL journal so readers in other
 * processes see the last committed state while one writer works, a busy timeout, and the
 * schema checked. Throws {@link LibraryIndexError} naming the file when it is not a library
 * index, is damaged, or has another layout version.
 */
export async function openConnection(
  path: string,
  readOnly: boolean,
  championRows?: number,
  onChampionBuild?: (progress: ChampionBuildProgress) => void,
): Promise<Connection> {
  if (readOnly && !existsSync(path)) {
    throw new LibraryIndexError(path, "no library index file there to open read-only");
  }
  await assertRegularFiles(path);
  const { default: Sqlite } = await import("libsql");
  let db: Connection | undefined;
  try {
    db = new Sqlite(readOnly ? readOnlyUri(path) : path, { timeout: BUSY_TIMEOUT_MS });
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (!readOnly) {
      db.exec("PRAGMA journal_mode = WAL");
      db.exec("PRAGMA synchronous = NORMAL");
    }
    checkSchema(db, path, readOnly, championRows, onChampionBuild);
    return db;
  } catch (error) {
    db?.close();
    if (error instanceof LibraryIndexError) throw error;
    if (corrupt(error)) {
      throw new LibraryIndexError(
        path,
        `not a readable SQLite library index (${describe(error)}); delete the file and reopen the store for writing to rebuild it`,
        { cause: error },
      );
    }
    throw new LibraryIndexError(path, `cannot open: ${describe(error)}`, { cause: error });
  }
}

function checkSchema(
  db: Connection,
  path: string,
  readOnly: boolean,
  championRows: number | undefined,
  onChampionBuild: ((progress: ChampionBuildProgress) => void) | undefined,
): void {
  const tables = new Set(
    (
      db.prepare("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')").raw().all() as unknown[][]
    ).map((row) => String(row[0])),
  );
  if (!tables.has("library_meta")) {
    if (tables.size > 0) {
      throw new LibraryIndexError(
        path,
        "this SQLite database is not a pageindex library index (it has other tables); move it away",
      );
    }
    if (readOnly) throw new LibraryIndexError(path, "the file is empty: no library index was written to it");
    db.exec(`BEGIN IMMEDIATE; ${SCHEMA} ${SEGMENT_KEYS_SCHEMA} COMMIT;`);
  }
  const version = (
    db.prepare("SELECT value FROM library_meta WHERE key = 'schema'").raw().get() as unknown[] | undefined
  )?.[0];
  if (version !== SCHEMA_VERSION) {
    throw new LibraryIndexError(
      path,
      `layout version ${String(version)} is not the version ${SCHEMA_VERSION} this release reads; delete the file and reopen the store for writing to rebuild it`,
    );
  }
  if (!readOnly) {
    migrateIntents(db, tables);
    migrateNodeCounts(db);
    migrateSegments(db);
    // Lists written before their backlog (pending rows, gone documents) was: add its tables.
    if (tables.has("champion_terms") && !tables.has("champion_pending"))
      db.exec(`BEGIN IMMEDIATE; ${CHAMPION_BACKLOG_SCHEMA} COMMIT;`);
    // 0 asks for no lists: none are built (a file that has them keeps them, see the index's options).
    if (championRows !== undefined && championRows > 0) migrateChampions(db, championRows, onChampionBuild);
    const listRows = ChampionLists.present(db) ? championRowsOf(db) : undefined;
    if (listRows !== undefined) migrateTermRows(db, listRows);
  }
}

/**
 * Builds the champion lists of a file that has none (new, or written without them), from its
 * FTS5 index (no document is read again), in one transaction: a crash leaves the file as it was,
 * and the next writable open asking for lists builds them again.
 */
function migrateChampions(
  db: Connection,
  championRows: number,
  onProgress: ((progress: ChampionBuildProgress) => void) | undefined,
): void {
  if (ChampionLists.present(db)) return;
  db.transaction(() => {
    db.exec(CHAMPION_SCHEMA);
    const lists = new ChampionLists(db, (source) => db.prepare(source), setChampionRows(db, championRows));
    lists.fillLengths(onProgress);
    lists.rebuild(undefined, onProgress);
  }).immediate();
}

/**
 * Moves the intents of a file written by an earlier release (one per document, in `intents`)
 * to `write_intents` (one per version), in one transaction.
 */
function migrateIntents(db: Connection, tables: ReadonlySet<string>): void {
  if (tables.has("write_intents") && !tables.has("intents")) return;
  const copy = tables.has("intents")
    ? "INSERT OR IGNORE INTO write_intents SELECT doc_id, coalesce(version_id, '') FROM intents; DROP TABLE intents;"
    : "";
  db.exec(`BEGIN IMMEDIATE; ${INTENTS_TABLE} ${copy} COMMIT;`);
}

/** Records the rows per term a file's champion lists are built for (a file keeps its first choice). */
function setChampionRows(db: Connection, championRows: number): number {
  db.prepare("INSERT OR IGNORE INTO library_meta (key, value) VALUES ('champion_rows', ?)").run(
    String(Math.max(1, Math.floor(championRows))),
  );
  return championRowsOf(db) ?? CHAMPIONS.perTerm;
}

/** The rows per term of a file's champion lists, or undefined when it has none. */
export function championRowsOf(db: Connection): number | undefined {
  const value = (
    db.prepare("SELECT value FROM library_meta WHERE key = 'champion_rows'").raw(true).get() as
      | unknown[]
      | undefined
  )?.[0];
  return value === undefined ? undefined : Number(value);
}
