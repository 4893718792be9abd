import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import {
  invokeStructured,
  isContextOverflow,
  ModelCallError,
  pathToRoot,
  type TreeSkeleton,
} from "pageindex-core";
import type { z } from "zod/v4";
import { UnusableJudgmentError } from "../errors.js";
import { fitLibraryPrompt, readLibraryAnswer } from "./library-prompt.js";
import { promptTokens } from "./prompt-tokens.js";
import {
  chooseDocumentsPrompt,
  type ExpertKnowledge,
  judgeChildrenPrompt,
  judgeOutlinePrompt,
  singleShotPrompt,
} from "./prompts.js";
import {
  LibrarySelectionSchema,
  modelReason,
  normaliseScore,
  type Selection,
  SelectionSchema,
} from "./schema.js";
import {
  type DocumentChoice,
  type DocumentChoiceRequest,
  type Judge,
  type JudgeOutcome,
  type JudgeRequest,
  type JudgeRun,
  type LibraryChoice,
  type LibraryChoiceRequest,
  type NodeVerdict,
  type OutlineRequest,
  requestWhere,
  type TableOfContentsRequest,
} from "./types.js";
import { resolveId, verdictsFromSelection } from "./verdicts.js";

/** Options of {@link LlmJudge}. */
export interface LlmJudgeOptions {
  /** The judging chat model (structured output with a zod schema; JSON parsed from text without tool calling). */
  model: BaseChatModel;
  /** Domain knowledge or preferences added to every prompt, e.g. "For EBITDA questions prefer Item 7". */
  expertKnowledge?: string | readonly string[];
}

/** A model's selection and how many sequential calls asking took. */
interface Answer<S extends Selection = Selection> {
  value: S;
  attempts: number;
}

/**
 * The model's judge: one prompt per question (siblings, an outline, a whole table of contents,
 * documents), one structured call, every id it returns validated against the ids offered. An
 * unusable answer throws {@link UnusableJudgmentError} (wrap it in a {@link FallbackJudge} to
 * judge lexically instead); a spent budget returns `undefined` without a call.
 *
 * @example
 * ```ts
 * const judge = new FallbackJudge(new CachedJudge(new LlmJudge({ model }), new LruJudgmentCache()), new LexicalJudge());
 * const retriever = new PageIndexRetriever({ reader: store, model, judge });
 * ```
 */
export class LlmJudge implements Judge {
  readonly usesModel = true;
  readonly model: BaseChatModel;
  readonly expertKnowledge: ExpertKnowledge;

  constructor(options: LlmJudgeOptions) {
    this.model = options.model;
    this.expertKnowledge = options.expertKnowledge;
  }

  /** What makes this judge's answers differ from another's (model and its parameters, expert knowledge): the cache namespace. */
  get namespace(): string {
    return `${modelNamespace(this.model)}|${JSON.stringify(this.expertKnowledge ?? "")}`;
  }

  promptTokens(request: JudgeRequest | OutlineRequest | TableOfContentsRequest, run: JudgeRun): number {
    return promptTokens(this.prompt(request, run));
  }

  /** The prompt of a request. */
  private prompt(
    request: JudgeRequest | OutlineRequest | TableOfContentsRequest,
    run: JudgeRun,
  ): BaseMessage[] {
    if (!("kind" in request)) {
      return judgeChildrenPrompt(
        request.query,
        request.skeleton,
        request.parent,
        request.candidates,
        this.expertKnowledge,
        request.secondLook ?? false,
        request.summaryChars,
      );
    }
    if (request.kind === "outline")
      return judgeOutlinePrompt(run.query, request.view, this.expertKnowledge, request.secondLook);
    return singleShotPrompt(run.query, request.documents, request.k, this.expertKnowledge);
  }

  async judgeSiblings(request: JudgeRequest, run: JudgeRun): Promise<JudgeOutcome | undefined> {
    const messages = this.prompt(request, run);
    return this.judgeOffered(
      run,
      messages,
      request.candidates.map((c) => c.nodeId),
      request.secondLook ? "judge-second-look" : "judge",
      requestWhere(request),
    );
  }

  async judgeOutline(
    request: OutlineRequest | TableOfContentsRequest,
    run: JudgeRun,
  ): Promise<JudgeOutcome | undefined> {
    if (request.kind === "table-of-contents") return this.judgeTableOfContents(request, run);
    const messages = this.prompt(request, run);
    return this.judgeOffered(
      run,
      messages,
      request.offered,
      request.secondLook ? "judge-second-look" : "judge",
      requestWhere(request),
    );
  }

  async chooseDocuments(request: DocumentChoiceRequest, run: JudgeRun): Promise<DocumentChoice | undefined> {
    // Reserved without a token estimate, as the document choice always was.
    if (!run.takeStep()) return undefined;
    const answer = await this.select(
      run,
      chooseDocumentsPrompt(run.query, request.documents, request.max, this.expertKnowledge),
      "choose-documents",
    );
    const offered = new Set(request.documents.map((d) => d.docId));
    const docIds = (answer.value.relevant ?? [])
      .map((item) => String(item.id).trim())
      .filter((id, i, all) => offered.has(id) && all.indexOf(id) === i)
      .slice(0, request.max);
    if (docIds.length === 0) throw new UnusableJudgmentError(undefined, answer.attempts);
    return { docIds, judge: "llm", roundTrips: answer.attempts };
  }

