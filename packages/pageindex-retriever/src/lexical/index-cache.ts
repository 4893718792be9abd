import type { TreeReader, TreeSkeleton } from "pageindex-core";
import { StoreCorruptionError, StoreReadOnlyError } from "pageindex-store";
import { LexicalIndexDamagedError } from "../errors.js";
import { nodeFields } from "./node-fields.js";
import { type LexicalTextMode, NodeTermIndex, needsText } from "./node-index.js";
import { type PackedNodeFields, packNodeFields } from "./packed-fields.js";
import {
  decodeLegacyNodeFields,
  decodeNodeFields,
  encodeNodeFields,
  LEGACY_LEXICAL_INDEX_ARTIFACT,
  LEXICAL_INDEX_ARTIFACT,
} from "./persisted.js";

/**
 * A reader that can keep values derived from a document's published version (`PageIndexStore`
 * does: `getDerived` / `putDerived`). Lexical indexes built from node texts are saved there.
 */
export interface DerivedArtifactReader {
  /**
   * The artifact `name` saved for the document's published version, or `undefined`; given the
   * skeleton the caller read (`of`), a reader may read that version's without its head again.
   */
  getDerived(docId: string, name: string, of?: TreeSkeleton): Promise<Uint8Array | undefined>;
  /** Saves the artifact for the document's published version; false when the document is gone. */
  putDerived(docId: string, name: string, value: Uint8Array): Promise<boolean>;
}

/** Whether a reader keeps derived artifacts. */
export function keepsDerivedArtifacts(reader: TreeReader): reader is TreeReader & DerivedArtifactReader {
  const r = reader as Partial<DerivedArtifactReader>;
  return typeof r.getDerived === "function" && typeof r.putDerived === "function";
}

/**
 * What a caller needs the index for:
 * - `judge`: lexical judging (the offline judge, a fallback for a failed model answer): worth
 *   reading the document's texts when the text mode asks for them;
 * - `rank`: a cheap ordering inside a branch a model already chose (a dead end): never reads
 *   texts; the text index when it is at hand (memory or saved), the skeleton's fields otherwise.
 */
export type LexicalNeed = "judge" | "rank";

/**
 * The lexical indexes of a retriever's documents. A query must not read every node's text:
 * an index over texts is built once per document version and saved through the reader's derived
 * artifacts (one key), so later queries and fresh processes read that key instead of every text
 * chunk. Kept in memory too (least recently used, `maxEntries`).
 */
export class LexicalIndexes {
  private readonly reader: TreeReader;
  private readonly mode: LexicalTextMode;
  private readonly maxEntries: number;
  private readonly built = new Map<string, Promise<NodeTermIndex>>();
  private readonly saved = new Map<string, Promise<NodeTermIndex | undefined>>();
  /** Why an index was built without some texts (a corrupt chunk), by index key. */
  private readonly partial = new Map<string, string>();
  /**
   * Index keys whose saved copy a query found damaged (see {@link LexicalIndexes.read}): not
   * read again until this handle saves a rebuilt one over it.
   */
  private readonly damaged = new Set<string>();
  /**
   * Set once the reader refused a save as read-only: it will refuse every later one, and
   * encoding an index to be refused cost more than building it (a library query meeting three
   * new documents spent 19 ms of its 99 encoding for a read-only folder).
   */
  private savesRefused = false;

  /**
   * @param reader where skeletons' texts are read, and indexes saved when it keeps derived artifacts.
   * @param mode which text the indexes hold (see {@link LexicalTextMode}).
   * @param maxEntries indexes kept in memory (least recently used go first).
   */
  constructor(reader: TreeReader, mode: LexicalTextMode = "auto", maxEntries = 64) {
    this.reader = reader;
    this.mode = mode;
    this.maxEntries = Math.max(1, maxEntries);
  }

  /** Whether the document's index should hold node texts (see {@link LexicalTextMode}). */
  withText(skeleton: TreeSkeleton): boolean {
    return this.mode === "full" || (this.mode === "auto" && needsText(skeleton));
  }

