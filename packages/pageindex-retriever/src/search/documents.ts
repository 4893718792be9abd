import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import {
  type DocumentInfo,
  DocumentNotFoundError,
  documentInfo,
  getNode,
  type TreeReader,
} from "pageindex-core";
import {
  type CatalogReader,
  isCatalogReader,
  isLibraryReader,
  matchesFilter,
  StoreCorruptionError,
} from "pageindex-store";
import { lexicalDocumentChoice } from "../judge/lexical-judge.js";
import type { DocumentChoiceRequest } from "../judge/types.js";
import { resolveId } from "../judge/verdicts.js";
import type { RankedDocument } from "../types.js";
import type { SearchLedger } from "./ledger.js";
import { planFromLibrary } from "./library-starts.js";
import type { DocumentScope, DocumentScoring, StartPlan } from "./start-plan.js";
import type { WorkItem } from "./work.js";

export type { DocumentScope, DocumentScoring, StartPlan };

/** Section scores counted by {@link documentScore} `"sum"`. */
const SUM_TOP = 5;
/** Weight of the catalog's (card) score beside the sections' in a candidate's rank. */
const CATALOG_WEIGHT = 0.5;
/** Least rank weight of a searched document's sections (see `startAt`). */
const MIN_RANK_PRIOR = 0.25;

function rootItem(docId: string, chain: number): WorkItem {
  return { docId, parent: null, trail: [], priority: 1, chain };
}

/**
 * One score for a document from its sections' scores: `sum` is PageIndex's DocScore,
 * Σ scores / √(N+1) over its best N (≤ 5) matching sections, rewarding a document with several
 * relevant sections over one lucky match without favouring long documents; `best` is the best
 * section alone.
 */
export function documentScore(scores: Iterable<number>, scoring: DocumentScoring): number {
  const positive = [...scores].filter((s) => s > 0).sort((a, b) => b - a);
  if (positive.length === 0) return 0;
  if (scoring === "best") return positive[0] as number;
  const top = positive.slice(0, SUM_TOP);
  return top.reduce((a, b) => a + b, 0) / Math.sqrt(top.length + 1);
}

/**
 * Chooses the documents (and, with a first stage, the subtrees) a query starts from.
 * With a catalog (see `CatalogReader`) no step reads every document: the catalog ranks,
 * the best `candidates` are re-ranked by their sections, and only the chosen ones are searched.
 * @throws {DocumentNotFoundError} when `docIds` names a document the reader does not have.
 */
export async function planStarts(ctx: SearchLedger, scope: DocumentScope): Promise<StartPlan> {
  // Hook: a reader with a library index chooses from section evidence (search/library-starts.ts).
  if (isLibraryReader(ctx.reader)) {
    const plan = await planFromLibrary(ctx, ctx.reader, scope);
    if (plan) return plan;
  }
  if (!scope.docIds && isCatalogReader(ctx.reader)) return planFromCatalog(ctx, ctx.reader, scope);
  let docs = scope.docIds ? await namedDocuments(ctx, scope.docIds) : await ctx.reader.listDocuments();
  if (scope.filter) {
    const filter = scope.filter;
    docs = docs.filter((d) => matchesFilter(d, filter));
  }
  ctx.docIds = docs.map((d) => d.docId);
  ctx.counters.documentsConsidered = docs.length;
  if (docs.length === 0) return { starts: [], chain: 0 };

  if (scope.firstStage) {
    const allowed = new Set(ctx.docIds);
    const plan = await fromFirstStage(ctx, scope, async (id) => allowed.has(id));
    if (plan) return plan;
  }
  let chain = 0;
  if (scope.documentSelection === "llm" && docs.length > 1) {
    // Without a catalog, as before it: the judge sees every document (lexical best node without a model).
    const chosen = await chooseDocuments(ctx, { documents: docs, max: scope.maxDocuments, ranked: false });
    chain = chosen.roundTrips;
    ctx.docIds = chosen.docIds;
  }
  return { starts: ctx.docIds.map((id) => rootItem(id, chain)), chain };
}

/** Whether an error says a stored document cannot be read (corrupt), not that the store failed. */
function isUnreadable(error: unknown): error is StoreCorruptionError {
  return error instanceof StoreCorruptionError;
}

