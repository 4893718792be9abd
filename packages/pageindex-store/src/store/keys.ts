import { randomBytes } from "node:crypto";
import { assertSafeId, InvalidIdError } from "pageindex-core";

/**
 * Key layout, all within `[A-Za-z0-9_.-]` so every LangChain byte store (LocalFileStore
 * included) accepts it:
 *
 * - `<ns>.head.<docId>`: the document's pointer (current version + list entry). Switching it
 *   is the single atomic step that publishes a new tree; heads live under their own prefix so
 *   listing documents never enumerates text keys.
 * - `<ns>.doc.<docId>.v.<versionId>.skeleton`: the tree without texts, plus the chunk map.
 * - `<ns>.doc.<docId>.v.<versionId>.text.<n>`: node texts, consecutive nodes per chunk.
 * - `<ns>.pending.<docId>.v.<versionId>.<chunks>`: written before a version's keys, removed once
 *   it is published, so a writer that dies leaves a marker naming exactly what to clean up.
 * - `<ns>.retired.<docId>.v.<versionId>.<chunks>.<time>`: a superseded version kept readable for
 *   readers that started on it, deleted once `time` (base 36 ms) is older than the grace period.
 * - `<ns>.claim.<docId>`: a create-if-absent reservation of a document id (see `reserveDocId`).
 * - `<ns>.catalog.seg.<segmentId>`: an immutable segment of the corpus catalog (cards and their
 *   inverted index); `<ns>.catalog.ready` says the catalog covers every document;
 *   `<ns>.catalog.changed` takes a new value after each change of the segments.
 *
 * Document ids may contain dots, yet a version key parses back uniquely: reading from the
 * right, the part (`skeleton` or `text.<n>`) and the dot-free version id are fixed, and what
 * remains is the document id.
 */

/**
 * Longest key this layout writes, so that every file-backed byte store keeps file names within
 * the usual 255-byte limit: LangChain's `LocalFileStore` stores `<key>.txt` and writes it
 * through `<key>.txt.<13-digit ms>-<up to 13 hex>.tmp`, 36 bytes more than the key;
 * {@link FileByteStore}'s temp names add fewer.
 */
export const MAX_STORE_KEY_LENGTH = 255 - 36;