  /**
   * The index of a document for a need (see {@link LexicalNeed}).
   * @param onTextsRead told how many node texts were read to build it, when this call read them.
   * @param onUnreadable told, on every call, when the index lacks the texts of sections whose
   *   text cannot be read (a corrupt chunk): they are searched by title and summary only.
   */
  async get(
    skeleton: TreeSkeleton,
    need: LexicalNeed = "judge",
    onTextsRead?: (nodes: number) => void,
    onUnreadable?: (message: string) => void,
  ): Promise<NodeTermIndex> {
    const index = await this.getIndex(skeleton, need, onTextsRead);
    const missing = this.partial.get(this.key(skeleton, true));
    if (missing !== undefined && index.withText) onUnreadable?.(missing);
    return index;
  }

  /**
   * Runs `use` on the document's index for a need (see {@link LexicalIndexes.get}). A saved
   * index's postings are checked a block at a time as `use` first decodes them; a damaged block
   * (`LexicalIndexDamagedError`) is met as a damaged index at load is: the saved copy is set
   * aside, the index rebuilt as if none were saved (from the texts for `judge`, and saved over
   * the damaged copy; from the skeleton for `rank`), and `use` runs again on it.
   */
  async read<T>(
    skeleton: TreeSkeleton,
    need: LexicalNeed,
    use: (index: NodeTermIndex) => T | Promise<T>,
    onTextsRead?: (nodes: number) => void,
    onUnreadable?: (message: string) => void,
  ): Promise<T> {
    const index = await this.get(skeleton, need, onTextsRead, onUnreadable);
    try {
      return await use(index);
    } catch (error) {
      if (!(error instanceof LexicalIndexDamagedError)) throw error;
      const key = this.key(skeleton, true);
      this.damaged.add(key);
      // Forgotten unless a concurrent reader already replaced it with a rebuilt one.
      const kept = this.built.get(key);
      if (kept && (await kept.catch(() => undefined)) === index) this.built.delete(key);
      this.saved.delete(key);
      return use(await this.get(skeleton, need, onTextsRead, onUnreadable));
    }
  }

  private key(skeleton: TreeSkeleton, withText: boolean): string {
    return JSON.stringify([skeleton.docId, skeleton.createdAt, skeleton.contentHash ?? "", withText]);
  }

  private async getIndex(
    skeleton: TreeSkeleton,
    need: LexicalNeed,
    onTextsRead?: (nodes: number) => void,
  ): Promise<NodeTermIndex> {
    const key = (withText: boolean) => this.key(skeleton, withText);
    if (!this.withText(skeleton))
      return this.memo(this.built, key(false), async () => new NodeTermIndex(skeleton));
    const textKey = key(true);
    const ready = this.built.get(textKey);
    if (ready) return this.memo(this.built, textKey, () => ready);
    if (need === "rank") {
      const saved = await this.loadSaved(skeleton, textKey);
      return saved ?? this.memo(this.built, key(false), async () => new NodeTermIndex(skeleton));
    }
    return this.memo(this.built, textKey, async () => {
      const saved = await this.loadSaved(skeleton, textKey);
      return saved ?? this.buildFromTexts(skeleton, onTextsRead);
    });
  }

  /**
   * {@link LexicalIndexes.load}, shared by concurrent callers. A miss is not kept: another
   * retriever or process may save the index later, and a kept miss would make this one read
   * every text again instead of that one key.
   */
  private loadSaved(skeleton: TreeSkeleton, key: string): Promise<NodeTermIndex | undefined> {
    if (this.damaged.has(key)) return Promise.resolve(undefined);
    const loading = this.memo(this.saved, key, () => this.load(skeleton));
    void loading.then((index) => {
      if (!index && this.saved.get(key) === loading) this.saved.delete(key);
    });
    return loading;
  }