/** Notes a document skipped because it cannot be read. */
function skipUnreadable(ctx: SearchLedger, docId: string, error: StoreCorruptionError): void {
  ctx.warnings.push(`skipped document "${docId}": it cannot be read (${error.message})`);
}

/** Notes a catalog candidate skipped because another process deleted it since the catalog saw it. */
function skipDeleted(ctx: SearchLedger, docId: string): void {
  ctx.warnings.push(`skipped document "${docId}": deleted since the catalog listed it`);
}

/** Reads a document's skeleton: false when it is gone or unreadable (warned), rethrows anything else. */
async function isReadable(ctx: SearchLedger, docId: string): Promise<boolean> {
  try {
    await ctx.skeleton(docId);
    return true;
  } catch (error) {
    if (error instanceof DocumentNotFoundError) {
      skipDeleted(ctx, docId);
      return false;
    }
    if (!isUnreadable(error)) throw error;
    skipUnreadable(ctx, docId, error);
    return false;
  }
}

/**
 * Drops the start points of documents that cannot be read, with a warning in the run record: one
 * corrupt document must not fail a search over the others, and one deleted by another process
 * since the catalog saw it (candidates are not checked against their heads) is no start. Throws
 * when corrupt documents leave none to search.
 */
export async function readableStarts(ctx: SearchLedger, plan: StartPlan): Promise<StartPlan> {
  const bad = new Set<string>();
  let firstError: StoreCorruptionError | undefined;
  const docIds = [...new Set(plan.starts.map((s) => s.docId))];
  // Read at once: a store that merges concurrent reads (PostgreSQL's) opens them all in one
  // round trip a step rather than one a document. Outcomes are then taken in the plan's order.
  const read = await Promise.allSettled(docIds.map((docId) => ctx.skeleton(docId)));
  docIds.forEach((docId, i) => {
    const outcome = read[i] as PromiseSettledResult<unknown>;
    if (outcome.status === "fulfilled") return;
    const error: unknown = outcome.reason;
    if (error instanceof DocumentNotFoundError) {
      bad.add(docId);
      skipDeleted(ctx, docId);
      return;
    }
    if (!isUnreadable(error)) throw error;
    bad.add(docId);
    firstError ??= error;
    skipUnreadable(ctx, docId, error);
  });
  if (bad.size === 0) return plan;
  const starts = plan.starts.filter((s) => !bad.has(s.docId));
  if (starts.length === 0 && firstError) throw firstError;
  ctx.docIds = ctx.docIds.filter((id) => !bad.has(id));
  return { ...plan, starts };
}

/**
 * The judge's choice among documents (ids validated, at most `max`), or the lexical choice when
 * the budget allows no judgment or the judge named none.
 */
async function chooseDocuments(
  ctx: SearchLedger,
  request: DocumentChoiceRequest,
): Promise<{ docIds: string[]; roundTrips: number }> {
  const chosen = await ctx.judge.chooseDocuments(request, ctx);
  if (!chosen) return { docIds: await lexicalDocumentChoice(request, ctx), roundTrips: 0 };
  ctx.noteChain(chosen.roundTrips);
  // A model naming none leaves the choice to the lexical ranking (a lexical judge already made it).
  const lexical = chosen.judge !== "llm";
  const docIds =
    chosen.docIds.length > 0 || lexical ? chosen.docIds : await lexicalDocumentChoice(request, ctx);
  return { docIds, roundTrips: chosen.roundTrips };
}

/** The named documents, read by id (their skeletons), never by listing every document. */
async function namedDocuments(ctx: SearchLedger, docIds: readonly string[]): Promise<DocumentInfo[]> {
  const out: DocumentInfo[] = [];
  for (const id of docIds) {
    try {
      out.push(documentInfo(await ctx.skeleton(id)));
    } catch (error) {
      if (error instanceof DocumentNotFoundError)
        throw new DocumentNotFoundError(id, "the retriever's reader");
      throw error;
    }
  }
  return out;
}

/** A document the catalog proposes for a query. */
interface DocumentCandidate {
  card: DocumentInfo;
  catalogScore: number;
  /** Its section titles matching the query best. */
  evidence: string[];
  /** Distinct query words in the best of them. */
  evidenceWords: number;
}

