import type { TreeReader, TreeSkeleton } from "pageindex-core";
import { type LexicalTextMode, NodeTermIndex, needsText, nodeFields } from "./node-index.js";
import { decodeNodeFields, encodeNodeFields, LEXICAL_INDEX_ARTIFACT } from "./persisted.js";

/**
 * A reader that can keep values derived from a document's published version (`PageIndexStore`
 * does: `getDerived` / `putDerived`). Lexical indexes built from node texts are saved there.
 */
export interface DerivedArtifactReader {
  /** The artifact `name` saved for the document's published version, or `undefined`. */
  getDerived(docId: string, name: string): Promise<Uint8Array | undefined>;
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
   */
  async get(
    skeleton: TreeSkeleton,
    need: LexicalNeed = "judge",
    onTextsRead?: (nodes: number) => void,
  ): Promise<NodeTermIndex> {
    const key = (withText: boolean) =>
      JSON.stringify([skeleton.docId, skeleton.createdAt, skeleton.contentHash ?? "", withText]);
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
    const loading = this.memo(this.saved, key, () => this.load(skeleton));
    void loading.then((index) => {
      if (!index && this.saved.get(key) === loading) this.saved.delete(key);
    });
    return loading;
  }

  /** The saved index of the document's version, if the reader keeps one that fits the skeleton. */
  private async load(skeleton: TreeSkeleton): Promise<NodeTermIndex | undefined> {
    if (!keepsDerivedArtifacts(this.reader)) return undefined;
    try {
      const bytes = await this.reader.getDerived(skeleton.docId, LEXICAL_INDEX_ARTIFACT);
      const counted = bytes && decodeNodeFields(skeleton, bytes);
      return counted ? new NodeTermIndex(skeleton, counted) : undefined;
    } catch {
      return undefined; // An unreadable saved index is rebuilt.
    }
  }

  /** Reads every node's text once, builds the index and saves it for the next process. */
  private async buildFromTexts(
    skeleton: TreeSkeleton,
    onTextsRead?: (nodes: number) => void,
  ): Promise<NodeTermIndex> {
    const texts = await this.reader.getNodeTexts(
      skeleton.docId,
      skeleton.nodes.map((n) => n.nodeId),
    );
    onTextsRead?.(skeleton.nodes.length);
    const counted = { withText: true, fields: nodeFields(skeleton, texts) };
    if (keepsDerivedArtifacts(this.reader)) {
      try {
        await this.reader.putDerived(
          skeleton.docId,
          LEXICAL_INDEX_ARTIFACT,
          encodeNodeFields(skeleton, counted),
        );
      } catch {
        // Saving is an optimisation: a store that refuses it only costs a rebuild next time.
      }
    }
    return new NodeTermIndex(skeleton, counted);
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
