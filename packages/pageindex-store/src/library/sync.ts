import { PageIndexError, type TreeDocument } from "pageindex-core";
import { libraryEntry } from "./entry.js";
import type { LibraryIndex, LibraryIntent } from "./types.js";

/**
 * A store's side of the library index's write protocol (see {@link LibraryIndex}): an intent
 * before the byte-store write, the index change after the head is published. The intent is
 * what makes a crash between the two repairable, so `begin` failing fails the write; a failed
 * index change after a published write is reported, not thrown (the write happened, and the
 * intent left behind leads the next repair to it).
 */
export class LibrarySync {
  constructor(
    readonly index: LibraryIndex,
    private readonly onProblem: (problem: Error) => void,
  ) {}

  /** Records the intent to publish `versionId` of `docId` (`undefined`: to delete it). */
  async begin(docId: string, versionId?: string): Promise<void> {
    await this.index.begin(docId, versionId);
  }

  /** Records the intents of a wave of writes: one call when the index takes them at once. */
  async beginAll(intents: ReadonlyArray<LibraryIntent>): Promise<void> {
    if (intents.length === 0) return;
    if (this.index.beginAll) await this.index.beginAll(intents);
    else for (const { docId, versionId } of intents) await this.index.begin(docId, versionId);
  }

  /** Indexes published versions (one transaction for a batch). */
  async published(versions: ReadonlyArray<{ tree: TreeDocument; versionId: string }>): Promise<void> {
    if (versions.length === 0) return;
    const entries = versions.map(({ tree, versionId }) => libraryEntry(tree, versionId));
    const [only] = entries;
    await this.report(
      () => (entries.length === 1 && only ? this.index.putDocument(only) : this.index.putDocuments(entries)),
      entries.length === 1 && only
        ? `Indexing document "${only.card.docId}" in the library (${this.index.engine})`
        : `Indexing ${entries.length} documents in the library (${this.index.engine})`,
    );
  }

  /** Removes a deleted document from the index. */
  async removed(docId: string): Promise<void> {
    await this.report(
      () => this.index.removeDocument(docId),
      `Removing document "${docId}" from the library (${this.index.engine})`,
    );
  }

  /** Clears the intent of a write that did not happen (the byte-store write failed), that version's only. */
  async abandoned(docId: string, versionId: string): Promise<void> {
    await this.report(
      () => this.index.clear(docId, versionId),
      `Clearing the library intent of document "${docId}" (${this.index.engine})`,
    );
  }

  private async report(change: () => Promise<void>, what: string): Promise<void> {
    try {
      await change();
    } catch (error) {
      this.onProblem(
        new PageIndexError(`${what} failed; the next repair (on reopening for writing) fixes it`, {
          cause: error,
        }),
      );
    }
  }
}