/**
 * Whether the catalog's best candidate leads clearly, so that no candidate's sections need
 * reading: it scores `margin` times the next, or it also holds the one section title with the
 * most query words (a title naming several of the question's words is what the re-ranking by
 * sections would find; the cards already show it, with no key read).
 */
function leadsClearly(ranked: readonly DocumentCandidate[], margin: number): boolean {
  const [first, second] = ranked;
  if (first === undefined || first.catalogScore <= 0) return false;
  if (!second || first.catalogScore >= margin * second.catalogScore) return true;
  return (
    Number.isFinite(margin) && // `Infinity`: always ask the model
    first.evidenceWords >= 2 &&
    ranked.slice(1).every((other) => other.evidenceWords < first.evidenceWords)
  );
}

async function planFromCatalog(
  ctx: SearchLedger,
  reader: TreeReader & CatalogReader,
  scope: DocumentScope,
): Promise<StartPlan> {
  const filter = scope.filter ? { filter: scope.filter } : {};
  // The count alone (no head read); the documents themselves only for a small library.
  const { total } = await reader.listDocuments({ limit: 0, ...filter });
  if (total === 0) return { starts: [], chain: 0 };
  const few = total <= scope.candidates;
  const page = few ? await reader.listDocuments({ limit: scope.candidates, ...filter }) : undefined;
  if (scope.firstStage) {
    const plan = await fromFirstStage(ctx, scope, async (id) => {
      try {
        await ctx.skeleton(id);
        return !scope.filter || matchesFilter(documentInfo(await ctx.skeleton(id)), scope.filter);
      } catch (error) {
        if (error instanceof DocumentNotFoundError) return false;
        throw error;
      }
    });
    if (plan) return plan;
  }
  // No more documents than would be searched: all of them, as without a catalog.
  if (scope.documentSelection === "all" && page && total <= scope.maxDocuments) {
    ctx.docIds = page.documents.map((d) => d.docId);
    ctx.counters.documentsConsidered = ctx.docIds.length;
    return { starts: ctx.docIds.map((id) => rootItem(id, 0)), chain: 0 };
  }
  // Candidates are not checked against their heads here (that would read one key per candidate,
  // more as a larger library fills them): those ranked or searched are read below anyway, and a
  // deleted one is skipped then.
  const matches = await reader.searchDocuments(ctx.query, {
    limit: scope.candidates,
    verifyPresence: false,
    ...filter,
  });
  const candidates = matches.map((m) => ({
    card: m.card as DocumentInfo,
    catalogScore: m.score,
    evidence: m.evidence.map((e) => e.title),
    evidenceWords: m.evidenceWords,
  }));
  const seen = new Set(candidates.map((c) => c.card.docId));
  // Listed documents fill the candidates when the query matches few cards (or none).
  for (const card of page?.documents ?? []) {
    if (candidates.length >= scope.candidates || (!few && candidates.length > 0)) break;
    if (!seen.has(card.docId)) candidates.push({ card, catalogScore: 0, evidence: [], evidenceWords: 0 });
  }
  ctx.counters.documentsConsidered = candidates.length;
  if (candidates.length === 0) ctx.warnings.push("no document of the library matches the query (catalog)");
  const { ranking, clear } = await rankDocumentCandidates(ctx, candidates, scope);
  // The catalog's clear leader is searched alone; with a model choosing, it still sees the
  // candidates (a lexical leader was the wrong document in 13 of 30 held-out questions).
  const asks = ctx.judge.usesModel && scope.documentSelection === "llm";
  if (clear && !asks) return startAt(ctx, ranking.slice(0, 1), 0, ranking);
  if (scope.documentSelection === "all") {
    // The best, and the next ones only while the choice is not clear (within `margin` of it).
    const top = ranking[0]?.score ?? 0;
    const chosen = ranking
      .filter((r, i) => i === 0 || r.score * scope.margin > top)
      .slice(0, scope.maxDocuments);
    return startAt(ctx, chosen, 0, ranking);
  }
  return choose(ctx, scope, ranking, new Map(candidates.map((c) => [c.card.docId, c.card])));
}

