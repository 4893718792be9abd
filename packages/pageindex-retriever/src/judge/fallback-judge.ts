import { UnusableJudgmentError } from "../errors.js";
import {
  type DocumentChoice,
  type DocumentChoiceRequest,
  type Judge,
  type JudgeOutcome,
  type JudgeRequest,
  type JudgeRun,
  type LibraryChoice,
  type LibraryChoiceRequest,
  type OutlineRequest,
  requestWhere,
  type TableOfContentsRequest,
} from "./types.js";

/**
 * A judge that falls back to another when the first one's answer cannot be used (it throws
 * {@link UnusableJudgmentError}): the fallback's judgment is labelled `lexical-fallback`, counted
 * in `stats.fallbacks` and explained in the run's warnings. The default with a model is the
 * model's judge falling back to the {@link LexicalJudge}.
 *
 * @example
 * ```ts
 * const judge = new FallbackJudge(new LlmJudge({ model }), new LexicalJudge());
 * ```
 */
export class FallbackJudge implements Judge {
  readonly primary: Judge;
  readonly fallback: Judge;

  constructor(primary: Judge, fallback: Judge) {
    this.primary = primary;
    this.fallback = fallback;
  }

  promptTokens(request: JudgeRequest | OutlineRequest | TableOfContentsRequest, run: JudgeRun): number {
    return this.primary.promptTokens?.(request, run) ?? 0;
  }

  get usesModel(): boolean {
    return this.primary.usesModel;
  }

  async judgeSiblings(request: JudgeRequest, run: JudgeRun): Promise<JudgeOutcome | undefined> {
    try {
      return await this.primary.judgeSiblings(request, run);
    } catch (error) {
      const failed = unusable(error);
      run.count("fallbacks");
      run.warn(
        `judge failed under ${requestWhere(request)}, judged lexically: ${failed.reason ?? "unknown error"}`,
      );
      return relabel(await this.fallback.judgeSiblings(request, run), failed);
    }
  }

  async judgeOutline(
    request: OutlineRequest | TableOfContentsRequest,
    run: JudgeRun,
  ): Promise<JudgeOutcome | undefined> {
    try {
      return await this.primary.judgeOutline(request, run);
    } catch (error) {
      const failed = unusable(error);
      if (request.kind === "table-of-contents") {
        if (failed.overflow && request.overflow === "caller") throw failed;
        run.count("fallbacks");
        run.warn(`single-shot answer unusable, ranked lexically: ${failed.reason ?? "only unknown ids"}`);
      } else {
        run.count("fallbacks");
        run.warn(
          `judge failed under ${requestWhere(request)}, judged lexically: ${failed.reason ?? "unknown error"}`,
        );
      }
      return relabel(await this.fallback.judgeOutline(request, run), failed);
    }
  }

  async chooseDocuments(request: DocumentChoiceRequest, run: JudgeRun): Promise<DocumentChoice | undefined> {
    try {
      return await this.primary.chooseDocuments(request, run);
    } catch (error) {
      const failed = unusable(error);
      run.count("fallbacks");
      run.warn(`document choice unusable (${failed.reason ?? "no offered document named"}); chose lexically`);
      const choice = await this.fallback.chooseDocuments(request, run);
      return choice && { ...choice, judge: "lexical-fallback", roundTrips: failed.attempts };
    }
  }

  chooseInLibrary(request: LibraryChoiceRequest, run: JudgeRun): Promise<LibraryChoice | undefined> {
    return fallbackLibraryChoice(this.primary, request, run);
  }
}

/**
 * The primary's library choice; an unusable answer is counted and warned, and answered with no
 * picks (the round trips it took kept), so the search chooses from the library's ranking.
 */
export async function fallbackLibraryChoice(
  primary: Judge,
  request: LibraryChoiceRequest,
  run: JudgeRun,
): Promise<LibraryChoice | undefined> {
  if (!primary.chooseInLibrary) return undefined;
  try {
    return await primary.chooseInLibrary(request, run);
  } catch (error) {
    const failed = unusable(error);
    run.count("fallbacks");
    run.warn(`library choice unusable (${failed.reason ?? "no offered id named"}); chose lexically`);
    return { picks: [], judge: "lexical-fallback", roundTrips: failed.attempts, offered: 0 };
  }
}

/** The error as an unusable answer; anything else (a bug, a cancelled query) is rethrown. */
function unusable(error: unknown): UnusableJudgmentError {
  if (error instanceof UnusableJudgmentError) return error;
  throw error;
}

/** The fallback's judgment, marked as a fallback with the primary's error and round trips. */
function relabel(outcome: JudgeOutcome | undefined, failed: UnusableJudgmentError): JudgeOutcome | undefined {
  if (!outcome) return undefined;
  outcome.judgment.judge = "lexical-fallback";
  if (failed.reason !== undefined) outcome.judgment.error = failed.reason;
  return { judgment: outcome.judgment, roundTrips: failed.attempts };
}