  async chooseInLibrary(request: LibraryChoiceRequest, run: JudgeRun): Promise<LibraryChoice | undefined> {
    const { messages, offered } = fitLibraryPrompt(run.query, request, this.expertKnowledge);
    if (!run.takeStep(promptTokens(messages))) return undefined;
    const answer = await this.select(run, messages, "choose-library", LibrarySelectionSchema);
    const { picks, unknown, search } = readLibraryAnswer(answer.value, offered);
    if (unknown.length > 0)
      run.warn(`library choice: dropped ids not offered (${unknown.slice(0, 5).join(", ")})`);
    // Only ids not offered is an unusable answer; none at all is one ("none of these fits").
    if (picks.length === 0 && unknown.length > 0)
      throw new UnusableJudgmentError("only ids not offered", answer.attempts);
    const sections = offered.reduce((sum, d) => sum + d.sections.length + (d.outline?.length ?? 0), 0);
    return {
      picks,
      judge: "llm",
      roundTrips: answer.attempts,
      offered: sections,
      ...(search ? { search } : {}),
    };
  }

  /** One judgment of an offered id set, within the budget, its ids validated. */
  private async judgeOffered(
    run: JudgeRun,
    messages: BaseMessage[],
    offered: readonly string[],
    step: string,
    where: string,
  ): Promise<JudgeOutcome | undefined> {
    if (!run.takeStep(promptTokens(messages))) return undefined;
    const answer = await this.select(run, messages, step);
    const { verdicts, unknown } = verdictsFromSelection(
      answer.value,
      offered.map((nodeId) => ({ nodeId })),
    );
    if (unknown.length > 0) {
      run.warn(`judge: dropped ids not offered (${unknown.slice(0, 5).join(", ")}) under ${where}`);
    }
    if (unknown.length > 0 && verdicts.every((v) => !v.relevant)) {
      throw new UnusableJudgmentError(
        `judge named only ids that were not offered (${unknown.slice(0, 5).join(", ")})`,
        answer.attempts,
      );
    }
    return { judgment: { verdicts, judge: "llm" }, roundTrips: answer.attempts };
  }

  /** The whole table of contents in one call: the chosen sections, best first, each with its document. */
  private async judgeTableOfContents(
    request: TableOfContentsRequest,
    run: JudgeRun,
  ): Promise<JudgeOutcome | undefined> {
    const docs = request.documents;
    const messages = this.prompt(request, run);
    if (!run.takeStep(promptTokens(messages))) return undefined;
    const answer = await this.select(run, messages, "single-shot");
    const verdicts: NodeVerdict[] = [];
    const unknown: string[] = [];
    const byKey = new Map(docs.map((d) => [d.key, d.skeleton]));
    (answer.value.relevant ?? []).forEach((item, rank) => {
      const id = String(item.id).trim();
      // "2:0003" style ids, an explicit doc key, or a bare id when there is one document.
      const [keyPart, idPart] = id.includes(":") ? (id.split(":", 2) as [string, string]) : [undefined, id];
      const key = item.doc !== undefined ? String(item.doc) : keyPart;
      const skeletons =
        key !== undefined
          ? [byKey.get(key)]
          : docs.length === 1
            ? [docs[0]?.skeleton]
            : docs.map((d) => d.skeleton);
      const matches = skeletons
        .filter((s): s is TreeSkeleton => s !== undefined)
        .map((s) => ({ skeleton: s, nodeId: resolveId(idPart, new Set(s.nodes.map((n) => n.nodeId))) }))
        .filter((m): m is { skeleton: TreeSkeleton; nodeId: string } => m.nodeId !== undefined);
      const match = matches.length === 1 ? matches[0] : undefined;
      if (!match) {
        unknown.push(id);
        return;
      }
      const node = pathToRoot(match.skeleton, match.nodeId).at(-1);
      if (!node) return;
      verdicts.push({
        nodeId: node.nodeId,
        docId: match.skeleton.docId,
        relevant: true,
        score: normaliseScore(item.score, rank),
        reason: modelReason(item.reason, "selected by the model from the table of contents"),
      });
    });
    if (unknown.length > 0)
      run.warn(`single-shot: dropped ids not offered (${unknown.slice(0, 5).join(", ")})`);
    if (verdicts.length === 0 && unknown.length > 0)
      throw new UnusableJudgmentError(undefined, answer.attempts);
    return { judgment: { verdicts, judge: "llm" }, roundTrips: answer.attempts };
  }

  /**
   * Asks the model for a selection; throws {@link UnusableJudgmentError} when its answer could
   * not be used, after noting whether the model answered at all or refused.
   */
  private async select<S extends Selection = Selection>(
    run: JudgeRun,
    messages: BaseMessage[],
    step: string,
    schema: z.ZodType<S> = SelectionSchema as unknown as z.ZodType<S>,
  ): Promise<Answer<S>> {
    const result = await invokeStructured(this.model, {
      schema,
      messages,
      ...run.callOptions(step),
    });
    if (result.ok) {
      run.noteModelAnswer();
      return { value: result.value, attempts: result.attempts };
    }
    if (isContextOverflow(result.error)) {
      // Not a misconfiguration: the caller can try a smaller prompt.
      throw new UnusableJudgmentError(result.error.message, result.attempts, true);
    }
    if (result.error instanceof ModelCallError) run.noteRefusal(result.error);
    else if (result.lastText !== undefined) run.noteModelAnswer(); // answered, only not usably: the model is reachable
    throw new UnusableJudgmentError(result.error.message, result.attempts);
  }
}

/** A model's identity for cache keys: its type and identifying parameters. */
export function modelNamespace(model: BaseChatModel | undefined): string {
  if (!model) return "lexical";
  try {
    return `${model._llmType()}:${JSON.stringify(model._identifyingParams())}`;
  } catch {
    return model._llmType();
  }
}