/** Starts the search at the chosen documents, their rank weighting their sections' scores. */
function startAt(
  ctx: SearchLedger,
  chosen: readonly RankedDocument[],
  chain: number,
  ranking: RankedDocument[],
): StartPlan {
  const top = chosen[0]?.score ?? 0;
  ctx.docIds = chosen.map((r) => r.docId);
  ctx.rankDocuments(
    new Map(chosen.map((r) => [r.docId, top > 0 ? Math.max(MIN_RANK_PRIOR, r.score / top) : 1])),
  );
  return { starts: ctx.docIds.map((id) => rootItem(id, chain)), chain, ranking };
}

/**
 * Ranks candidates by the catalog's (card) score; when its best does not lead the next by
 * `margin`, the best `rerank` are re-ranked by their sections too: each one's lexical node scores
 * (its saved index when the reader keeps one, never its texts) aggregated by
 * {@link documentScore}. Reads one skeleton (and saved index) per re-ranked candidate only.
 */
async function rankDocumentCandidates(
  ctx: SearchLedger,
  all: ReadonlyArray<DocumentCandidate>,
  scope: Pick<DocumentScope, "margin" | "rerank" | "scoring">,
): Promise<{ ranking: RankedDocument[]; clear: boolean }> {
  // A leader that cannot be read (corrupt in the store) gives way to the next, with a warning.
  const dropped = new Set<string>();
  for (const c of [...all].sort((a, b) => b.catalogScore - a.catalogScore)) {
    if (!(await isReadable(ctx, c.card.docId))) dropped.add(c.card.docId);
    else break;
  }
  const candidates = all.filter((c) => !dropped.has(c.card.docId));
  const bestCatalog = Math.max(0, ...candidates.map((c) => c.catalogScore));
  const clear = leadsClearly(
    [...candidates].sort((a, b) => b.catalogScore - a.catalogScore),
    scope.margin,
  );
  const reranked = clear ? [] : candidates.slice(0, scope.rerank);
  // Skeletons first: a document deleted since the catalog saw it (another process) or unreadable
  // is no candidate, and must not take part in the lexical scoring shared by the others.
  const readable = await Promise.all(reranked.map((c) => isReadable(ctx, c.card.docId)));
  ctx.docIds = reranked.filter((_, i) => readable[i]).map((c) => c.card.docId);
  const sections = await Promise.all(
    reranked.map(async (c, i) => {
      if (!readable[i]) return -1;
      const scores = await ctx.lexical(await ctx.skeleton(c.card.docId), "rank");
      return documentScore(scores.own.values(), scope.scoring);
    }),
  );
  const bestSection = Math.max(0, ...sections);
  const ranking: RankedDocument[] = [];
  candidates.forEach((c, i) => {
    const sectionScore = i < sections.length ? (sections[i] as number) : 0;
    if (sectionScore < 0) return;
    const score =
      (bestSection > 0 ? sectionScore / bestSection : 0) +
      CATALOG_WEIGHT * (bestCatalog > 0 ? c.catalogScore / bestCatalog : 0);
    ranking.push({
      docId: c.card.docId,
      score,
      catalogScore: c.catalogScore,
      sectionScore,
      evidence: c.evidence,
    });
  });
  // Stable: candidates came in catalog order, which breaks ties.
  ranking.sort((a, b) => b.score - a.score);
  return { ranking, clear };
}

/**
 * `documentSelection: "llm"`: without a model, the best candidate alone when it leads by
 * `margin`; otherwise (and always with a model) the model chooses among the best candidates (their cards: names, descriptions and matching
 * sections), and the ranking stands in when there is no model or its answer is unusable.
 */
async function choose(
  ctx: SearchLedger,
  scope: DocumentScope,
  ranking: RankedDocument[],
  cards: ReadonlyMap<string, DocumentInfo>,
): Promise<StartPlan> {
  const [first, second] = ranking;
  if (!first) return startAt(ctx, [], 0, ranking);
  let docIds: string[];
  let chain = 0;
  // `Infinity` (always ask) never counts as clear, even against a second scoring 0.
  if (
    !second ||
    (!ctx.judge.usesModel && Number.isFinite(scope.margin) && first.score >= scope.margin * second.score)
  ) {
    docIds = [first.docId];
  } else {
    // The judge chooses among the best candidates, shown with the sections that ranked them.
    const offered = ranking.slice(0, scope.candidates).flatMap((r) => {
      const card = cards.get(r.docId);
      return card ? [{ ...card, evidence: r.evidence }] : [];
    });
    const chosen = await chooseDocuments(ctx, { documents: offered, max: scope.maxDocuments, ranked: true });
    chain = chosen.roundTrips;
    docIds = chosen.docIds;
  }
  const byId = new Map(ranking.map((r) => [r.docId, r]));
  return startAt(
    ctx,
    docIds.map((id) => byId.get(id) as RankedDocument),
    chain,
    ranking,
  );
}

