import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { DocumentInfo, SkeletonNode, TreeSkeleton, UsageTracker } from "pageindex-core";
import type { LibraryDocumentHit } from "pageindex-store";
import type { LexicalScores } from "../lexical/node-index.js";
import type { LevelEntry } from "../search/groups.js";
import type { OutlineView } from "./prompts.js";

/** Who judged a set of nodes. */
export type JudgeKind = "llm" | "lexical" | "lexical-fallback";

/** The verdict on one candidate node. */
export interface NodeVerdict {
  nodeId: string;
  /** Whether the node (or its subtree) can hold the answer. */
  relevant: boolean;
  /** Confidence in [0, 1]. */
  score: number;
  /** Short justification, shown in the returned Document's metadata. */
  reason: string;
  /** For an internal node: its own text (intro) answers by itself. */
  self?: boolean;
  /** The node's document, when one judgment spans several (a whole table of contents). */
  docId?: string;
}

/** A judgment of one set of sibling candidates. */
export interface Judgment {
  verdicts: NodeVerdict[];
  judge: JudgeKind;
  /** Why the model's answer was not used, for `lexical-fallback`. */
  error?: string;
  /** A library choice's search words (see {@link LibraryChoice}`.search`). */
  search?: string;
}

/** One judging request: which of these candidates (siblings under `parent`) can hold the answer. */
export interface JudgeRequest {
  query: string;
  skeleton: TreeSkeleton;
  /** The node whose children are judged; `null` for the document's roots. */
  parent: SkeletonNode | null;
  candidates: SkeletonNode[];
  /**
   * The parent was judged relevant but, in a first pass, none of these candidates: ask again,
   * saying so (one extra call, only at such dead ends).
   */
  secondLook?: boolean;
  /** Longest summary shown per candidate (set when the prompt was shortened to fit its budget). */
  summaryChars?: number;
}

/**
 * An outline to judge: one opened level of a document shown as deep as its budget allowed. The
 * judge may pick entries at any depth shown; ids are validated against every entry shown.
 */
export interface OutlineRequest {
  kind: "outline";
  view: OutlineView;
  /** Every entry id shown, in display order. */
  offered: readonly string[];
  /** The entries shown (what a judge without a prompt judges). */
  entries: readonly LevelEntry[];
  /** The sections shown (for `visited` and back matter). */
  shown: ReadonlyMap<string, SkeletonNode>;
  secondLook?: boolean;
}

/**
 * The whole table of contents of one or more documents in one judgment (PageIndex's single-shot
 * method): verdicts name the chosen sections only, best first, each with its `docId`.
 */
export interface TableOfContentsRequest {
  kind: "table-of-contents";
  documents: ReadonlyArray<{ key: string; skeleton: TreeSkeleton; toc: string }>;
  /** Most sections to pick. */
  k: number;
  /**
   * A prompt over the model's context window: `fallback` (default) judges with the fallback
   * judge; `caller` rethrows it, so the search can expand instead.
   */
  overflow?: "fallback" | "caller";
}

/** Which documents can answer, from their cards (names, descriptions, matching sections). */
export interface DocumentChoiceRequest {
  documents: ReadonlyArray<DocumentInfo & { evidence?: readonly string[] }>;
  /** Most documents to choose. */
  max: number;
  /** The documents come best first (ranked by the library's catalog). */
  ranked: boolean;
}

/**
 * Where to look in a library, from section evidence: the best candidate documents (from a
 * library index, best first), each with its best-matching sections; the judge picks documents and
 * sections at once, in one prompt of at most `promptTokens`.
 */
export interface LibraryChoiceRequest {
  documents: readonly LibraryDocumentHit[];
  /** Most documents to pick. */
  max: number;
  /** Largest prompt (tokens): sections and documents are dropped from the tail to fit. */
  promptTokens: number;
  /**
   * Whether more candidates follow when nothing here is picked (the search then shows the next
   * ones once, found with the choice's `search` words when it gives some): a prompt may say so,
   * so that a model answers "none" rather than guess.
   */
  more?: boolean;
}

/** One pick of a library choice: a section (a start point) or a whole document (searched from its root). */
export interface LibraryPick {
  docId: string;
  /** The section picked; absent when the document was picked without one. */
  nodeId?: string;
  score: number;
  reason: string;
  /** The picked section's own text (before its subsections) answers: it is a result itself. */
  self?: boolean;
}

/** What a judge picked in a library (ids validated against what was offered), best first. */
export interface LibraryChoice {
  picks: LibraryPick[];
  judge: JudgeKind;
  /** Sequential model calls it took, retries included. */
  roundTrips: number;
  /** Sections offered (for `stats.nodesJudged`). */
  offered: number;
  /**
   * When nothing offered fits: the words the answering section would use (a question in a
   * user's words rarely shares them with the manual); the library is searched again with them
   * for the next candidates. Only letters and digits reach the search.
   */
  search?: string;
}

/** A judgment plus the sequential model calls it took (for round-trip accounting). */
export interface JudgeOutcome {
  judgment: Judgment;
  /** Model calls made one after the other for it, retries included; 0 when cached or lexical. */
  roundTrips: number;
}

