/**
 * Document choice from section evidence (a reader with a library index, see `LibraryReader`):
 * the candidates are the documents of the best-matching sections across the library, and the
 * search starts at those sections as well as at the documents' roots. With a model, its first
 * prompt offers the best candidates with their matching sections in context and it picks
 * documents and sections at once; no lexical shortcut skips it.
 */
import { getNode, pathToRoot, type TreeReader, tokenizeQuery } from "pageindex-core";
import { isCatalogReader, type LibraryDocumentHit, type LibraryReader } from "pageindex-store";
import { LIBRARY_PAGE_DOCUMENTS, SURE_SCORE } from "../judge/library-prompt.js";
import type { LibraryPick } from "../judge/types.js";
import type { Candidate, RankedDocument, TrailStep } from "../types.js";
import { rankCandidates } from "./collect.js";
import type { SearchLedger } from "./ledger.js";
import { lexicalTopCandidates } from "./stand-ins.js";
import type { DocumentScope, StartPlan } from "./start-plan.js";
import type { WorkItem } from "./work.js";

/** Best-matching sections asked per candidate document (the prompt shows as many as fit). */
export const SECTIONS_PER_DOCUMENT = 12;
/**
 * Share of `maxPromptTokens` the library prompt may fill: it should cost about a document's
 * first prompt. Measured with the oracle judge on the Debian library dev set (36 questions, with
 * the library prompt's 7 documents): 0.35 → 2,305 prompt tokens and 1.14 round trips a question
 * (document named: 2,591 and 1.00); 0.25 → 2,219 and 1.31; 0.5 → 3,129 and 1.11.
 */
const PROMPT_SHARE = 0.35;
/** A library match counts for the sections above it, less at each level up. */
export const ANCESTOR_DECAY = 0.8;
/**
 * How much more sure of a wider pick than of the picks inside it the model must be for the wider
 * one to be opened too (scores a model leaves out are made up from the rank, 0.05 apart).
 */
const WIDER_MARGIN = 0.1;
/**
 * Weight of a searched document's coverage of the query's words (see {@link documentCoverage},
 * scaled to the best searched document's) beside its library score (scaled to the best, 1).
 * Measured on the Debian library dev set offline (scripts/eval-library.ts, hard hit@3 of 53,
 * document named 37): without 27; with saturation 0.03: 0.5 → 30, 0.7 → 31, 1 → 31; with
 * 0.01: 0.2 → 28, 0.5 → 29, 0.7 → 30, 1 → 30, 1.5 → 29. The right document in the top 3 is
 * unchanged (the same documents are searched).
 */
export const COVERAGE_WEIGHT = 0.7;
/**
 * A word held by this share of a document's nodes counts half (see {@link documentCoverage}).
 * Measured as above at weight 0.5: 0.003 → 29, 0.01 → 29, 0.03 → 30, 0.1 → 29.
 */
export const COVERAGE_SATURATION = 0.03;
/** Least rank weight of a searched document's sections (as in the catalog path). */
const MIN_RANK_PRIOR = 0.25;

/** What a library-based plan adds: the hits, to rescue a search that found nothing. */
export interface LibraryPlan extends StartPlan {
  library: LibraryDocumentHit[];
  /** Sections the model picked for their own text ("self"): results before any search. */
  found?: Candidate[];
  /** Whether the documents were searched separately, their results to be ranked by {@link fuseLibraryEvidence}. */
  fuse?: boolean;
}

function rootItem(docId: string, chain: number): WorkItem {
  return { docId, parent: null, trail: [], priority: 1, chain };
}

/**
 * Plans the starts from the library index, or `undefined` when the existing paths should decide:
 * a named set of documents, a first stage, a library small enough that `all` searches every
 * document, or a query no section matches.
 */