/** A first-stage hit's score: its `metadata.score` when numeric, else one by rank. */
function hitScore(metadata: Record<string, unknown> | undefined, rank: number): number {
  const score = metadata?.score;
  return typeof score === "number" && Number.isFinite(score) && score > 0 ? score : 1 / (rank + 1);
}

async function fromFirstStage(
  ctx: SearchLedger,
  scope: DocumentScope,
  allowed: (docId: string) => Promise<boolean>,
): Promise<StartPlan | undefined> {
  const first = scope.firstStage as BaseRetrieverInterface;
  let hits: Awaited<ReturnType<BaseRetrieverInterface["invoke"]>>;
  try {
    hits = await first.invoke(ctx.query, { callbacks: ctx.callbacks("first-stage") });
  } catch (error) {
    ctx.warnings.push(`first stage failed, searching without it: ${(error as Error).message}`);
    return undefined;
  }
  const docOrder: string[] = [];
  const nodeScores = new Map<string, number[]>();
  const known = new Map<string, boolean>();
  const starts: WorkItem[] = [];
  let ignored = 0;
  for (const [rank, hit] of hits.entries()) {
    const docId = hit.metadata?.docId;
    if (typeof docId === "string" && !known.has(docId)) known.set(docId, await allowed(docId));
    if (typeof docId !== "string" || !known.get(docId)) {
      ignored += 1;
      continue;
    }
    if (!docOrder.includes(docId)) docOrder.push(docId);
    nodeScores.set(docId, [...(nodeScores.get(docId) ?? []), hitScore(hit.metadata, rank)]);
    if (scope.firstStageScope === "document") continue;
    const rawNode = hit.metadata?.nodeId;
    const skeleton = await ctx.skeleton(docId);
    const nodeId =
      typeof rawNode === "string"
        ? resolveId(rawNode, new Set(skeleton.nodes.map((n) => n.nodeId)))
        : undefined;
    const node = nodeId === undefined ? undefined : getNode(skeleton, nodeId);
    if (!node) {
      starts.push(rootItem(docId, 0));
      continue;
    }
    // An internal hit is opened; a leaf is judged together with its siblings, which confirms
    // it and lets a better neighbour win.
    const parent =
      node.childIds.length > 0 ? node : node.parentId === null ? null : getNode(skeleton, node.parentId);
    if (parent === undefined) continue;
    const trail = parent
      ? [
          {
            nodeId: parent.nodeId,
            title: parent.title,
            score: 1,
            reason: "first-stage hit",
            judge: "lexical" as const,
          },
        ]
      : [];
    starts.push({ docId, parent, trail, priority: 1 - starts.length * 1e-3, chain: 0, seed: true });
  }
  if (ignored > 0) ctx.warnings.push(`first stage: ignored ${ignored} hit(s) without a known metadata.docId`);
  if (docOrder.length === 0) {
    ctx.warnings.push("first stage returned no usable hits; searching the documents from their roots");
    return undefined;
  }
  ctx.docIds = docOrder;
  if (scope.firstStageScope !== "document") return { starts, chain: 0 };
  // PageIndex's aggregation: DocScore = Σ node scores / √(N+1), so a document with several hits
  // outranks one with a single lucky hit, without rewarding sheer numbers linearly.
  const docScore = (id: string) => {
    const scores = nodeScores.get(id) ?? [];
    return scores.reduce((a, b) => a + b, 0) / Math.sqrt(scores.length + 1);
  };
  ctx.docIds = [...docOrder].sort((a, b) => docScore(b) - docScore(a));
  return { starts: ctx.docIds.map((id) => rootItem(id, 0)), chain: 0 };
}