/** The documents a judge chose (validated ids, at most `max`; empty when none could be used). */
export interface DocumentChoice {
  docIds: string[];
  judge: JudgeKind;
  /** Sequential model calls it took, retries included. */
  roundTrips: number;
}

/** Options of one structured model call, shared by every judgment of a query. */
export interface ModelCallOptions {
  step: string;
  usage: UsageTracker;
  callbacks: Callbacks | undefined;
  retries: number;
  timeoutMs: number;
  backoffMs: number;
  signal?: AbortSignal;
}

/**
 * What a judge may use of the query it judges for: the question, the budget, the model-call
 * options, the lexical scores, and the run record's counters and warnings.
 */
export interface JudgeRun {
  readonly query: string;
  /**
   * Reserves one model judgment of a prompt of about `promptTokens`; `false` when a budget
   * (`maxSteps`, `maxCalls`, `maxQueryTokens`) is spent — then judge nothing and return `undefined`.
   */
  takeStep(promptTokens?: number): boolean;
  /** Options for a structured model call (usage, callbacks, retries, timeout, signal). */
  callOptions(step: string): ModelCallOptions;
  /** Notes a model answer (usable or not) or a refusal, so a misconfigured model is reported. */
  noteModelAnswer(): void;
  noteRefusal(error: Error): void;
  /** Adds to a counter of the run record. */
  count(counter: "cacheHits" | "fallbacks" | "lexicalJudgments", by?: number): void;
  /** Adds a warning to the run record. */
  warn(message: string): void;
  /** BM25 scores of a document's nodes for the query, and their normaliser (best over the searched documents). */
  lexical(skeleton: TreeSkeleton): Promise<LexicalScores>;
  /** `docId`: the document whose scores are scaled (they may be scaled per document). */
  lexicalNormaliser(docId?: string): Promise<number>;
  /** A document's skeleton (read once per query). */
  skeleton(docId: string): Promise<TreeSkeleton>;
}

/**
 * Answers the three questions a search asks: which of these siblings, which entries of this
 * outline (or of a whole table of contents), which of these documents. Each method returns
 * `undefined` when the query's budget allows no judgment ({@link JudgeRun.takeStep}).
 *
 * A judge with `usesModel` reads prompts like a model: the search then offers introductions,
 * outline views with lookahead, groups of a wide level and second looks at dead ends. A judge
 * without (lexical) scores whatever it is offered and the search expands level by level.
 *
 * @example
 * ```ts
 * // A judge that keeps sections whose title names a word of the question.
 * const titles: Judge = {
 *   usesModel: false,
 *   async judgeSiblings(request, run) {
 *     if (!run.takeStep()) return undefined;
 *     const words = run.query.toLowerCase().split(/\W+/).filter((w) => w.length > 3);
 *     const verdicts = request.candidates.map((c) => {
 *       const relevant = words.some((w) => c.title.toLowerCase().includes(w));
 *       return { nodeId: c.nodeId, relevant, score: relevant ? 1 : 0, reason: "title" };
 *     });
 *     return { judgment: { verdicts, judge: "llm" }, roundTrips: 1 };
 *   },
 *   judgeOutline: (request, run) => new LexicalJudge().judgeOutline(request, run),
 *   chooseDocuments: (request, run) => new LexicalJudge().chooseDocuments(request, run),
 * };
 * const retriever = new PageIndexRetriever({ reader: store, judge: titles });
 * ```
 */
export interface Judge {
  readonly usesModel: boolean;
  /**
   * Tokens of the prompt this judge would send for a request (what `maxPromptTokens` bounds):
   * the search shortens and splits prompts until they fit. A judge that sends no prompt omits it.
   */
  promptTokens?(request: JudgeRequest | OutlineRequest | TableOfContentsRequest, run: JudgeRun): number;
  judgeSiblings(request: JudgeRequest, run: JudgeRun): Promise<JudgeOutcome | undefined>;
  judgeOutline(
    request: OutlineRequest | TableOfContentsRequest,
    run: JudgeRun,
  ): Promise<JudgeOutcome | undefined>;
  chooseDocuments(request: DocumentChoiceRequest, run: JudgeRun): Promise<DocumentChoice | undefined>;
  /**
   * Picks documents and sections of a library at once from section evidence (optional: a judge
   * without it leaves the choice to the library's ranking). Picks name offered ids only; an
   * unusable answer throws `UnusableJudgmentError` (a `FallbackJudge` turns it into no picks).
   */
  chooseInLibrary?(request: LibraryChoiceRequest, run: JudgeRun): Promise<LibraryChoice | undefined>;
}

/** Where a request points, for warnings: `docId/parent` (or group, or `(roots)`). */
export function requestWhere(request: JudgeRequest | OutlineRequest): string {
  if ("kind" in request) {
    const { view } = request;
    return `${view.skeleton.docId}/${view.groupId ?? view.parent?.nodeId ?? "(roots)"}`;
  }
  return `${request.skeleton.docId}/${request.parent ? request.parent.nodeId : "(roots)"}`;
}