export async function planFromLibrary(
  ctx: SearchLedger,
  reader: TreeReader & LibraryReader,
  scope: DocumentScope,
): Promise<LibraryPlan | undefined> {
  if (scope.docIds || scope.firstStage) return undefined;
  const hits = await reader.searchLibrary(ctx.query, {
    limit: scope.candidates,
    sectionsPerDocument: SECTIONS_PER_DOCUMENT,
    ...(scope.filter ? { filter: scope.filter } : {}),
  });
  // More hits than `maxDocuments` prove the library larger than that without counting it
  // (a count is a scan of every card on some engines: 3.7 ms a query at 100,000 documents).
  if (scope.documentSelection === "all" && hits.length <= scope.maxDocuments && isCatalogReader(reader)) {
    const filter = scope.filter ? { filter: scope.filter } : {};
    const { total } = await reader.listDocuments({ limit: 0, ...filter });
    if (total <= scope.maxDocuments) return undefined;
  }
  if (hits.length === 0) {
    ctx.warnings.push("no section of the library matches the query");
    return undefined;
  }
  ctx.counters.documentsConsidered = hits.length;
  const ranking = rankingOf(hits);
  let chain = 0;
  if (ctx.judge.usesModel && ctx.judge.chooseInLibrary) {
    const chosen = await askJudge(ctx, reader, hits, scope);
    if ("starts" in chosen) return chosen;
    chain = chosen.chain; // the lexical choice below waited for the failed answer
    // The model looked at the candidates and picked none: the lexical choice is a long shot, so
    // only its best document is searched (each searched document costs the model a prompt more).
    if (chosen.declined) return offlineStarts(ctx, hits, ranking, { ...scope, maxDocuments: 1 }, chain);
  }
  return offlineStarts(ctx, hits, ranking, scope, chain);
}

/** The library's order as the run's `documentRanking` (section scores, DocScore-aggregated). */
function rankingOf(hits: readonly LibraryDocumentHit[]): RankedDocument[] {
  return hits.map((h) => ({
    docId: h.docId,
    score: h.score,
    catalogScore: 0,
    sectionScore: h.score,
    evidence: h.sections.map((s) => s.title),
  }));
}

/** Weights the chosen documents' lexical scores by their rank (1 for the first). */
function weighByRank(ctx: SearchLedger, docIds: readonly string[], score: (docId: string) => number): void {
  const top = score(docIds[0] as string);
  ctx.rankDocuments(
    new Map(docIds.map((id) => [id, top > 0 ? Math.max(MIN_RANK_PRIOR, score(id) / top) : 1])),
  );
}

/**
 * Without a model (or when its answer is unusable): the best `maxDocuments` documents, each
 * searched from its root as if it were named alone; {@link fuseLibraryEvidence} then ranks their
 * sections against each other by the library's evidence. Measured on the Debian library dev set
 * (36 questions, hit@3, scripts/eval-library.ts): 15 with the best document and those within
 * `documentMargin` searched together from their roots and best sections, 24 this way (named: 27).
 * In the simulation that chose it, the best document's search alone gave 20, the searches' own
 * scores across documents 19.
 */
async function offlineStarts(
  ctx: SearchLedger,
  hits: readonly LibraryDocumentHit[],
  ranking: RankedDocument[],
  scope: DocumentScope,
  chain = 0,
): Promise<LibraryPlan> {
  const chosen = distinctHits(hits, Math.max(1, scope.maxDocuments));
  ctx.docIds = chosen.map((h) => h.docId);
  ctx.separateDocuments();
  const starts = chosen.map((hit) => rootItem(hit.docId, chain));
  return { starts, chain, ranking, library: [...hits], fuse: true };
}

/**
 * The best `count` hits, leaving out a copy of one taken already: a document whose best-matching
 * sections are a better one's (the same ids, titles, summaries and scores: the same text stored
 * twice, as an A4 and a letter edition) would repeat its results in a slot another document
 * could use.
 * Debian library dev set: 3 of 66 questions had such a copy among the 3 searched (q34 returned
 * one page twice in its top 3); hit@3 and the right document in the top 3 are unchanged.
 */
function distinctHits(hits: readonly LibraryDocumentHit[], count: number): LibraryDocumentHit[] {
  const out: LibraryDocumentHit[] = [];
  const seen = new Set<string>();
  for (const hit of hits) {
    if (out.length === count) break;
    // Pages are left out: a letter and an A4 edition number them differently.
    const evidence = JSON.stringify(hit.sections.map((s) => [s.nodeId, s.title, s.summary, s.score]));
    if (hit.sections.length > 0 && seen.has(evidence)) continue;
    seen.add(evidence);
    out.push(hit);
  }
  return out;
}

