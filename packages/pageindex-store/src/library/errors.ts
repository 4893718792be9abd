import { PageIndexError } from "../errors.js";

/**
 * A library index cannot be opened or read: the file at its path is not a library index (not a
 * database, corrupt, another program's database) or was written by a newer release. Names the
 * file; the trees in the store are not affected, so deleting the file and reopening the store
 * for writing rebuilds it.
 */
export class LibraryIndexError extends PageIndexError {
  /** The index file (or database) concerned. */
  readonly path: string;
  /** What is wrong with it. */
  readonly reason: string;

  constructor(path: string, reason: string, options?: { cause?: unknown }) {
    super(`Library index "${path}": ${reason}`, options);
    this.path = path;
    this.reason = reason;
  }
}
