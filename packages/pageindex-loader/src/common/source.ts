import { createHash } from "node:crypto";
import { basename } from "node:path";
import { fileURLToPath } from "node:url";
import { FileReadError, readRegularFile } from "pageindex-core";
import {
  InvalidInputError,
  SourceNotFoundError,
  SourceReadError,
  SourceTooLargeError,
  UnsupportedContentError,
} from "./errors.js";
import { contentName, gunzipBounded, isGzip } from "./gzip.js";

/** In-memory text given directly (not a path). */
export interface TextInput {
  /** The document's text. */
  text: string;
  /** A name for it (used as `docName` and in error messages). */
  name?: string;
}

/**
 * What a loader accepts: a file path (`string`) or `file:` URL, a `Blob`/`File`, raw bytes
 * (`Uint8Array`, including `Buffer`, or `ArrayBuffer`), or `{ text }` for a string in memory.
 * A bare string is always a path, as in LangChain's own file loaders.
 */
export type SourceInput = string | URL | Blob | Uint8Array | ArrayBuffer | TextInput;

/** The input read into memory. */
export interface LoadedSource {
  /** The raw bytes (for `{ text }` input, its UTF-8 encoding). */
  bytes: Uint8Array;
  /** Already-decoded text, when the input was text. */
  text?: string;
  /** A display name: the file's base name, the `File`'s name or the `{ text }` name. */
  name?: string;
  /** The file path, when read from disk. */
  path?: string;
  /** What to call the input in messages: path, else name, else "(in-memory input)". */
  label: string;
}

/** Options of {@link readSource}. */
export interface ReadSourceOptions {
  /** Name to use when the input carries none (bytes, unnamed Blob). */
  name?: string;
  /**
   * Reject inputs larger than this many bytes with {@link SourceTooLargeError}; a gzip input is
   * held to it once decompressed too. Default: no limit.
   */
  maxBytes?: number;
  /**
   * Decompress gzip input (`guide.md.gz`, `manual.pdf.gz`, recognised by its bytes, not its name)
   * and drop the `.gz` from its name. Default: true.
   */
  decompress?: boolean;
}

function isTextInput(input: unknown): input is TextInput {
  return typeof input === "object" && input !== null && typeof (input as TextInput).text === "string";
}

/**
 * Reads a regular file through the shared bounded read ({@link readRegularFile}: opened without
 * blocking, checked on the open handle, never more than `maxBytes`), its errors as the loader's.
 */
async function readPath(path: string, maxBytes: number | undefined): Promise<Uint8Array> {
  try {
    return await readRegularFile(path, maxBytes === undefined ? {} : { maxBytes });
  } catch (error) {
    if (!(error instanceof FileReadError)) throw error;
    switch (error.problem) {
      case "not-found":
        throw new SourceNotFoundError(path, { cause: error });
      case "too-large":
        throw new SourceTooLargeError(path, error.bytes ?? 0, maxBytes ?? 0);
      default:
        throw new SourceReadError(path, error.message, { cause: error });
    }
  }
}

/**
 * Reads any {@link SourceInput} into memory; gzip input is decompressed (unless `decompress` is
 * false) and its name loses the `.gz`.
 * @throws {SourceNotFoundError} when a path does not exist.
 * @throws {SourceReadError} when a path is a directory or unreadable.
 * @throws {SourceTooLargeError} when the input, or gzip input once decompressed, exceeds `maxBytes`.
 * @throws {UnsupportedContentError} when gzip input is damaged or truncated.
 * @throws {InvalidInputError} when the input is none of the accepted types.
 */
export async function readSource(input: SourceInput, options: ReadSourceOptions = {}): Promise<LoadedSource> {
  const loaded = await readRaw(input, options);
  if (options.decompress === false || loaded.text !== undefined || !isGzip(loaded.bytes)) return loaded;
  const bytes = await gunzipBounded(loaded.bytes, loaded.label, options.maxBytes);
  return { ...loaded, bytes, ...(loaded.name !== undefined ? { name: contentName(loaded.name) } : {}) };
}