/** The best score among picks (0 for none). */
function bestScore(picks: readonly LibraryPick[]): number {
  return picks.reduce((top, p) => Math.max(top, p.score), 0);
}

/**
 * The second look's candidates: the documents the library finds for the model's `search` words
 * that were not on the first page, then the first search's next ones; at most a page. Those
 * found by the words join `hits` (the run's ranking and rescue see them).
 */
async function nextPage(
  ctx: SearchLedger,
  reader: LibraryReader,
  hits: LibraryDocumentHit[],
  page: readonly LibraryDocumentHit[],
  scope: DocumentScope,
  search: string | undefined,
): Promise<LibraryDocumentHit[]> {
  const shown = new Set(page.map((h) => h.docId));
  const found = search
    ? await reader.searchLibrary(search, {
        limit: scope.candidates,
        sectionsPerDocument: SECTIONS_PER_DOCUMENT,
        ...(scope.filter ? { filter: scope.filter } : {}),
      })
    : [];
  const known = new Set(hits.map((h) => h.docId));
  for (const hit of found) if (!known.has(hit.docId)) hits.push(hit);
  ctx.counters.documentsConsidered = hits.length;
  const out: LibraryDocumentHit[] = [];
  for (const hit of [...found, ...hits.slice(page.length)]) {
    if (shown.has(hit.docId)) continue;
    shown.add(hit.docId);
    out.push(hit);
    if (out.length === LIBRARY_PAGE_DOCUMENTS) break;
  }
  return out;
}

/**
 * A start at a section the model picked (judged already: a leaf is then a result), or
 * `undefined` when the section is no longer in the document (the index is ahead of or behind
 * the tree).
 */
async function sectionStart(
  ctx: SearchLedger,
  docId: string,
  nodeId: string,
  verdict: { score: number; reason: string; chain: number },
): Promise<WorkItem | undefined> {
  let skeleton: Awaited<ReturnType<SearchLedger["skeleton"]>>;
  try {
    skeleton = await ctx.skeleton(docId);
  } catch {
    return undefined; // unreadable or gone: `readableStarts` warns about the document
  }
  const node = getNode(skeleton, nodeId);
  if (!node) {
    ctx.warnings.push(`library: section "${nodeId}" is not in document "${docId}" (index out of date)`);
    return undefined;
  }
  const step: TrailStep = {
    nodeId: node.nodeId,
    title: node.title,
    score: verdict.score,
    reason: verdict.reason,
    judge: "llm",
  };
  return { docId, parent: node, trail: [step], priority: verdict.score, chain: verdict.chain };
}

/**
 * One library prompt over `documents` (the judge shows as many as fit): its picks, the round
 * trips it took, and whether the answer was usable (an unusable one has no picks and is not
 * worth a second look: the model could not answer, not "none of these").
 */
async function choosePage(
  ctx: SearchLedger,
  documents: readonly LibraryDocumentHit[],
  maxDocuments: number,
  more: boolean,
): Promise<{ picks: LibraryPick[]; roundTrips: number; usable: boolean; search?: string }> {
  const choice = await ctx.judge.chooseInLibrary?.(
    {
      documents,
      max: maxDocuments,
      promptTokens: Math.max(1, Math.floor(ctx.settings.maxPromptTokens * PROMPT_SHARE)),
      more,
    },
    ctx,
  );
  ctx.counters.nodesJudged += choice?.offered ?? 0;
  if (!choice) return { picks: [], roundTrips: 0, usable: false };
  return {
    picks: choice.picks,
    roundTrips: choice.roundTrips,
    usable: choice.judge !== "lexical-fallback",
    ...(choice.search ? { search: choice.search } : {}),
  };
}

