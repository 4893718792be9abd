import { constants } from "node:buffer";
import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import { SourceTooLargeError, UnsupportedContentError } from "./errors.js";

const gunzipAsync = promisify(gunzip);

/** The gzip member header: ID1 ID2 and the deflate method. */
const GZIP_MAGIC = [0x1f, 0x8b, 0x08];

/** Whether the bytes start a gzip stream (Debian ships most of /usr/share/doc as `.gz`). */
export function isGzip(bytes: Uint8Array): boolean {
  return GZIP_MAGIC.every((b, i) => bytes[i] === b);
}

/**
 * A compressed file's name without its `.gz` suffix (`guide.md.gz` → `guide.md`), else the name
 * itself. Only `.gz`, the suffix the CLI's folder walk and its document ids know too.
 */
export function contentName(name: string): string {
  return name.replace(/\.gz$/i, "") || name;
}

/**
 * Decompresses a gzip stream without ever holding more than `maxBytes` of output, so a small
 * file that inflates to gigabytes (a decompression bomb) fails fast instead of filling memory.
 * @param label what to call the input in errors (a path or name).
 * @throws {SourceTooLargeError} when the content is larger than `maxBytes`.
 * @throws {UnsupportedContentError} when the stream is damaged or truncated.
 */
export async function gunzipBounded(
  bytes: Uint8Array,
  label: string,
  maxBytes?: number,
): Promise<Uint8Array> {
  const limit = Math.min(maxBytes ?? constants.MAX_LENGTH, constants.MAX_LENGTH - 1);
  const tooLarge = () =>
    new SourceTooLargeError(
      label,
      limit + 1,
      limit,
      `${label} decompresses to more than ${limit} bytes, over the limit (maxBytes option)`,
    );
  let out: Buffer;
  try {
    // One byte more than allowed, so that content of exactly `limit` bytes still fits.
    out = await gunzipAsync(bytes, { maxOutputLength: limit + 1 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge();
    throw new UnsupportedContentError(
      label,
      `${label} is a damaged gzip file: ${(error as Error).message} (decompress it to see what it holds)`,
      { cause: error },
    );
  }
  if (out.byteLength > limit) throw tooLarge();
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