const NAMESPACE_MAX = 40;
const NAMESPACE_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${NAMESPACE_MAX}}$`);
/** `<time base36, 9 chars>-<random hex, 8 chars>`: sortable by creation time, dot-free. */
const VERSION_PATTERN = /^[0-9a-z]{9}-[0-9a-f]{8}$/;
const VERSION_ID_LENGTH = 18;
/** Longest name of a derived artifact (`<ns>.derived.<docId>.<versionId>.<name>`, see `derived.ts`). */
export const MAX_DERIVED_NAME_LENGTH = 24;
/**
 * What the longest key adds to the namespace and document id: a derived artifact's key
 * (`.derived.` `.<version>` `.<name>`) or a text chunk's (`.doc.` `.v.<version>` `.text.<9 digits>`).
 */
const LONGEST_KEY_OVERHEAD = Math.max(
  ".derived.".length + 1 + VERSION_ID_LENGTH + 1 + MAX_DERIVED_NAME_LENGTH,
  ".doc.".length + ".v.".length + VERSION_ID_LENGTH + ".text.".length + 9,
  ".pending.".length + ".v.".length + VERSION_ID_LENGTH + 1 + 9,
  ".retired.".length + ".v.".length + VERSION_ID_LENGTH + 1 + 9 + 1 + 9,
);

/** Longest document id usable under `namespace`: what the longest key leaves for it. */
export function maxDocIdLength(namespace: string): number {
  return MAX_STORE_KEY_LENGTH - LONGEST_KEY_OVERHEAD - namespace.length;
}

/** Longest document id accepted under every namespace (the limit under a 40-character one). */
export const MAX_STORE_DOC_ID_LENGTH = maxDocIdLength("n".repeat(NAMESPACE_MAX));

/** Checks a namespace (key prefix) given by a caller. */
export function assertNamespace(namespace: string): string {
  if (!NAMESPACE_PATTERN.test(namespace)) {
    throw new InvalidIdError(
      `Invalid store namespace "${namespace}": use 1-${NAMESPACE_MAX} characters from A-Z a-z 0-9 _ - (no dots)`,
    );
  }
  return namespace;
}

/** Checks a document id for use in keys under `namespace`. @throws {InvalidIdError} */
export function assertStoreDocId(docId: string, namespace: string): string {
  assertSafeId(docId);
  const max = maxDocIdLength(namespace);
  if (docId.length > max) {
    throw new InvalidIdError(
      `Invalid document id "${docId.slice(0, 40)}…": ${docId.length} characters, more than the ${max} allowed under namespace "${namespace}" (keys must fit 255-byte file names; toDocId() derives a shorter id)`,
    );
  }
  return docId;
}

/** The last version id this process made: its time and random part. */
let last = { time: -1, random: 0 };

/**
 * A fresh version id; ids made later sort later: to the millisecond across processes, strictly
 * within a process (a second id in the same millisecond takes the next random part), so the
 * catalog's latest-entry-wins order follows the order of this process's writes.
 */
export function newVersionId(now = Date.now()): string {
  const random =
    now === last.time && last.random < 0xffffffff ? last.random + 1 : randomBytes(4).readUInt32BE(0) >>> 1;
  last = { time: now, random };
  return `${now.toString(36).padStart(9, "0")}-${random.toString(16).padStart(8, "0")}`;
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

/** What a pending-write marker names: the version being written and its chunk count. */
export interface ParsedPendingKey {
  docId: string;
  versionId: string;
  chunks: number;
}

/** What a retired-version marker names: a superseded version, its chunk count, and when it was superseded. */
export interface ParsedRetiredKey extends ParsedPendingKey {
  /** When the version was superseded (ms since the epoch, the writer's clock). */
  retiredAt: number;
}

/** Builds and parses the keys of one namespace. */
export class KeyLayout {
  /** The first part of every key. */
  readonly namespace: string;
  /** `<ns>.head.`: listing it lists the documents. */
  readonly headPrefix: string;
  /** `<ns>.doc.`: every version key. */
  readonly docPrefix: string;
  /** `<ns>.pending.`: markers of versions being written. */
  readonly pendingPrefix: string;
  /** `<ns>.retired.`: markers of superseded versions kept readable for a grace period. */
  readonly retiredPrefix: string;
  /** `<ns>.claim.`: document id reservations. */
  readonly claimPrefix: string;
  /** `<ns>.catalog.seg.`: the corpus catalog's immutable segments. */
  readonly segmentPrefix: string;
  /** `<ns>.catalog.ready`: written once the catalog covers every document (see `rebuildCatalog`). */
  readonly catalogReady: string;
  /** `<ns>.catalog.changed`: a new value after every change of the catalog's segments (see `StoreCatalog`). */
  readonly catalogChanged: string;
  /**
   * `<ns>.catalog.writing`: the version id of the latest write announced (set with its pending
   * marker). Newer than every catalog segment, it means a write may not have reached the
   * catalog yet, so a loading catalog looks for killed writers' documents (one listing).
   */
  readonly catalogWriting: string;
  private readonly versionKeyPattern: RegExp;
  private readonly pendingKeyPattern: RegExp;
  private readonly retiredKeyPattern: RegExp;

  constructor(namespace: string) {
    this.namespace = assertNamespace(namespace);
    this.headPrefix = `${namespace}.head.`;
    this.docPrefix = `${namespace}.doc.`;
    this.pendingPrefix = `${namespace}.pending.`;
    this.retiredPrefix = `${namespace}.retired.`;
    this.claimPrefix = `${namespace}.claim.`;
    this.segmentPrefix = `${namespace}.catalog.seg.`;
    this.catalogReady = `${namespace}.catalog.ready`;
    this.catalogChanged = `${namespace}.catalog.changed`;
    this.catalogWriting = `${namespace}.catalog.writing`;
    this.pendingKeyPattern = new RegExp(
      `^${namespace}\\.pending\\.(.+)\\.v\\.([0-9a-z]{9}-[0-9a-f]{8})\\.(0|[1-9][0-9]{0,8})$`,
    );
    this.retiredKeyPattern = new RegExp(
      `^${namespace}\\.retired\\.(.+)\\.v\\.([0-9a-z]{9}-[0-9a-f]{8})\\.(0|[1-9][0-9]{0,8})\\.([0-9a-z]{9})$`,
    );
    this.versionKeyPattern = new RegExp(
      `^${namespace}\\.doc\\.(.+)\\.v\\.([0-9a-z]{9}-[0-9a-f]{8})\\.(skeleton|text\\.(0|[1-9][0-9]{0,8}))$`,
    );
  }

  /** Checks a document id for use in this namespace's keys. @throws {InvalidIdError} */
  assertDocId(docId: string): string {
    return assertStoreDocId(docId, this.namespace);
  }

  /** Whether a document id parsed out of a key is one this namespace could have written. */
  private isDocId(docId: string): boolean {
    try {
      this.assertDocId(docId);
      return true;
    } catch {
      return false;
    }
  }

  /** The head key of a document: its published version. */
  head(docId: string): string {
    return this.headPrefix + docId;
  }

  /** Prefix of every version key of one document (other documents' keys can share it; parse to check). */
  versionsOf(docId: string): string {
    return `${this.docPrefix}${docId}.v.`;
  }

  /** The key of a version's skeleton. */
  skeleton(docId: string, versionId: string): string {
    return `${this.versionsOf(docId)}${versionId}.skeleton`;
  }

  /** The key of a version's text chunk `chunk`. */
  text(docId: string, versionId: string, chunk: number): string {
    return `${this.versionsOf(docId)}${versionId}.text.${chunk}`;
  }

  /** The marker announcing a version being written. */
  pending(docId: string, versionId: string, chunks: number): string {
    return `${this.pendingPrefix}${docId}.v.${versionId}.${chunks}`;
  }

  /** The marker of a version superseded at `retiredAt` (ms), kept readable until its grace ends. */
  retired(docId: string, versionId: string, chunks: number, retiredAt: number): string {
    return `${this.retiredPrefix}${docId}.v.${versionId}.${chunks}.${retiredAt.toString(36).padStart(9, "0")}`;
  }

  /** Prefix of the retired-version markers of one document (other documents' can share it; parse to check). */
  retiredOf(docId: string): string {
    return `${this.retiredPrefix}${docId}.v.`;
  }

  /** The reservation key of a document id. */
  claim(docId: string): string {
    return this.claimPrefix + docId;
  }

  /** The key of a catalog segment. */
  segment(segmentId: string): string {
    return this.segmentPrefix + segmentId;
  }

  /** The segment id of a catalog segment key, or `undefined` when the key is not one. */
  parseSegment(key: string): string | undefined {
    if (!key.startsWith(this.segmentPrefix)) return undefined;
    const id = key.slice(this.segmentPrefix.length);
    return isVersionId(id) ? id : undefined;
  }

  /** Parses a pending-write marker's key, or `undefined` when the key is not one of ours. */
  parsePending(key: string): ParsedPendingKey | undefined {
    const match = this.pendingKeyPattern.exec(key);
    if (!match) return undefined;
    const [, docId, versionId, chunks] = match as unknown as [string, string, string, string];
    return this.isDocId(docId) ? { docId, versionId, chunks: Number(chunks) } : undefined;
  }

  /** Parses a retired-version marker's key, or `undefined` when the key is not one of ours. */
  parseRetired(key: string): ParsedRetiredKey | undefined {
    const match = this.retiredKeyPattern.exec(key);
    if (!match) return undefined;
    const [, docId, versionId, chunks, time] = match as unknown as [string, string, string, string, string];
    if (!this.isDocId(docId)) return undefined;
    return { docId, versionId, chunks: Number(chunks), retiredAt: Number.parseInt(time, 36) };
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
    return this.isDocId(docId) ? docId : undefined;
  }

  /** Parses a version key, or `undefined` when the key is not one of ours. */
  parseVersionKey(key: string): ParsedVersionKey | undefined {
    const match = this.versionKeyPattern.exec(key);
    if (!match) return undefined;
    const [, docId, versionId, part, chunk] = match as unknown as [string, string, string, string, string?];
    if (!this.isDocId(docId)) return undefined;
    return { docId, versionId, part: part === "skeleton" ? "skeleton" : Number(chunk) };
  }
}
