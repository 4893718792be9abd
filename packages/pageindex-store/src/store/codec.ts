import { createHash } from "node:crypto";
import {
  checkTreeStructure,
  type DocumentInfo,
  parseTree,
  type SkeletonNode,
  TREE_KINDS,
  TREE_SCHEMA_VERSION,
  type TreeIssue,
  type TreeNode,
  type TreeSkeleton,
  TreeValidationError,
} from "pageindex-core";
import { z } from "zod/v4";
import { StoreCorruptionError, StoreVersionError } from "./errors.js";
import { isVersionId } from "./keys.js";

/**
 * Version of the store's value format (envelopes, chunking, key layout). Independent of the
 * tree schema version, which versions the tree itself.
 */
export const STORE_FORMAT_VERSION = 1 as const;

const FORMAT = {
  head: "pageindex-store/head",
  skeleton: "pageindex-store/skeleton",
  texts: "pageindex-store/texts",
  pending: "pageindex-store/pending",
} as const;
type ValueKind = keyof typeof FORMAT;

/** The pointer that publishes one version of a document, plus its list entry. */
export interface HeadRecord {
  docId: string;
  versionId: string;
  /** Number of text chunks of the version. */
  chunks: number;
  info: DocumentInfo;
  /** ISO-8601 time the version was published. */
  writtenAt: string;
  /** SHA-256 (hex) of the stored skeleton value. */
  skeletonSha256: string;
}

/** A stored skeleton and where each node's text lives. */
export interface SkeletonRecord {
  docId: string;
  versionId: string;
  /** Index (in `skeleton.nodes`) of the first node of each text chunk. */
  chunkStarts: number[];
  /** SHA-256 (hex) of each stored text chunk value. */
  chunkSha256: string[];
  skeleton: TreeSkeleton;
}

/**
 * How much a reader checks a skeleton of this store format and tree schema version (values of
 * any other version are refused with `StoreVersionError`; a later release that upgrades older
 * ones in memory validates those with `"full"` whatever is asked). Both modes check the
 * envelope, the SHA-256 recorded in the head, the chunk map, and the structure navigation relies
 * on (`checkTreeStructure`: the types of the fields it reads, unique ids, links, levels,
 * pre-order, ranges), so a damaged value fails with `StoreCorruptionError` naming its key,
 * never midway through a search.
 * - `"checksum"` (default): trusts the writer's schema validation of every other field, vouched
 *   for by the checksum (the writer validated the tree with `parseTree` before writing it).
 * - `"full"`: also the model's complete schema validation (`parseTree`), field by field.
 */
export type VerifyMode = "full" | "checksum";

/** The texts of consecutive nodes `first … first + texts.length - 1`. */
export interface TextChunkRecord {
  docId: string;
  versionId: string;
  chunk: number;
  first: number;
  texts: string[];
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function encode(kind: ValueKind, body: object): Uint8Array {
  return encoder.encode(
    JSON.stringify({ format: FORMAT[kind], storeVersion: STORE_FORMAT_VERSION, ...body }),
  );
}

/** Bytes → checked envelope object; every failure names the key and document. */
function readEnvelope(
  bytes: Uint8Array,
  kind: ValueKind,
  key: string,
  docId: string | undefined,
): Record<string, unknown> {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch (error) {
    throw new StoreCorruptionError(key, "value is not valid UTF-8", docId, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoreCorruptionError(
      key,
      `value is not valid JSON (truncated, or not written by pageindex-store): ${(error as Error).message}`,
      docId,
      { cause: error },
    );
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new StoreCorruptionError(key, "value is not a JSON object", docId);
  }
  const record = value as Record<string, unknown>;
  if (record.format !== FORMAT[kind]) {
    throw new StoreCorruptionError(
      key,
      `value is not a pageindex-store ${kind} (format tag ${JSON.stringify(record.format ?? null)}, expected "${FORMAT[kind]}")`,
      docId,
    );
  }
  // The place to upgrade older formats in memory, once there are any: none exist before 1.
  if (record.storeVersion !== STORE_FORMAT_VERSION) {
    throw new StoreVersionError(key, record.storeVersion, STORE_FORMAT_VERSION, "store format", docId);
  }
  return record;
}

function checkShape<T>(schema: z.ZodType<T>, value: unknown, key: string, docId: string | undefined): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
      .join("; ");
    throw new StoreCorruptionError(key, `malformed value: ${first}`, docId);
  }
  return parsed.data;
}

function expectSame(key: string, docId: string, field: string, found: unknown, expected: unknown): void {
  if (found !== expected) {
    throw new StoreCorruptionError(
      key,
      `value belongs elsewhere: ${field} is ${JSON.stringify(found)}, expected ${JSON.stringify(expected)}`,
      docId,
    );
  }
}

