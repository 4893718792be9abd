import { PageIndexError, type TreeDocument } from "pageindex-core";
import { DocumentIdConflictError } from "./errors.js";

/** Options of `PageIndexStore.addTrees`. */
export interface AddTreesOptions {
  /** Documents written at the same time, in one wave of byte-store calls (default 8). */
  concurrency?: number;
}

/** Documents written at once by `addTrees` unless told otherwise. */
export const DEFAULT_BATCH_CONCURRENCY = 8;

/** Thrown by `addTrees` when one tree of the batch names the same document as another. */
export class DuplicateBatchDocumentError extends PageIndexError {
  readonly docId: string;
  constructor(docId: string) {
    super(`Document "${docId}" appears twice in one addTrees batch: write its versions one after another`);
    this.name = "DuplicateBatchDocumentError";
    this.docId = docId;
  }
}

/**
 * Refuses a batch that names one document twice, or two ids equal but for letter case (they
 * would race each other, and share files on case-insensitive disks).
 */
export function assertDistinctIds(trees: readonly TreeDocument[]): void {
  const seen = new Map<string, string>();
  for (const tree of trees) {
    const lower = tree.docId.toLowerCase();
    const other = seen.get(lower);
    if (other === tree.docId) throw new DuplicateBatchDocumentError(tree.docId);
    if (other !== undefined) throw new DocumentIdConflictError(tree.docId, other);
    seen.set(lower, tree.docId);
  }
}

/**
 * Runs `work` on every item with at most `concurrency` at once. After the first failure no new
 * item starts; those already started finish. Returns what each finished item produced (in
 * input order, `undefined` where it did not run or failed) and the first error.
 */
export async function runBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<{ results: Array<R | undefined>; error: unknown }> {
  const results: Array<R | undefined> = new Array(items.length).fill(undefined);
  let error: unknown;
  let failed = false;
  let next = 0;
  const worker = async () => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await work(items[i] as T);
      } catch (caught) {
        if (!failed) error = caught;
        failed = true;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return { results, error };
}