  /**
   * The saved index of the document's version, if the reader keeps one that fits the skeleton:
   * this release's, or one an earlier release saved (read, and saved again in this format when
   * the store takes writes, so a store indexed before an upgrade is not read text by text).
   */
  private async load(skeleton: TreeSkeleton): Promise<NodeTermIndex | undefined> {
    const reader = this.reader;
    if (!keepsDerivedArtifacts(reader)) return undefined;
    try {
      const bytes = await reader.getDerived(skeleton.docId, LEXICAL_INDEX_ARTIFACT, skeleton);
      const packed = bytes && decodeNodeFields(skeleton, bytes);
      if (packed) return new NodeTermIndex(skeleton, packed);
      const legacy = await reader.getDerived(skeleton.docId, LEGACY_LEXICAL_INDEX_ARTIFACT, skeleton);
      const counted = legacy && decodeLegacyNodeFields(skeleton, legacy);
      if (!counted) return undefined;
      const upgraded = packNodeFields(counted);
      await this.save(reader, skeleton, upgraded);
      return new NodeTermIndex(skeleton, upgraded);
    } catch {
      return undefined; // An unreadable saved index is rebuilt.
    }
  }

  /** Saves an index for the next process; an optimisation: a refusal only costs a rebuild then. */
  private async save(
    reader: DerivedArtifactReader,
    skeleton: TreeSkeleton,
    packed: PackedNodeFields,
  ): Promise<void> {
    if (this.savesRefused) return;
    try {
      await reader.putDerived(skeleton.docId, LEXICAL_INDEX_ARTIFACT, encodeNodeFields(skeleton, packed));
      this.damaged.delete(this.key(skeleton, true));
    } catch (error) {
      if (error instanceof StoreReadOnlyError) this.savesRefused = true;
    }
  }

  /** Reads every node's text once, builds the index and saves it for the next process. */
  private async buildFromTexts(
    skeleton: TreeSkeleton,
    onTextsRead?: (nodes: number) => void,
  ): Promise<NodeTermIndex> {
    const unreadable: string[] = [];
    let problem: StoreCorruptionError | undefined;
    const texts = await this.readTexts(
      skeleton.docId,
      skeleton.nodes.map((n) => n.nodeId),
      (nodeId, error) => {
        unreadable.push(nodeId);
        problem ??= error;
      },
    );
    onTextsRead?.(skeleton.nodes.length);
    const packed = packNodeFields({ withText: true, fields: nodeFields(skeleton, texts) });
    if (problem) {
      // Not saved: once the document is replaced, its next index holds every text.
      const shown = unreadable.slice(0, 5).join(", ") + (unreadable.length > 5 ? ", …" : "");
      this.partial.set(
        this.key(skeleton, true),
        `the text of ${unreadable.length} section(s) of "${skeleton.docId}" (${shown}) cannot be read, so they are searched by title and summary only and left out of results (${problem.message})`,
      );
      return new NodeTermIndex(skeleton, packed);
    }
    if (keepsDerivedArtifacts(this.reader)) await this.save(this.reader, skeleton, packed);
    return new NodeTermIndex(skeleton, packed);
  }

  /**
   * Texts of `nodeIds`; when a chunk is corrupt, the readable ones, halving the request until
   * each unreadable section is found (a few reads per bad chunk), each reported to `onUnreadable`.
   */
  private async readTexts(
    docId: string,
    nodeIds: readonly string[],
    onUnreadable: (nodeId: string, error: StoreCorruptionError) => void,
  ): Promise<Map<string, string>> {
    try {
      return await this.reader.getNodeTexts(docId, nodeIds);
    } catch (error) {
      if (!(error instanceof StoreCorruptionError)) throw error;
      if (nodeIds.length === 1) {
        onUnreadable(nodeIds[0] as string, error);
        return new Map();
      }
      const half = Math.ceil(nodeIds.length / 2);
      const first = await this.readTexts(docId, nodeIds.slice(0, half), onUnreadable);
      const second = await this.readTexts(docId, nodeIds.slice(half), onUnreadable);
      return new Map([...first, ...second]);
    }
  }

  private memo<T>(map: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
    let value = map.get(key);
    if (value) map.delete(key);
    else {
      value = make();
      value.catch(() => map.delete(key));
    }
    map.set(key, value);
    while (map.size > this.maxEntries) {
      const oldest = map.keys().next().value;
      if (oldest === undefined) break;
      map.delete(oldest);
    }
    return value;
  }
}
