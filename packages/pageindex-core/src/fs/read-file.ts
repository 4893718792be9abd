import { constants, type Stats } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { PageIndexError } from "../errors.js";

/** Why {@link readRegularFile} refused or failed. */
export type FileReadProblem = "not-found" | "not-regular" | "too-large" | "unreadable";

/**
 * A file could not be read as a bounded regular file: absent, not a regular file (a directory,
 * FIFO, device such as `/dev/zero`, socket), over the byte limit, or unreadable. Names the file.
 * @example
 * ```ts
 * try {
 *   await readRegularFile("notes.md", { maxBytes: 1 << 20 });
 * } catch (error) {
 *   if (error instanceof FileReadError && error.problem === "too-large") console.error(error.message);
 * }
 * ```
 */
export class FileReadError extends PageIndexError {
  /** The path as given. */
  readonly path: string;
  readonly problem: FileReadProblem;
  /** Bytes seen before giving up, for `too-large`. */
  readonly bytes?: number;
  /** The limit, for `too-large`. */
  readonly maxBytes?: number;

  constructor(
    path: string,
    problem: FileReadProblem,
    message: string,
    options?: { cause?: unknown; bytes?: number; maxBytes?: number },
  ) {
    super(message, options);
    this.path = path;
    this.problem = problem;
    if (options?.bytes !== undefined) this.bytes = options.bytes;
    if (options?.maxBytes !== undefined) this.maxBytes = options.maxBytes;
  }
}

/** Options of {@link readRegularFile}. */
export interface ReadRegularFileOptions {
  /** Refuse files larger than this many bytes (checked on the size and while reading). Default: no limit. */
  maxBytes?: number;
  /** What to call the file in messages (default: the path). */
  label?: string;
}

/** What a file is when it is not a regular file, in words. */
export function fileKind(info: Stats): string {
  if (info.isDirectory()) return "a directory";
  if (info.isFIFO()) return "a named pipe (FIFO)";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "a device";
  if (info.isSocket()) return "a socket";
  return "not a regular file";
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function concatBytes(chunks: readonly Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/**
 * Opens `path` without blocking and checks the open handle (not the path, which could be swapped
 * between a check and the open): a FIFO would wait forever for a writer and a device such as
 * `/dev/zero` reports size 0 yet never ends, so only a regular file is read. The caller must
 * close the handle.
 * @throws {FileReadError} (`not-found`, `not-regular`, `unreadable`).
 */
export async function openRegularFile(
  path: string,
  label = path,
): Promise<{ handle: FileHandle; info: Stats }> {
  let handle: FileHandle | undefined;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new FileReadError(path, "not-regular", `${label} is ${fileKind(info)}, not a regular file`);
    }
    return { handle, info };
  } catch (error) {
    await handle?.close().catch(() => undefined);
    if (error instanceof FileReadError) throw error;
    const code = errorCode(error);
    if (code === "ENOENT" || code === "ENOTDIR")
      throw new FileReadError(path, "not-found", `File not found: ${label}`, { cause: error });
    if (code === "EISDIR")
      throw new FileReadError(path, "not-regular", `${label} is a directory, not a regular file`, {
        cause: error,
      });
    if (code === "ELOOP")
      throw new FileReadError(path, "unreadable", `Cannot read ${label}: too many symbolic links`, {
        cause: error,
      });
    const reason = code === "EACCES" || code === "EPERM" ? "permission denied" : String(error);
    throw new FileReadError(path, "unreadable", `Cannot read ${label}: ${reason}`, { cause: error });
  }
}

/**
 * Reads a regular file whole, never more than `maxBytes` (+1 to tell it is over): the one
 * bounded read every package uses for inputs and for a store's own files.
 * @throws {FileReadError} naming the file: absent, not a regular file, over `maxBytes`, unreadable.
 */
export async function readRegularFile(
  path: string,
  options: ReadRegularFileOptions = {},
): Promise<Uint8Array> {
  const { maxBytes } = options;
  const label = options.label ?? path;
  const tooLarge = (bytes: number) =>
    new FileReadError(path, "too-large", `${label} is ${bytes} bytes, over the ${maxBytes}-byte limit`, {
      bytes,
      ...(maxBytes !== undefined ? { maxBytes } : {}),
    });
  const { handle, info } = await openRegularFile(path, label);
  try {
    if (maxBytes !== undefined && info.size > maxBytes) throw tooLarge(info.size);
    const limit = maxBytes === undefined ? Number.POSITIVE_INFINITY : maxBytes + 1;
    const chunks: Uint8Array[] = [];
    let total = 0;
    // The size can change after stat (a growing log): read until the end or the limit. The first
    // buffer fits the stated size and one byte more (a store's small values are most reads: a
    // 64 KiB buffer each was most of their cost), later ones 64 KiB.
    while (total < limit) {
      const want = total === 0 ? info.size + 1 : Math.max(info.size - total + 1, 1 << 16);
      const chunk = new Uint8Array(Math.min(limit - total, want));
      const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      total += bytesRead;
      // The stated size read, and not the byte asked past it: the end (no second read to find
      // it). Any other short read (interrupted, the file changed) reads on until zero bytes.
      if (total === info.size && bytesRead < chunk.byteLength) break;
    }
    if (maxBytes !== undefined && total > maxBytes) throw tooLarge(total);
    return concatBytes(chunks, total);
  } catch (error) {
    if (error instanceof FileReadError) throw error;
    throw new FileReadError(path, "unreadable", `Cannot read ${label}: ${String(error)}`, { cause: error });
  } finally {
    await handle.close().catch(() => undefined);
  }
}
