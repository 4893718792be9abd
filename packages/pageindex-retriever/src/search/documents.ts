import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import { type DocumentInfo, DocumentNotFoundError, getNode } from "pageindex-store";
import { chooseDocumentsPrompt } from "../judge/prompts.js";
import type { SearchContext } from "./context.js";
import { resolveId } from "./context.js";
import type { WorkItem } from "./tree-search.js";

/** How documents are chosen for a query. */
export interface DocumentScope {
  /** Only these documents. Unknown ids are an error. */
  docIds?: readonly string[] | undefined;
  /** `all` (default) or `llm`: the model picks from names and descriptions (lexical without a model). */
  documentSelection: "all" | "llm";
  /** Most documents `documentSelection: "llm"` keeps. */
  maxDocuments: number;
  /** A first-stage retriever whose hits (`metadata.docId` / `nodeId`) seed the search. */
  firstStage?: BaseRetrieverInterface | undefined;
  /** `subtree` (default): start at the hit nodes; `document`: only choose documents by the hits. */
  firstStageScope: "subtree" | "document";
}

/** Where the search starts, and how many sequential model calls choosing it took (retries included). */
export interface StartPlan {
  starts: WorkItem[];
  chain: number;
}

function rootItem(docId: string, chain: number): WorkItem {
  return { docId, parent: null, trail: [], priority: 1, chain };
}

/**
 * Chooses the documents (and, with a first stage, the subtrees) a query starts from.
 * @throws {DocumentNotFoundError} when `docIds` names a document the reader does not have.
 */
export async function planStarts(ctx: SearchContext, scope: DocumentScope): Promise<StartPlan> {
  const all = await ctx.reader.listDocuments();
  let docs: DocumentInfo[] = all;
  if (scope.docIds) {
    const byId = new Map(all.map((d) => [d.docId, d]));
    docs = scope.docIds.map((id) => {
      const doc = byId.get(id);
      if (!doc) throw new DocumentNotFoundError(id, "the retriever's reader");
      return doc;
    });
  }
  ctx.docIds = docs.map((d) => d.docId);
  if (docs.length === 0) return { starts: [], chain: 0 };

  if (scope.firstStage) {
    const plan = await fromFirstStage(ctx, scope, new Set(ctx.docIds));
    if (plan) return plan;
  }
  let chain = 0;
  if (scope.documentSelection === "llm" && docs.length > 1) {
    const chosen = await chooseDocuments(ctx, docs, scope.maxDocuments);
    chain = chosen.roundTrips;
    if (chosen.docIds.length > 0) ctx.docIds = chosen.docIds;
  }
  return { starts: ctx.docIds.map((id) => rootItem(id, chain)), chain };
}

async function fromFirstStage(
  ctx: SearchContext,
  scope: DocumentScope,
  allowed: ReadonlySet<string>,
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
  const starts: WorkItem[] = [];
  let ignored = 0;
  for (const hit of hits) {
    const docId = hit.metadata?.docId;
    if (typeof docId !== "string" || !allowed.has(docId)) {
      ignored += 1;
      continue;
    }
    if (!docOrder.includes(docId)) docOrder.push(docId);
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
  if (scope.firstStageScope === "document")
    return { starts: docOrder.map((id) => rootItem(id, 0)), chain: 0 };
  return { starts, chain: 0 };
}

/** Picks documents with the model (one call), or lexically without one / when it fails. */
async function chooseDocuments(
  ctx: SearchContext,
  docs: readonly DocumentInfo[],
  max: number,
): Promise<{ docIds: string[]; roundTrips: number }> {
  if (ctx.model && ctx.takeStep()) {
    const offered = new Set(docs.map((d) => d.docId));
    const answer = await ctx.select(
      chooseDocumentsPrompt(ctx.query, docs, max, ctx.settings.expertKnowledge),
      "choose-documents",
    );
    ctx.noteChain(answer.attempts);
    const ids = (answer.value?.relevant ?? [])
      .map((item) => String(item.id).trim())
      .filter((id, i, all) => offered.has(id) && all.indexOf(id) === i)
      .slice(0, max);
    if (ids.length > 0) return { docIds: ids, roundTrips: answer.attempts };
    ctx.counters.fallbacks += 1;
    ctx.warnings.push(
      `document choice unusable (${answer.error ?? "no offered document named"}); chose lexically`,
    );
    return { docIds: await chooseLexically(ctx, docs, max), roundTrips: answer.attempts };
  }
  return { docIds: await chooseLexically(ctx, docs, max), roundTrips: 0 };
}

/** Documents ranked by their best lexical node match; all of them when nothing matches. */
async function chooseLexically(
  ctx: SearchContext,
  docs: readonly DocumentInfo[],
  max: number,
): Promise<string[]> {
  const scored: Array<{ docId: string; best: number }> = [];
  for (const doc of docs) {
    const scores = await ctx.lexical(await ctx.skeleton(doc.docId));
    scored.push({ docId: doc.docId, best: scores.best });
  }
  const matching = scored.filter((s) => s.best > 0).sort((a, b) => b.best - a.best);
  return (matching.length > 0 ? matching : scored).slice(0, max).map((s) => s.docId);
}