/**
 * The judge picks documents and sections among the best candidates (one prompt, see
 * `Judge.chooseInLibrary`). When it picks none of them, or only near misses, or only unsure picks
 * (≤ {@link SURE_SCORE}) and says where else to look, it gets one second look (a round trip more,
 * only then) at the next {@link LIBRARY_PAGE_DOCUMENTS} candidates:
 * first those the library finds for the words the model said the answering section would use
 * (a question in a user's words rarely shares them with the manual), then the next of the first
 * search. Debian library dev set: 3 of 66 questions rank their document below the 7th (9th,
 * 46th, not in the first 60). No usable pick: only the round trips it took, so the caller
 * chooses from the library's ranking.
 */
async function askJudge(
  ctx: SearchLedger,
  reader: LibraryReader,
  hits: LibraryDocumentHit[],
  scope: DocumentScope,
): Promise<LibraryPlan | { chain: number; declined?: boolean }> {
  const { maxDocuments } = scope;
  const weak = ctx.settings.weakBranchScore;
  const strong = (picks: readonly LibraryPick[]) => picks.some((p) => p.score > weak);
  const page = hits.slice(0, LIBRARY_PAGE_DOCUMENTS);
  const first = await choosePage(ctx, page, maxDocuments, true);
  let chain = first.roundTrips;
  let picks = first.picks;
  let offered = page.length;
  // Unsure picks with search words: the model doubts its choice and says where else to look.
  const unsure = strong(picks) && first.search !== undefined && bestScore(picks) <= SURE_SCORE;
  if (first.usable && (!strong(picks) || unsure)) {
    const next = await nextPage(ctx, reader, hits, page, scope, first.search);
    offered += next.length;
    if (next.length > 0) {
      const second = await choosePage(ctx, next, maxDocuments, false);
      chain += second.roundTrips;
      if (unsure) {
        // The surer of the two choices (the first on a tie).
        if (bestScore(second.picks) > bestScore(picks)) picks = second.picks;
      } else {
        // A strong pick on the second page wins; otherwise the near misses of both stay.
        picks = strong(second.picks) ? second.picks : [...picks, ...second.picks];
      }
    }
  }
  ctx.noteChain(chain);
  const declined = first.usable && picks.length === 0;
  if (declined)
    ctx.warnings.push(
      `library choice: the model picked none of the ${offered} candidate documents offered; searching the best one lexically chosen`,
    );
  // A document picked only weakly (a near miss) beside a strong pick is not searched: it stays
  // in the ranking (weak sections of a searched document are left to the search's weak rule).
  const strongDocs = new Set(picks.filter((p) => p.score > weak).map((p) => p.docId));
  if (strongDocs.size > 0) picks = picks.filter((p) => strongDocs.has(p.docId));
  const chosen: string[] = [];
  for (const p of picks) {
    if (!chosen.includes(p.docId) && chosen.length < maxDocuments) chosen.push(p.docId);
  }
  if (chosen.length === 0) return { chain, declined };
  ctx.docIds = chosen;
  const best = new Map<string, number>();
  for (const p of picks) best.set(p.docId, Math.max(best.get(p.docId) ?? 0, p.score));
  weighByRank(ctx, chosen, (id) => best.get(id) ?? 0);
  const starts: WorkItem[] = [];
  const rooted = new Set<string>();
  const found: Candidate[] = [];
  const below = await pickedAncestors(ctx, picks);
  for (const p of picks) {
    const { docId } = p;
    if (!chosen.includes(docId)) continue;
    const wider = p.nodeId !== undefined && below.has(`${docId}/${p.nodeId}`);
    if (wider && !p.self) continue;
    const item =
      p.nodeId === undefined
        ? undefined
        : await sectionStart(ctx, docId, p.nodeId, { score: p.score, reason: p.reason, chain });
    if (item?.parent && p.self && item.parent.childIds.length > 0) {
      // Its own text answers: a result now; opened as well (as a table-of-contents pick with
      // "self" is) unless a narrower pick inside it is where to look.
      found.push(ctx.candidate(docId, item.parent, p, "llm", item.trail));
      if (!wider) starts.push({ ...item, answered: true });
    } else if (item) starts.push(item);
    else if (!rooted.has(docId)) {
      rooted.add(docId);
      starts.push({ ...rootItem(docId, chain), priority: p.score });
    }
  }
  const order = new Map(chosen.map((id, i) => [id, i]));
  const ranking = rankingOf(hits).sort(
    (a, b) => (order.get(a.docId) ?? chosen.length) - (order.get(b.docId) ?? chosen.length),
  );
  return { starts, chain, ranking, library: [...hits], ...(found.length > 0 ? { found } : {}) };
}

