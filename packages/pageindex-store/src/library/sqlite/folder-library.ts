import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { LIBRARY_FILE, SqliteLibraryIndex, type SqliteLibraryIndexOptions } from "./sqlite-library-index.js";

/**
 * Folder of a store folder's library index. Its name starts with a dot, so it is outside the
 * byte store's key space: the index's files (and SQLite's `-wal` / `-shm`) never show up as keys.
 */
export const LIBRARY_FOLDER = ".library";

/**
 * Opens the library index of a store folder: created with the folder when it can be written;
 * when it cannot (`readOnly`), the existing index read-only, or `undefined` when there is none
 * or it is still empty (the store then answers from its catalog, as stores written before the
 * library index do). `lists` are the champion-list options (see `SqliteLibraryIndexOptions`).
 * @throws {LibraryIndexError} when the file is not a library index or is damaged.
 */
export async function openFolderLibrary(
  root: string,
  readOnly: boolean,
  lists: Pick<SqliteLibraryIndexOptions, "championRows" | "onChampionBuild"> = {},
): Promise<SqliteLibraryIndex | undefined> {
  const folder = join(root, LIBRARY_FOLDER);
  if (!readOnly) {
    await mkdir(folder, { recursive: true });
    return SqliteLibraryIndex.open(folder, lists);
  }
  if (!existsSync(join(folder, LIBRARY_FILE))) return undefined;
  const library = await SqliteLibraryIndex.open(folder, {
    readOnly: true,
    ...(lists.championRows === undefined ? {} : { championRows: lists.championRows }),
  });
  if ((await library.count()) > 0) return library;
  await library.close();
  return undefined;
}