const count = z.number().int().nonnegative();
const versionId = z.string().refine(isVersionId, "not a version id");
const sha = z.string().regex(/^[0-9a-f]{64}$/, "not a SHA-256 hex digest");

/** SHA-256 of a stored value, hex. */
export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function checkDigest(bytes: Uint8Array, expected: string, key: string, docId: string, holder: string): void {
  if (sha256(bytes) !== expected) {
    throw new StoreCorruptionError(
      key,
      `content does not match the checksum recorded in the ${holder} (changed or damaged after it was written)`,
      docId,
    );
  }
}

const DocumentInfoSchema: z.ZodType<DocumentInfo> = z.object({
  docId: z.string(),
  docName: z.string(),
  kind: z.enum(TREE_KINDS),
  description: z.string().optional(),
  source: z.string().optional(),
  pageCount: count.optional(),
  lineCount: count.optional(),
  nodeCount: count,
  createdAt: z.string(),
  contentHash: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

const HeadSchema = z.object({
  docId: z.string(),
  versionId,
  chunks: count,
  info: DocumentInfoSchema,
  writtenAt: z.string(),
  skeletonSha256: sha,
});

const SkeletonEnvelopeSchema = z.object({
  docId: z.string(),
  versionId,
  chunkStarts: z.array(count),
  chunkSha256: z.array(sha),
  tree: z
    .object({
      schemaVersion: z.unknown(),
      docId: z.unknown(),
      // Nodes are checked by parseTree ("full") or vouched for by the checksum.
      nodes: z.array(z.unknown()),
    })
    .loose(),
});

const TextsSchema = z.object({
  docId: z.string(),
  versionId,
  chunk: count,
  first: count,
  texts: z.array(z.string()),
});

/** The value of a pending-write marker: for people looking at the store (its key says it all). */
export function encodePending(marker: { docId: string; versionId: string; chunks: number }): Uint8Array {
  return encode("pending", { ...marker, startedAt: new Date().toISOString() });
}

export function encodeHead(head: HeadRecord): Uint8Array {
  return encode("head", head);
}

/**
 * The document id a head value names, without the checks of {@link decodeHead}: a store on a
 * case-insensitive disk can return another document's head for our key. `undefined` when the
 * value is not a readable head.
 */
export function peekHeadDocId(bytes: Uint8Array): string | undefined {
  try {
    const value = JSON.parse(decoder.decode(bytes)) as { format?: unknown; docId?: unknown } | null;
    return value?.format === FORMAT.head && typeof value.docId === "string" ? value.docId : undefined;
  } catch {
    return undefined;
  }
}

/** Decodes the head stored under `key` for `docId`. */
export function decodeHead(bytes: Uint8Array, key: string, docId: string): HeadRecord {
  const body = checkShape(HeadSchema, readEnvelope(bytes, "head", key, docId), key, docId);
  expectSame(key, docId, "docId", body.docId, docId);
  expectSame(key, docId, "info.docId", body.info.docId, docId);
  return body;
}

export function encodeSkeleton(record: SkeletonRecord): Uint8Array {
  return encode("skeleton", {
    docId: record.docId,
    versionId: record.versionId,
    chunkStarts: record.chunkStarts,
    chunkSha256: record.chunkSha256,
    tree: record.skeleton,
  });
}

/**
 * Decodes a stored skeleton, checks it against the head's checksum and chunk count, and
 * (mode `"full"`) validates the tree completely with the model's `parseTree`.
 */
export function decodeSkeleton(
  bytes: Uint8Array,
  key: string,
  expected: { docId: string; versionId: string; chunks: number; skeletonSha256: string },
  mode: VerifyMode = "checksum",
): SkeletonRecord {
  const { docId } = expected;
  const body = checkShape(SkeletonEnvelopeSchema, readEnvelope(bytes, "skeleton", key, docId), key, docId);
  expectSame(key, docId, "docId", body.docId, docId);
  expectSame(key, docId, "versionId", body.versionId, expected.versionId);
  if (body.tree.schemaVersion !== TREE_SCHEMA_VERSION) {
    throw new StoreVersionError(key, body.tree.schemaVersion, TREE_SCHEMA_VERSION, "tree schema", docId);
  }
  checkDigest(bytes, expected.skeletonSha256, key, docId, "head");
  const skeleton =
    mode === "full" ? validatedSkeleton(body.tree, key, docId) : checkedSkeleton(body.tree, key, docId);
  expectSame(key, docId, "tree.docId", skeleton.docId, docId);
  checkChunkStarts(body.chunkStarts, skeleton.nodes.length, expected.chunks, key, docId);
  if (body.chunkSha256.length !== expected.chunks) {
    throw new StoreCorruptionError(key, "bad chunk map: checksum count differs from chunk count", docId);
  }
  return {
    docId,
    versionId: body.versionId,
    chunkStarts: body.chunkStarts,
    chunkSha256: body.chunkSha256,
    skeleton,
  };
}

/** A tree's validation problems as the store reports them: the first few, on the key. */
function invalidTree(issues: readonly TreeIssue[], key: string, docId: string, cause?: unknown) {
  const shown = issues
    .slice(0, 3)
    .map((issue) => `${issue.path}: ${issue.message}`)
    .join("; ");
  return new StoreCorruptionError(key, `invalid tree: ${shown}`, docId, cause ? { cause } : undefined);
}

/** `"full"`: the model validates full trees; a skeleton is one whose texts are all empty. */
function validatedSkeleton(tree: { nodes: unknown[] }, key: string, docId: string): TreeSkeleton {
  let parsed: ReturnType<typeof parseTree>;
  try {
    parsed = parseTree({ ...tree, nodes: tree.nodes.map((node) => ({ ...(node as object), text: "" })) });
  } catch (error) {
    if (!(error instanceof TreeValidationError)) throw error;
    throw invalidTree(error.issues, key, docId, error);
  }
  const nodes: SkeletonNode[] = parsed.nodes.map(({ text: _text, ...rest }) => rest);
  return { ...parsed, nodes };
}

/**
 * `"checksum"`: the bytes are the ones a writer produced after validating the tree (the
 * checksum proves it); what navigation relies on is checked again, cheaply, in case they were
 * damaged before the checksum was taken or written by something else.
 */
function checkedSkeleton(tree: { nodes: unknown[] }, key: string, docId: string): TreeSkeleton {
  const issues = checkTreeStructure(tree);
  if (issues.length > 0) throw invalidTree(issues, key, docId);
  return tree as unknown as TreeSkeleton;
}

function checkChunkStarts(starts: number[], nodeCount: number, chunks: number, key: string, docId: string) {
  const fail = (reason: string) => new StoreCorruptionError(key, `bad chunk map: ${reason}`, docId);
  if (starts.length !== chunks) throw fail(`${starts.length} chunks listed, the head says ${chunks}`);
  if (nodeCount > 0 && starts[0] !== 0) throw fail("first chunk does not start at node 0");
  if (nodeCount === 0 && chunks !== 0) throw fail("chunks listed for a tree without nodes");
  for (let i = 1; i < starts.length; i += 1) {
    if ((starts[i] as number) <= (starts[i - 1] as number))
      throw fail(`chunk ${i} does not start after chunk ${i - 1}`);
  }
  if (starts.length > 0 && (starts[starts.length - 1] as number) >= nodeCount) {
    throw fail("last chunk starts past the last node");
  }
}

export function encodeTexts(record: TextChunkRecord): Uint8Array {
  return encode("texts", record);
}

/** Decodes one text chunk and checks it is the chunk expected, with the expected node count. */
export function decodeTexts(
  bytes: Uint8Array,
  key: string,
  expected: { docId: string; versionId: string; chunk: number; first: number; count: number; sha256: string },
): TextChunkRecord {
  const { docId } = expected;
  const body = checkShape(TextsSchema, readEnvelope(bytes, "texts", key, docId), key, docId);
  checkDigest(bytes, expected.sha256, key, docId, "skeleton");
  expectSame(key, docId, "docId", body.docId, docId);
  expectSame(key, docId, "versionId", body.versionId, expected.versionId);
  expectSame(key, docId, "chunk", body.chunk, expected.chunk);
  expectSame(key, docId, "first", body.first, expected.first);
  expectSame(key, docId, "number of texts", body.texts.length, expected.count);
  return body;
}

/**
 * Splits the nodes' texts into chunks of consecutive nodes of about `chunkChars` characters
 * (a longer text gets a chunk of its own). Pre-order keeps a section's children together, so
 * the few nodes a query opens usually share a chunk or two.
 */
export function splitTexts(
  nodes: readonly TreeNode[],
  chunkChars: number,
): { chunkStarts: number[]; chunks: string[][] } {
  const chunkStarts: number[] = [];
  const chunks: string[][] = [];
  let size = Number.POSITIVE_INFINITY;
  nodes.forEach((node, i) => {
    if (size + node.text.length > chunkChars && size > 0) {
      chunkStarts.push(i);
      chunks.push([]);
      size = 0;
    }
    (chunks[chunks.length - 1] as string[]).push(node.text);
    size += node.text.length;
  });
  return { chunkStarts, chunks };
}