/**
 * Picked sections with another picked section inside them (`docId/nodeId`): the narrower pick is
 * where to look, so the wider one is not opened (as when both show in one outline) — unless the
 * wider is scored clearly above everything picked inside it ({@link WIDER_MARGIN}): then the model
 * means the whole (an "Introduction" whose listed subsections it rated lower), and it is opened.
 */
async function pickedAncestors(ctx: SearchLedger, picks: readonly LibraryPick[]): Promise<Set<string>> {
  const inside = new Map<string, number>(); // wider pick → best score picked inside it
  for (const p of picks) {
    if (p.nodeId === undefined) continue;
    const { docId } = p;
    const skeleton = await ctx.skeleton(docId).catch(() => undefined);
    let node = skeleton ? getNode(skeleton, p.nodeId) : undefined;
    while (skeleton && node && node.parentId !== null) {
      const parentId: string = node.parentId;
      if (picks.some((o) => o.docId === docId && o.nodeId === parentId)) {
        const key = `${docId}/${parentId}`;
        inside.set(key, Math.max(inside.get(key) ?? 0, p.score));
      }
      node = getNode(skeleton, parentId);
    }
  }
  const out = new Set<string>();
  for (const p of picks) {
    const key = `${p.docId}/${p.nodeId}`;
    const best = inside.get(key);
    if (best !== undefined && p.score <= best + WIDER_MARGIN) out.add(key);
  }
  return out;
}

/** The search's results after the sections the model picked for their own text (see {@link LibraryPlan}). */
export function withLibraryPicks(plan: StartPlan, searched: Candidate[]): Candidate[] {
  const found = (plan as Partial<LibraryPlan>).found;
  if (!found || found.length === 0) return searched;
  const known = new Set(searched.map((c) => `${c.docId}/${c.node.nodeId}`));
  return [...found.filter((c) => !known.has(`${c.docId}/${c.node.nodeId}`)), ...searched];
}

/**
 * A search that found nothing although sections matched: the best of those sections (by the
 * library's ranking, the searched documents first) stand in, so such a question never comes
 * back empty.
 */
export async function rescueFromLibrary(
  ctx: SearchLedger,
  plan: StartPlan,
  found: Candidate[],
): Promise<Candidate[]> {
  const library = (plan as Partial<LibraryPlan>).library;
  if (found.length > 0 || !library || library.length === 0) return found;
  const searched = library.filter((h) => ctx.docIds.includes(h.docId));
  const docIds = (searched.length > 0 ? searched : library).map((h) => h.docId);
  const lexical = await lexicalTopCandidates(ctx, docIds, "lexical-fallback");
  if (lexical.length > 0) {
    ctx.warnings.push(
      "the search found nothing; returning the best lexical matches of the library's candidates",
    );
    return lexical;
  }
  ctx.warnings.push("the search found nothing; returning the library's best-matching sections");
  const out: Candidate[] = [];
  const top = library[0]?.sections[0]?.score || 1;
  for (const hit of searched.length > 0 ? searched : library) {
    let skeleton: Awaited<ReturnType<SearchLedger["skeleton"]>>;
    try {
      skeleton = await ctx.skeleton(hit.docId);
    } catch {
      continue;
    }
    for (const section of hit.sections) {
      const node = getNode(skeleton, section.nodeId);
      if (!node) continue;
      const score = Math.min(1, section.score / top);
      const reason = "library match (the search found nothing else)";
      const step: TrailStep = {
        nodeId: node.nodeId,
        title: node.title,
        score,
        reason,
        judge: "lexical-fallback",
      };
      out.push(ctx.candidate(hit.docId, node, { score, reason }, "lexical-fallback", [step]));
    }
  }
  return out;
}

