import { randomBytes } from "node:crypto";
import { InvalidIdError } from "../errors.js";
import { assertSafeId } from "../ids.js";

/**
 * Key layout, all within `[A-Za-z0-9_.-]` so every LangChain byte store (LocalFileStore
 * included) accepts it:
 *
 * - `<ns>.head.<docId>`: the document's pointer (current version + list entry). Switching it
 *   is the single atomic step that publishes a new tree; heads live under their own prefix so
 *   listing documents never enumerates text keys.
 * - `<ns>.doc.<docId>.v.<versionId>.skeleton`: the tree without texts, plus the chunk map.
 * - `<ns>.doc.<docId>.v.<versionId>.text.<n>`: node texts, consecutive nodes per chunk.
 *
 * Document ids may contain dots, yet a version key parses back uniquely: reading from the
 * right, the part (`skeleton` or `text.<n>`) and the dot-free version id are fixed, and what
 * remains is the document id.
 */

/** Longest document id the store accepts: keeps file-backed keys under 255-byte file names. */
export const MAX_STORE_DOC_ID_LENGTH = 150;

const NAMESPACE_PATTERN = /^[A-Za-z0-9_-]{1,40}$/;
/** `<time base36, 9 chars>-<random hex, 8 chars>`: sortable by creation time, dot-free. */
const VERSION_PATTERN = /^[0-9a-z]{9}-[0-9a-f]{8}$/;

/** Checks a namespace (key prefix) given by a caller. */
export function assertNamespace(namespace: string): string {
  if (!NAMESPACE_PATTERN.test(namespace)) {
    throw new InvalidIdError(
      `Invalid store namespace "${namespace}": use 1-40 characters from A-Z a-z 0-9 _ - (no dots)`,
    );
  }
  return namespace;
}

/** Checks a document id for use in keys. @throws {InvalidIdError} */
export function assertStoreDocId(docId: string): string {
  assertSafeId(docId);
  if (docId.length > MAX_STORE_DOC_ID_LENGTH) {
    throw new InvalidIdError(
      `Invalid document id "${docId.slice(0, 40)}…": longer than ${MAX_STORE_DOC_ID_LENGTH} characters (toDocId() derives a shorter one)`,
    );
  }
  return docId;
}

/** A fresh version id; ids made later sort later (to the millisecond). */
export function newVersionId(now = Date.now()): string {
  return `${now.toString(36).padStart(9, "0")}-${randomBytes(4).toString("hex")}`;
}

/** When a version was created, in ms since the epoch, or `undefined` for a malformed id. */
export function versionTime(versionId: string): number | undefined {
  if (!VERSION_PATTERN.test(versionId)) return undefined;
  return Number.parseInt(versionId.slice(0, 9), 36);
}

/** True for a well-formed version id. */
export function isVersionId(value: unknown): value is string {
  return typeof value === "string" && VERSION_PATTERN.test(value);
}

/** What a version key refers to. */
export interface ParsedVersionKey {
  docId: string;
  versionId: string;
  /** `"skeleton"` or the text chunk number. */
  part: "skeleton" | number;
}

/** Builds and parses the keys of one namespace. */
export class KeyLayout {
  readonly namespace: string;
  readonly headPrefix: string;
  readonly docPrefix: string;
  private readonly versionKeyPattern: RegExp;

  constructor(namespace: string) {
    this.namespace = assertNamespace(namespace);
    this.headPrefix = `${namespace}.head.`;
    this.docPrefix = `${namespace}.doc.`;
    this.versionKeyPattern = new RegExp(
      `^${namespace}\\.doc\\.(.+)\\.v\\.([0-9a-z]{9}-[0-9a-f]{8})\\.(skeleton|text\\.(0|[1-9][0-9]{0,8}))$`,
    );
  }

  head(docId: string): string {
    return this.headPrefix + docId;
  }

  /** Prefix of every version key of one document (other documents' keys can share it; parse to check). */
  versionsOf(docId: string): string {
    return `${this.docPrefix}${docId}.v.`;
  }

  skeleton(docId: string, versionId: string): string {
    return `${this.versionsOf(docId)}${versionId}.skeleton`;
  }

  text(docId: string, versionId: string, chunk: number): string {
    return `${this.versionsOf(docId)}${versionId}.text.${chunk}`;
  }

  /** Every key of one stored version. */
  versionKeys(docId: string, versionId: string, chunks: number): string[] {
    const keys = [this.skeleton(docId, versionId)];
    for (let i = 0; i < chunks; i += 1) keys.push(this.text(docId, versionId, i));
    return keys;
  }

  /** The document id of a head key, or `undefined` when the key is not a well-formed head key. */
  parseHead(key: string): string | undefined {
    if (!key.startsWith(this.headPrefix)) return undefined;
    const docId = key.slice(this.headPrefix.length);
    try {
      return assertStoreDocId(docId);
    } catch {
      return undefined;
    }
  }

  /** Parses a version key, or `undefined` when the key is not one of ours. */
  parseVersionKey(key: string): ParsedVersionKey | undefined {
    const match = this.versionKeyPattern.exec(key);
    if (!match) return undefined;
    const [, docId, versionId, part, chunk] = match as unknown as [string, string, string, string, string?];
    try {
      assertStoreDocId(docId);
    } catch {
      return undefined;
    }
    return { docId, versionId, part: part === "skeleton" ? "skeleton" : Number(chunk) };
  }
}