/** Reads the input's bytes as they are (see {@link readSource}). */
async function readRaw(input: SourceInput, options: ReadSourceOptions): Promise<LoadedSource> {
  const { maxBytes } = options;
  const check = (loaded: LoadedSource): LoadedSource => {
    if (maxBytes !== undefined && loaded.bytes.byteLength > maxBytes) {
      throw new SourceTooLargeError(loaded.label, loaded.bytes.byteLength, maxBytes);
    }
    return loaded;
  };
  const named = (name: string | undefined) => {
    const n = name ?? options.name;
    return n === undefined ? { label: "(in-memory input)" } : { name: n, label: n };
  };

  if (typeof input === "string" || input instanceof URL) {
    if (typeof input === "string" && input.trim() === "") {
      throw new InvalidInputError("(empty path)", "The file path is empty");
    }
    let path: string;
    try {
      path = typeof input === "string" ? input : fileURLToPath(input);
    } catch (error) {
      throw new InvalidInputError(String(input), `Only file: URLs can be read, got ${String(input)}`, {
        cause: error,
      });
    }
    const bytes = await readPath(path, maxBytes);
    return { bytes, name: options.name ?? basename(path), path, label: path };
  }
  if (isTextInput(input)) {
    return check({ bytes: new TextEncoder().encode(input.text), text: input.text, ...named(input.name) });
  }
  if (typeof Blob !== "undefined" && input instanceof Blob) {
    const fileName = "name" in input && typeof input.name === "string" && input.name ? input.name : undefined;
    const id = named(fileName);
    if (maxBytes !== undefined && input.size > maxBytes)
      throw new SourceTooLargeError(id.label, input.size, maxBytes);
    return { bytes: new Uint8Array(await input.arrayBuffer()), ...id };
  }
  if (input instanceof Uint8Array) return check({ bytes: input, ...named(undefined) });
  if (input instanceof ArrayBuffer) return check({ bytes: new Uint8Array(input), ...named(undefined) });
  throw new InvalidInputError(
    "(input)",
    `Unsupported input type ${input === null ? "null" : typeof input}: pass a file path, URL, Blob, Uint8Array, ArrayBuffer or { text }`,
  );
}

/** SHA-256 of the bytes, hex: the tree's `contentHash`. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

const SIGNATURES: Array<[string, number[]]> = [
  ["a PDF file", [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ["a ZIP archive (or an Office document)", [0x50, 0x4b, 0x03, 0x04]],
  ["a PNG image", [0x89, 0x50, 0x4e, 0x47]],
  ["a JPEG image", [0xff, 0xd8, 0xff]],
  ["a GIF image", [0x47, 0x49, 0x46, 0x38]],
  ["a gzip archive", [0x1f, 0x8b]],
];

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[i] === b);
}

/** Offset of the first byte that breaks UTF-8, or -1. Only used to make an error precise. */
function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const need =
      b < 0x80
        ? 0
        : b >= 0xc2 && b <= 0xdf
          ? 1
          : b >= 0xe0 && b <= 0xef
            ? 2
            : b >= 0xf0 && b <= 0xf4
              ? 3
              : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
    }
    i += need + 1;
  }
  return -1;
}

/** Binary files have NUL bytes early; text may hold stray ones (a bad copy, a corrupted log). */
const BINARY_HEAD = 8192;
/** More NULs than one per this many bytes is binary data, wherever they are. */
const BYTES_PER_STRAY_NUL = 4096;

/** Counts NUL bytes from `first` on (`indexOf` is a native scan: cheap even for 20 MB). */
function countNuls(bytes: Uint8Array, first: number): number {
  let count = 0;
  for (let at = first; at !== -1; at = bytes.indexOf(0, at + 1)) count += 1;
  return count;
}

/**
 * Decides about NUL bytes in the whole input: any in the first 8 KiB, or more than one per
 * 4 KiB overall, means binary; fewer, later ones are stray bytes in a text file.
 * @returns how many stray NULs the text holds (0 when none).
 * @throws {UnsupportedContentError} when the bytes look binary.
 */
function checkNuls(bytes: Uint8Array, label: string): number {
  const first = bytes.indexOf(0);
  if (first === -1) return 0;
  const count = countNuls(bytes, first);
  if (first < BINARY_HEAD || count > bytes.length / BYTES_PER_STRAY_NUL) {
    throw new UnsupportedContentError(
      label,
      `${label} looks binary (${count === 1 ? "NUL byte" : `${count} NUL bytes, the first`} at offset ${first}), not text`,
    );
  }
  return count;
}

/**
 * Decodes text bytes: UTF-8 (a BOM is dropped) or UTF-16 when it starts with a UTF-16 BOM. A
 * few stray NUL bytes late in a text file are dropped (reported through `warnings`), since
 * Markdown parsers would turn each into U+FFFD.
 * @param label what to call the input in errors (a path or name).
 * @param warnings receives a line when stray NULs were dropped.
 * @throws {UnsupportedContentError} for binary data (a known file signature, a NUL byte in the
 * first 8 KiB or more than one per 4 KiB) and for bytes that are not valid UTF-8, naming the
 * file and the byte offset.
 */
export function decodeText(bytes: Uint8Array, label: string, warnings?: string[]): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder("utf-16le").decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder("utf-16be").decode(bytes);
  for (const [kind, signature] of SIGNATURES) {
    if (startsWith(bytes, signature)) {
      throw new UnsupportedContentError(label, `${label} looks like ${kind}, not text`);
    }
  }
  const strayNuls = checkNuls(bytes, label);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch (error) {
    const at = firstInvalidUtf8(bytes);
    throw new UnsupportedContentError(
      label,
      `${label} is not valid UTF-8 text${at >= 0 ? ` (invalid byte 0x${(bytes[at] ?? 0).toString(16)} at offset ${at})` : ""}`,
      { cause: error },
    );
  }
  if (strayNuls === 0) return text;
  warnings?.push(`${strayNuls} stray NUL byte(s) dropped from the text`);
  return text.replaceAll("\0", "");
}