/**
 * Ranks the sections found in separately searched documents against each other: each document's
 * best `k` (by its own search) first, ordered by the document's library score plus the section's
 * library score (the best match at or below it, {@link ANCESTOR_DECAY} a level up), both scaled
 * to the best of the query, the document's score raised by its coverage of the query's words
 * ({@link documentCoverage}). A document's own search knows which of its sections answer, not
 * whether the document does; the library's scores compare documents and sections across the
 * whole library.
 */
export async function fuseLibraryEvidence(
  ctx: SearchLedger,
  plan: StartPlan,
  found: Candidate[],
): Promise<Candidate[]> {
  const { library, fuse } = plan as Partial<LibraryPlan>;
  if (!fuse || !library || library.length === 0 || found.length === 0) return found;
  const bestDocument = Math.max(...library.map((h) => h.score)) || 1;
  const bestSection = Math.max(0, ...library.flatMap((h) => h.sections.map((s) => s.score))) || 1;
  const documentScore = new Map(library.map((h) => [h.docId, h.score / bestDocument]));
  const about = await documentCoverage(ctx, [...new Set(found.map((c) => c.docId))]);
  const bestAbout = Math.max(0, ...about.values()) || 1;
  for (const [docId, share] of about)
    documentScore.set(docId, (documentScore.get(docId) ?? 0) + COVERAGE_WEIGHT * (share / bestAbout));
  const sectionScore = await sectionEvidence(ctx, library);
  const out: Candidate[] = [];
  for (const docId of new Set(found.map((c) => c.docId))) {
    const own = rankCandidates(found.filter((c) => c.docId === docId));
    own.forEach((c, i) => {
      const section = (sectionScore.get(`${docId}/${c.node.nodeId}`) ?? 0) / bestSection;
      const evidence = ((documentScore.get(docId) ?? 0) + section) / 2;
      // The document's best k first (as its own search ranked them), then the rest.
      const score = i < ctx.settings.k ? 0.5 + evidence / 2 : evidence / 2;
      out.push({
        ...c,
        score,
        reason: `${c.reason} (library evidence: document ${(documentScore.get(docId) ?? 0).toFixed(2)}, section ${section.toFixed(2)})`,
      });
    });
  }
  return out;
}

/**
 * How much of each searched document is about the query's words: Σ over the words of
 * share / (share + {@link COVERAGE_SATURATION}), share the part of its nodes holding the word.
 * A question names its manual's subject in its own words ("a Lisp script", "the Go debugger"):
 * such a word runs through the whole manual that answers it, while the document whose one
 * section best matches the question's other words may not hold it at all.
 */
async function documentCoverage(ctx: SearchLedger, docIds: readonly string[]): Promise<Map<string, number>> {
  const terms = [...new Set(tokenizeQuery(ctx.query))];
  const out = new Map<string, number>();
  if (terms.length === 0) return out;
  for (const docId of docIds) {
    const skeleton = await ctx.skeleton(docId).catch(() => undefined);
    if (!skeleton) continue;
    // A document whose index cannot be read is left without (its search warned already).
    const shares = await ctx.nodeShares(skeleton, terms).catch(() => undefined);
    if (!shares) continue;
    out.set(
      docId,
      shares.reduce((sum, share) => sum + share / (share + COVERAGE_SATURATION), 0),
    );
  }
  return out;
}

/** Library section scores by `docId/nodeId`, each section's ancestors credited with its decayed score. */
async function sectionEvidence(
  ctx: SearchLedger,
  library: readonly LibraryDocumentHit[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const hit of library) {
    if (!ctx.docIds.includes(hit.docId)) continue;
    const skeleton = await ctx.skeleton(hit.docId).catch(() => undefined);
    if (!skeleton) continue;
    for (const section of hit.sections) {
      // The section first, then each level up.
      pathToRoot(skeleton, section.nodeId)
        .reverse()
        .forEach((node, up) => {
          const key = `${hit.docId}/${node.nodeId}`;
          const score = section.score * ANCESTOR_DECAY ** up;
          if (score > (out.get(key) ?? 0)) out.set(key, score);
        });
    }
  }
  return out;
}
