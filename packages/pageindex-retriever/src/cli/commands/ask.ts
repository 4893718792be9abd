import { answerWithCitations, citationOf } from "../../answer.js";
import { PageIndexRetriever } from "../../retriever.js";
import type { SearchStrategy } from "../../types.js";
import type { CliContext } from "../context.js";
import { CliError, EXIT, printJson } from "../output.js";
import { resolveDocId } from "./documents.js";

/** Options of `pageindex ask`. */
export interface AskOptions {
  doc?: string[];
  k?: number;
  strategy?: SearchStrategy;
  maxSteps?: number;
  expert?: string;
  answer?: boolean;
  chars?: number;
}

const STRATEGIES: SearchStrategy[] = ["expand", "beam", "single-shot"];

/** `pageindex ask "<question>"`: retrieved sections with citations, and an answer when a model is set. */
export async function ask(ctx: CliContext, question: string, options: AskOptions): Promise<number> {
  if (!question.trim()) throw new CliError("The question is empty");
  if (options.strategy && !STRATEGIES.includes(options.strategy)) {
    throw new CliError(`--strategy must be one of ${STRATEGIES.join(", ")} (got "${options.strategy}")`);
  }
  const store = await ctx.store();
  const docIds = options.doc?.length
    ? await Promise.all(options.doc.map((d) => resolveDocId(ctx, d)))
    : undefined;
  if (!docIds && (await store.listDocuments()).length === 0) {
    throw new CliError(
      "The store is empty: index documents first (pageindex index <files>) or run pageindex demo",
    );
  }
  const model = await ctx.model();
  const retriever = new PageIndexRetriever({
    reader: store,
    ...(model ? { model } : {}),
    k: options.k ?? 3,
    ...(options.strategy ? { strategy: options.strategy } : {}),
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(docIds ? { docIds } : {}),
    ...(options.expert ? { expertKnowledge: options.expert } : {}),
  });
  const sections = await retriever.invoke(question);
  const run = retriever.lastRun;
  const wantAnswer = options.answer !== false && model !== undefined && sections.length > 0;
  const answer = wantAnswer && model ? await answerWithCitations(model, question, sections) : undefined;

  if (ctx.options.json) {
    printJson(ctx.io, {
      question,
      model: ctx.modelLabel(),
      sections: sections.map((doc) => ({
        rank: doc.metadata.rank,
        docId: doc.metadata.docId,
        docName: doc.metadata.docName,
        nodeId: doc.metadata.nodeId,
        title: doc.metadata.title,
        path: doc.metadata.path,
        startPage: doc.metadata.startPage,
        endPage: doc.metadata.endPage,
        startLine: doc.metadata.startLine,
        endLine: doc.metadata.endLine,
        score: doc.metadata.score,
        reason: doc.metadata.reason,
        judge: doc.metadata.judge,
        text: doc.pageContent,
      })),
      ...(answer !== undefined ? { answer } : {}),
      stats: run?.stats,
      warnings: run?.warnings ?? [],
    });
    return EXIT.ok;
  }

  ctx.io.out(`Question: ${question}\n`);
  if (sections.length === 0) ctx.io.out("No relevant section found.");
  const chars = options.chars ?? 400;
  sections.forEach((doc, i) => {
    ctx.io.out(`[${i + 1}] ${citationOf(doc)}`);
    ctx.io.out(`    score ${doc.metadata.score.toFixed(2)} (${doc.metadata.judge}) — ${doc.metadata.reason}`);
    const text = doc.pageContent.replace(/\s+/g, " ").trim();
    if (chars > 0 && text) ctx.io.out(`    ${text.length > chars ? `${text.slice(0, chars)}…` : text}`);
    ctx.io.out("");
  });
  if (answer !== undefined) ctx.io.out(`Answer (${ctx.modelLabel()}):\n${answer}\n`);
  else if (!model)
    ctx.io.out(
      "(Offline: sections chosen by the BM25 judge; set --model or PAGEINDEX_MODEL for an LLM judge and an answer.)",
    );
  if (run) {
    const s = run.stats;
    ctx.io.out(
      `Searched ${run.docIds.length} document(s) with ${run.strategy}: ${s.calls} LLM calls, ${s.roundTrips} sequential round trips, ${s.promptTokens} prompt tokens, ${s.nodesJudged} nodes judged.`,
    );
    for (const warning of run.warnings) ctx.io.err(`warning: ${warning}`);
  }
  return EXIT.ok;
}
