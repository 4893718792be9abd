import { type JudgmentCache, judgmentKey, normaliseQuery } from "./cache.js";
import type {
  DocumentChoice,
  DocumentChoiceRequest,
  Judge,
  JudgeOutcome,
  JudgeRequest,
  JudgeRun,
  LibraryChoice,
  LibraryChoiceRequest,
  OutlineRequest,
  TableOfContentsRequest,
} from "./types.js";

/** Options of {@link CachedJudge}. */
export interface CachedJudgeOptions {
  /**
   * What makes the inner judge's answers differ from another judge's (e.g. its model); part of
   * every key. Defaults to the inner judge's `namespace` (see `LlmJudge`), else `""`.
   */
  namespace?: string;
}

/**
 * Remembers a judge's model judgments: query × judged node set (× document version) → judgment.
 * A hit costs no step and no call; only model judgments (`judge: "llm"`) are stored, since
 * lexical ones are cheaper to recompute than to keep.
 *
 * @example
 * ```ts
 * const judge = new CachedJudge(new LlmJudge({ model }), new ByteStoreJudgmentCache(new InMemoryStore()));
 * ```
 */
export class CachedJudge implements Judge {
  readonly inner: Judge;
  readonly cache: JudgmentCache;
  readonly namespace: string;

  constructor(inner: Judge, cache: JudgmentCache, options: CachedJudgeOptions = {}) {
    this.inner = inner;
    this.cache = cache;
    this.namespace = options.namespace ?? (inner as { namespace?: string }).namespace ?? "";
  }

  promptTokens(request: JudgeRequest | OutlineRequest | TableOfContentsRequest, run: JudgeRun): number {
    return this.inner.promptTokens?.(request, run) ?? 0;
  }

  get usesModel(): boolean {
    return this.inner.usesModel;
  }

  judgeSiblings(request: JudgeRequest, run: JudgeRun): Promise<JudgeOutcome | undefined> {
    const key = this.key(run, request.skeleton, [
      request.parent?.nodeId ?? "",
      request.candidates.map((c) => c.nodeId),
      // Appended only when set, so first-pass keys stay what they were.
      ...(request.secondLook ? ["second-look"] : []),
    ]);
    return this.cached(key, run, () => this.inner.judgeSiblings(request, run));
  }

  judgeOutline(
    request: OutlineRequest | TableOfContentsRequest,
    run: JudgeRun,
  ): Promise<JudgeOutcome | undefined> {
    const key =
      request.kind === "outline"
        ? this.key(run, request.view.skeleton, [
            "outline",
            request.view.parent?.nodeId ?? "",
            request.view.groupId ?? "",
            request.offered,
            ...(request.secondLook ? ["second-look"] : []),
          ])
        : judgmentKey([
            this.namespace,
            normaliseQuery(run.query),
            "single-shot",
            request.k,
            request.documents.map(
              (d) => `${d.skeleton.docId}@${d.skeleton.contentHash ?? d.skeleton.createdAt}`,
            ),
          ]);
    return this.cached(key, run, () => this.inner.judgeOutline(request, run));
  }

  async chooseDocuments(request: DocumentChoiceRequest, run: JudgeRun): Promise<DocumentChoice | undefined> {
    const key = judgmentKey([
      this.namespace,
      normaliseQuery(run.query),
      "choose-documents",
      request.max,
      request.documents.map((d) => `${d.docId}@${d.contentHash ?? d.createdAt}`),
    ]);
    const outcome = await this.cached(key, run, async () => {
      const choice = await this.inner.chooseDocuments(request, run);
      if (!choice) return undefined;
      const verdicts = choice.docIds.map((nodeId) => ({ nodeId, relevant: true, score: 1, reason: "" }));
      return { judgment: { verdicts, judge: choice.judge }, roundTrips: choice.roundTrips };
    });
    if (!outcome) return undefined;
    return {
      docIds: outcome.judgment.verdicts.map((v) => v.nodeId),
      judge: outcome.judgment.judge,
      roundTrips: outcome.roundTrips,
    };
  }

  async chooseInLibrary(request: LibraryChoiceRequest, run: JudgeRun): Promise<LibraryChoice | undefined> {
    const inner = this.inner;
    if (!inner.chooseInLibrary) return undefined;
    const key = judgmentKey([
      this.namespace,
      normaliseQuery(run.query),
      "choose-library",
      request.max,
      request.promptTokens,
      request.more ? "more" : "last",
      request.documents.map(
        (d) => `${d.docId}@${d.card.versionId}:${d.sections.map((s) => s.nodeId).join(",")}`,
      ),
    ]);
    let offered = 0;
    // Picks are kept as verdicts naming their document (a whole-document pick has no node id).
    const outcome = await this.cached(key, run, async () => {
      const choice = await inner.chooseInLibrary?.(request, run);
      if (!choice) return undefined;
      offered = choice.offered;
      const verdicts = choice.picks.map((p) => ({ ...p, nodeId: p.nodeId ?? "", relevant: true }));
      const search = choice.search ? { search: choice.search } : {};
      return { judgment: { verdicts, judge: choice.judge, ...search }, roundTrips: choice.roundTrips };
    });
    if (!outcome) return undefined;
    const picks = outcome.judgment.verdicts.map((v) => ({
      docId: v.docId ?? "",
      ...(v.nodeId ? { nodeId: v.nodeId } : {}),
      score: v.score,
      reason: v.reason,
      ...(v.self ? { self: true } : {}),
    }));
    const { search } = outcome.judgment;
    return {
      picks,
      judge: outcome.judgment.judge,
      roundTrips: outcome.roundTrips,
      offered,
      ...(typeof search === "string" && search ? { search } : {}),
    };
  }

  private key(
    run: JudgeRun,
    skeleton: { docId: string; contentHash?: string; createdAt: string },
    parts: Array<string | readonly string[]>,
  ): string {
    return judgmentKey([
      this.namespace,
      normaliseQuery(run.query),
      skeleton.docId,
      skeleton.contentHash ?? skeleton.createdAt,
      ...parts,
    ]);
  }

  private async cached(
    key: string,
    run: JudgeRun,
    judge: () => Promise<JudgeOutcome | undefined>,
  ): Promise<JudgeOutcome | undefined> {
    const hit = await this.cache.get(key);
    if (hit) {
      run.count("cacheHits");
      run.noteModelAnswer();
      return { judgment: hit, roundTrips: 0 };
    }
    const outcome = await judge();
    if (outcome?.judgment.judge === "llm") await this.cache.set(key, outcome.judgment);
    return outcome;
  }
}
