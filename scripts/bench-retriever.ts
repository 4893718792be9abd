/**
 * Efficiency benchmark of the tree retriever's strategies, in counts (not clock time):
 * model calls, sequential round trips and prompt tokens per query, plus hit rate, for
 * expansion, beam, single-shot and a one-call-per-node traversal (LangRAG-style agent), with a
 * simulated judge that knows where the answer is and errs at a set rate.
 *
 * Data (read from ../shared/corpus; the script exits cleanly when it is absent):
 * - PageIndex's reference trees (`pageindex-reference/results/*.json`), with synthetic
 *   questions aimed at random pages of random leaves;
 * - FinanceBench filings and questions (`financebench/`), when `pageindex-loader` exports
 *   `PdfTreeLoader` (trees built offline: outline/layout, extractive summaries).
 *
 * Besides the means per method it reports: how often each beam actually pruned (`beam-1` with
 * the default judge; `beam-2-wide` next to `expand-wide`, both with a judge that finds many
 * branches plausible), round trips against the depth reached for expansion with and without
 * the dead-end second look (`expand`, `expand-drop`), and for FinanceBench a per-filing table
 * plus expand vs single-shot over the filings of 100 pages or more.
 *
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/bench-retriever.ts
 *      [--error-rate 0.1] [--false-positive-rate 0.02] [--wide-false-positive-rate 0.3]
 *      [--seed 7] [--k 3] [--questions-per-tree 10]
 * Writes .bench-out/bench-retriever.json.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { BaseChatModel as ChatModelBase } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import {
  asData,
  childrenOf,
  countTokens,
  DATA_NOT_INSTRUCTIONS,
  fromPageIndexJson,
  invokeStructured,
  rootsOf,
  type SkeletonNode,
  type TreeDocument,
  titlePath,
  UsageTracker,
} from "pageindex-core";
import { PageIndexRetriever, type SearchStrategy } from "pageindex-retriever";
import { z } from "zod";
import { requireCorpus } from "./corpus.js";
import { rng } from "./random.js";

// ---------------------------------------------------------------- options and randomness
function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  return Number.isFinite(value) ? value : fallback;
}
const ERROR_RATE = arg("error-rate", 0.1);
const SEED = arg("seed", 7);
const K = arg("k", 3);
const PER_TREE = arg("questions-per-tree", 10);
/** Chance that a judge picks a given wrong section (per section looked at). */
const FALSE_POSITIVE_RATE = arg("false-positive-rate", ERROR_RATE / 5);
/**
 * False-positive rate of the "wide" judge: one that finds many branches plausible, the case
 * beam search is for (with the default judge at most one or two siblings are relevant per level,
 * so a beam of 2 never prunes anything).
 */
const WIDE_FALSE_POSITIVE_RATE = arg("wide-false-positive-rate", 0.3);

// ---------------------------------------------------------------- questions
interface BenchQuestion {
  id: string;
  docId: string;
  question: string;
  /** Pages that hold the answer (1-based). */
  pages: number[];
}

// ---------------------------------------------------------------- the simulated judge
/**
 * A text-only chat model that judges like a good model that knows where the answer is: a
 * section is relevant when its page range holds an evidence page. It errs at `errorRate`: a
 * right section is missed with probability `errorRate`, and each wrong section it looks at is
 * picked with probability `falsePositiveRate` (the same per-section rates for sibling calls and
 * per-node calls; single-shot adds one wrong entry with probability `errorRate`).
 */
class SimulatedJudge extends ChatModelBase {
  private readonly evidence: Map<string, number[]>;
  private readonly errorRate: number;
  private readonly falsePositiveRate: number;
  private readonly random: () => number;

  constructor(evidence: Map<string, number[]>, errorRate: number, seed: number, falsePositiveRate: number) {
    super({});
    this.evidence = evidence;
    this.errorRate = errorRate;
    this.falsePositiveRate = falsePositiveRate;
    this.random = rng(seed);
  }

  _llmType(): string {
    return "simulated-judge";
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const prompt = messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
    const question = /Question: (.*)/.exec(prompt)?.[1]?.trim() ?? "";
    const pages = this.evidence.get(question) ?? [];
    const holds = (a: number, b: number) => pages.some((p) => p >= a && p <= b);
    let answer: string;
    if (prompt.includes("<toc ")) answer = this.singleShot(prompt, holds);
    else if (prompt.includes("Is this section relevant")) {
      const m = /<node id="[^"]+" pages="(\d+)-(\d+)"/.exec(prompt);
      const right = m ? holds(Number(m[1]), Number(m[2])) : false;
      const relevant = right ? this.random() >= this.errorRate : this.random() < this.falsePositiveRate;
      answer = JSON.stringify({ relevant });
    } else {
      const offered = [...prompt.matchAll(/<node id="([^"]+)" pages="(\d+)-(\d+)"/g)].map((m) => ({
        id: m[1] as string,
        hit: holds(Number(m[2]), Number(m[3])),
      }));
      const chosen = offered.filter((o) => o.hit && this.random() >= this.errorRate);
      for (const o of offered) if (!o.hit && this.random() < this.falsePositiveRate) chosen.push(o);
      answer = JSON.stringify({
        relevant: chosen.map((o) => ({ id: o.id, score: o.hit ? 0.9 : 0.6, reason: "simulated" })),
      });
    }
    return { generations: [{ text: answer, message: new AIMessage(answer) }] };
  }

  /** Picks the most specific TOC entries that hold an evidence page (one per evidence page). */
  private singleShot(prompt: string, holds: (a: number, b: number) => boolean): string {
    const picks: Array<{ doc: string; id: string }> = [];
    for (const block of prompt.matchAll(/<toc doc="(\d+)"[^>]*>\n([\s\S]*?)\n<\/toc>/g)) {
      const entries = [
        ...(block[2] as string).matchAll(/\[(\w+)\] .*? \((?:pp?\. )(\d+)(?:-(\d+))?\)$/gm),
      ].map((m) => ({
        id: m[1] as string,
        a: Number(m[2]),
        b: Number(m[3] ?? m[2]),
      }));
      const hits = entries.filter((e) => holds(e.a, e.b)).sort((x, y) => x.b - x.a - (y.b - y.a));
      const best = hits[0];
      if (best && this.random() >= this.errorRate) picks.push({ doc: block[1] as string, id: best.id });
      if (entries.length > 0 && this.random() < this.errorRate) {
        const wrong = entries[Math.floor(this.random() * entries.length)];
        if (wrong) picks.push({ doc: block[1] as string, id: wrong.id });
      }
    }
    return JSON.stringify({ relevant: picks.map((p) => ({ ...p, score: 0.8, reason: "simulated" })) });
  }
}

// ---------------------------------------------------------------- one call per node baseline
/**
 * LangRAG-style traversal: an agent asks about each node separately ("is this section
 * relevant?"), opens the relevant ones level by level, and keeps the relevant leaves.
 */
async function perNodeTraversal(model: BaseChatModel, tree: TreeDocument, question: string, k: number) {
  const usage = new UsageTracker();
  const schema = z.object({ relevant: z.boolean() });
  let level: SkeletonNode[] = rootsOf(tree);
  let depth = 0;
  const found: SkeletonNode[] = [];
  while (level.length > 0) {
    depth += 1;
    const verdicts = await Promise.all(
      level.map(async (node) => {
        const range = `${node.startPage ?? 0}-${node.endPage ?? node.startPage ?? 0}`;
        const messages = [
          new SystemMessage(
            `Decide whether a document section can contain the answer. ${DATA_NOT_INSTRUCTIONS}`,
          ),
          new HumanMessage(
            `Question: ${question}\n\n${asData(
              "node",
              `Title: ${node.title}\nPath: ${titlePath(tree, node.nodeId).join(" > ")}${
                (node.summary ?? node.prefixSummary) ? `\nSummary: ${node.summary ?? node.prefixSummary}` : ""
              }`,
              { id: node.nodeId, pages: range },
            )}\n\nIs this section relevant? Answer {"relevant": true|false}.`,
          ),
        ];
        const result = await invokeStructured(model, {
          schema,
          messages,
          step: "per-node",
          usage,
          retries: 0,
        });
        return result.ok && result.value.relevant;
      }),
    );
    const next: SkeletonNode[] = [];
    level.forEach((node, i) => {
      if (!verdicts[i]) return;
      if (node.childIds.length === 0) found.push(node);
      else next.push(...childrenOf(tree, node));
    });
    level = next;
  }
  const total = usage.total;
  const nodes = found.slice(0, k);
  return {
    nodes,
    calls: total.calls,
    roundTrips: depth,
    depth,
    promptTokens: total.promptTokens,
    returnedTokens: nodes.reduce((sum, n) => sum + n.tokenCount, 0),
  };
}

// ---------------------------------------------------------------- running
interface Row {
  /** Nodes offered to a judge. */
  nodesJudged: number;
  calls: number;
  roundTrips: number;
  promptTokens: number;
  hit: boolean;
  /** Deepest tree level a judge was shown (1 = the roots): what round trips should equal. */
  depth: number;
  /** Tokens of the returned sections' text. */
  returnedTokens: number;
}
/** How one benchmarked method runs. */
interface MethodSpec {
  /** Retriever strategy; absent for the per-node baseline. */
  strategy?: SearchStrategy;
  beamWidth?: number;
  /** `false`: a branch whose children are all rejected is lost (no second look, nothing kept). */
  keepDeadEnds?: boolean;
  /** No model: the offline lexical judge. */
  lexical?: boolean;
  lexicalText?: "full";
  /** The simulated judge's false-positive rate (default `FALSE_POSITIVE_RATE`). */
  falsePositiveRate?: number;
  /** The method whose calls and nodes a beam is compared with, to count the queries it pruned. */
  prunes?: string;
}

const METHOD_SPECS = {
  expand: { strategy: "expand" },
  "expand-drop": { strategy: "expand", keepDeadEnds: false },
  "beam-1": { strategy: "beam", beamWidth: 1, prunes: "expand" },
  "single-shot": { strategy: "single-shot" },
  "per-node": {},
  lexical: { strategy: "expand", lexical: true },
  "lexical-text": { strategy: "expand", lexical: true, lexicalText: "full" },
  "expand-wide": { strategy: "expand", falsePositiveRate: WIDE_FALSE_POSITIVE_RATE },
  "beam-2-wide": {
    strategy: "beam",
    beamWidth: 2,
    falsePositiveRate: WIDE_FALSE_POSITIVE_RATE,
    prunes: "expand-wide",
  },
} as const satisfies Record<string, MethodSpec>;
type Method = keyof typeof METHOD_SPECS;
const METHODS = Object.keys(METHOD_SPECS) as Method[];
const spec = (method: Method): MethodSpec & { prunes?: Method } => METHOD_SPECS[method];

/**
 * Whether a returned section holds an evidence page: its own pages (an internal node's intro,
 * not its whole subtree) unless it was returned with its descendants.
 */
function hits(
  nodes: Array<{
    startPage?: number;
    endPage?: number;
    ownEndPage?: number;
    includesDescendants?: boolean;
    childIds?: string[];
  }>,
  pages: number[],
): boolean {
  return nodes.some((n) => {
    if (n.startPage === undefined) return false;
    const start = n.startPage;
    const internal = (n.childIds?.length ?? 0) > 0 && !n.includesDescendants;
    const end = internal ? (n.ownEndPage ?? start) : (n.endPage ?? start);
    return pages.some((p) => p >= start && p <= end);
  });
}

async function runSet(name: string, trees: TreeDocument[], questions: BenchQuestion[]) {
  const evidence = new Map(questions.map((q) => [q.question, q.pages]));
  const rows = new Map<Method, Row[]>(METHODS.map((m) => [m, []]));
  const perQuery: Array<Record<string, unknown>> = [];
  for (const [qi, q] of questions.entries()) {
    const line: Record<string, unknown> = { id: q.id, docId: q.docId };
    for (const method of METHODS) {
      const m = spec(method);
      const judge = new SimulatedJudge(
        evidence,
        ERROR_RATE,
        SEED * 1000 + qi,
        m.falsePositiveRate ?? FALSE_POSITIVE_RATE,
      );
      let row: Row;
      if (!m.strategy) {
        const tree = trees.find((t) => t.docId === q.docId) as TreeDocument;
        const r = await perNodeTraversal(judge, tree, q.question, K);
        row = {
          nodesJudged: r.calls,
          calls: r.calls,
          roundTrips: r.roundTrips,
          promptTokens: r.promptTokens,
          hit: hits(r.nodes, q.pages),
          depth: r.depth,
          returnedTokens: r.returnedTokens,
        };
      } else {
        const retriever = new PageIndexRetriever({
          trees,
          ...(m.lexical ? {} : { model: judge }),
          ...(m.lexicalText ? { lexicalText: m.lexicalText } : {}),
          strategy: m.strategy,
          keepDeadEnds: m.keepDeadEnds ?? true,
          beamWidth: m.beamWidth ?? 3,
          k: K,
          docIds: [q.docId],
          cache: false,
          maxSteps: 60,
          retries: 0,
          collapseBelowTokens: 0,
          // The bounds these strategies were measured without (issue 17 added them; their cost
          // is measured by scripts/bench-cost.ts): single-shot sends the whole TOC, expand lists
          // every child of a level.
          maxPromptTokens: 1e9,
          maxQueryTokens: 1e15,
          fanOut: 1e9,
        });
        const docs = await retriever.invoke(q.question);
        const run = retriever.lastRun;
        const s = run?.stats;
        const tree = trees.find((t) => t.docId === q.docId);
        const levels = new Map(tree?.nodes.map((n) => [n.nodeId, n.level]));
        row = {
          nodesJudged: s?.nodesJudged ?? 0,
          calls: s?.calls ?? 0,
          roundTrips: s?.roundTrips ?? 0,
          promptTokens: s?.promptTokens ?? 0,
          hit: hits(
            docs.map((d) => d.metadata),
            q.pages,
          ),
          depth: Math.max(0, ...(run?.visited ?? []).map((v) => levels.get(v.nodeId) ?? 0)),
          returnedTokens: docs.reduce((sum, d) => sum + countTokens(d.pageContent), 0),
        };
      }
      rows.get(method)?.push(row);
      line[method] = row;
    }
    perQuery.push(line);
  }
  return { name, questions: questions.length, rows, perQuery, questionList: questions };
}

function summarise(result: SetResult) {
  const base = result.rows.get("per-node") ?? [];
  const baseCalls = mean(base.map((r) => r.calls)) || 1;
  const baseTokens = mean(base.map((r) => r.promptTokens)) || 1;
  console.log(
    `\n## ${result.name}: ${result.questions} questions, k=${K}, judge misses ${ERROR_RATE}, false positives ${FALSE_POSITIVE_RATE.toFixed(3)} (the -wide methods ${WIDE_FALSE_POSITIVE_RATE})`,
  );
  console.log(
    "method        calls/q  round trips/q  depth reached/q  prompt tokens/q  calls vs per-node  tokens vs per-node  returned tokens/q  hit rate",
  );
  const summary: Record<string, unknown> = {};
  for (const [method, rows] of result.rows) {
    const calls = mean(rows.map((r) => r.calls));
    const trips = mean(rows.map((r) => r.roundTrips));
    const tokens = mean(rows.map((r) => r.promptTokens));
    const hitRate = mean(rows.map((r) => (r.hit ? 1 : 0)));
    const depth = mean(rows.map((r) => r.depth));
    const returned = mean(rows.map((r) => r.returnedTokens));
    summary[method] = {
      calls,
      roundTrips: trips,
      depth,
      promptTokens: tokens,
      returnedTokens: returned,
      hitRate,
    };
    console.log(
      `${method.padEnd(13)} ${calls.toFixed(1).padStart(7)}  ${trips.toFixed(2).padStart(13)}  ${depth.toFixed(2).padStart(15)}  ${tokens.toFixed(0).padStart(15)}  ${(calls / baseCalls).toFixed(2).padStart(17)}  ${(tokens / baseTokens).toFixed(2).padStart(18)}  ${returned.toFixed(0).padStart(17)}  ${(hitRate * 100).toFixed(0).padStart(7)}%`,
    );
  }
  return summary;
}

type SetResult = Awaited<ReturnType<typeof runSet>>;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;

/** Queries where a beam judged fewer nodes than the expansion it is compared with, and what it cost. */
function pruning(result: SetResult) {
  const out: Record<string, unknown> = {};
  for (const method of METHODS) {
    const versus = spec(method).prunes;
    if (!versus) continue;
    const beam = result.rows.get(method) ?? [];
    const full = result.rows.get(versus) ?? [];
    const pruned = beam.filter((r, i) => r.nodesJudged < (full[i]?.nodesJudged ?? 0)).length;
    const lost = beam.filter((r, i) => !r.hit && full[i]?.hit).length;
    const gained = beam.filter((r, i) => r.hit && !full[i]?.hit).length;
    const entry = {
      versus,
      pruned,
      questions: beam.length,
      calls: [mean(beam.map((r) => r.calls)), mean(full.map((r) => r.calls))],
      promptTokens: [mean(beam.map((r) => r.promptTokens)), mean(full.map((r) => r.promptTokens))],
      hitRate: [mean(beam.map((r) => (r.hit ? 1 : 0))), mean(full.map((r) => (r.hit ? 1 : 0)))],
      lost,
      gained,
    };
    out[method] = entry;
    console.log(
      `${method} vs ${versus}: pruned on ${pruned}/${beam.length} queries; calls ${entry.calls[0]?.toFixed(1)} vs ${entry.calls[1]?.toFixed(1)}, prompt tokens ${entry.promptTokens[0]?.toFixed(0)} vs ${entry.promptTokens[1]?.toFixed(0)}, hit ${pct(entry.hitRate[0] ?? 0)} vs ${pct(entry.hitRate[1] ?? 0)} (lost ${lost}, gained ${gained})`,
    );
  }
  return out;
}

/** Round trips against the depth reached, per query: equal is the floor of top-down search. */
function depthVersusTrips(result: SetResult, methods: Method[]) {
  const out: Record<string, unknown> = {};
  for (const method of methods) {
    const rows = result.rows.get(method) ?? [];
    const extra = new Map<number, number>();
    for (const r of rows) extra.set(r.roundTrips - r.depth, (extra.get(r.roundTrips - r.depth) ?? 0) + 1);
    const histogram = Object.fromEntries([...extra].sort((a, b) => a[0] - b[0]));
    out[method] = {
      depth: mean(rows.map((r) => r.depth)),
      roundTrips: mean(rows.map((r) => r.roundTrips)),
      roundTripsMinusDepth: histogram,
    };
    console.log(
      `${method}: depth reached ${mean(rows.map((r) => r.depth)).toFixed(2)}, round trips ${mean(rows.map((r) => r.roundTrips)).toFixed(2)}; queries by round trips − depth: ${Object.entries(
        histogram,
      )
        .map(([d, n]) => `${Number(d) >= 0 ? "+" : ""}${d}: ${n}`)
        .join(", ")}`,
    );
  }
  return out;
}

const FILING_METHODS: Method[] = ["expand", "beam-1", "single-shot", "per-node", "lexical"];

function pagesOf(tree: TreeDocument): number {
  return tree.pageCount ?? Math.max(0, ...tree.nodes.map((n) => n.endPage ?? n.startPage ?? 0));
}

/** Per filing: calls, round trips, prompt tokens and hit rate of the main methods; then the 100+ page filings together. */
function perFiling(result: SetResult, trees: TreeDocument[]) {
  const out: Record<string, unknown> = {};
  console.log(
    `\nper filing (calls / round trips / prompt tokens / hit rate per query):\nfiling                        pages nodes  q  ${FILING_METHODS.map((m) => m.padEnd(26)).join("")}`,
  );
  const index = (docIds: Set<string>) =>
    result.questionList.flatMap((q, i) => (docIds.has(q.docId) ? [i] : []));
  const cells = (rows: Row[]) =>
    `${mean(rows.map((r) => r.calls)).toFixed(1)} / ${mean(rows.map((r) => r.roundTrips)).toFixed(1)} / ${mean(rows.map((r) => r.promptTokens)).toFixed(0)} / ${pct(mean(rows.map((r) => (r.hit ? 1 : 0))))}`;
  const pick = (method: Method, at: number[]) => at.map((i) => result.rows.get(method)?.[i] as Row);
  for (const tree of trees) {
    const at = index(new Set([tree.docId]));
    if (at.length === 0) continue;
    out[tree.docId] = {
      pages: pagesOf(tree),
      nodes: tree.nodes.length,
      questions: at.length,
      ...Object.fromEntries(FILING_METHODS.map((m) => [m, pick(m, at)])),
    };
    console.log(
      `${tree.docId.padEnd(29)} ${String(pagesOf(tree)).padStart(5)} ${String(tree.nodes.length).padStart(5)} ${String(at.length).padStart(2)}  ${FILING_METHODS.map((m) => cells(pick(m, at)).padEnd(26)).join("")}`,
    );
  }
  const big = trees.filter((t) => pagesOf(t) >= 100);
  const at = index(new Set(big.map((t) => t.docId)));
  const summary = (m: Method) => ({
    promptTokens: mean(pick(m, at).map((r) => r.promptTokens)),
    hitRate: mean(pick(m, at).map((r) => (r.hit ? 1 : 0))),
    calls: mean(pick(m, at).map((r) => r.calls)),
    roundTrips: mean(pick(m, at).map((r) => r.roundTrips)),
  });
  const expand = summary("expand");
  const single = summary("single-shot");
  out.over100Pages = { filings: big.map((t) => t.docId), questions: at.length, expand, singleShot: single };
  console.log(
    `\nfilings with ≥ 100 pages (${big.map((t) => `${t.docId} ${pagesOf(t)} pp.`).join(", ")}; ${at.length} questions): expand ${expand.promptTokens.toFixed(0)} prompt tokens/q at ${pct(expand.hitRate)} hit (${expand.calls.toFixed(1)} calls, ${expand.roundTrips.toFixed(1)} round trips); single-shot ${single.promptTokens.toFixed(0)} at ${pct(single.hitRate)} (${single.calls.toFixed(1)} call); ratio ${(expand.promptTokens / (single.promptTokens || 1)).toFixed(2)}`,
  );
  return out;
}

/** The extra reports: pruning, depth against round trips, and (FinanceBench) per filing. */
function details(result: SetResult, trees?: TreeDocument[]) {
  console.log("");
  const out: Record<string, unknown> = {
    pruning: pruning(result),
    depthVersusRoundTrips: depthVersusTrips(result, ["expand", "expand-drop"]),
  };
  if (trees) out.perFiling = perFiling(result, trees);
  return out;
}

function referenceQuestions(trees: TreeDocument[]): BenchQuestion[] {
  const random = rng(SEED);
  const out: BenchQuestion[] = [];
  for (const tree of trees) {
    const leaves = tree.nodes.filter((n) => n.childIds.length === 0 && n.startPage !== undefined);
    for (let i = 0; i < Math.min(PER_TREE, leaves.length); i += 1) {
      const leaf = leaves[Math.floor(random() * leaves.length)] as SkeletonNode;
      const start = leaf.startPage as number;
      const page = start + Math.floor(random() * ((leaf.endPage ?? start) - start + 1));
      out.push({
        id: `${tree.docId}#${i}`,
        docId: tree.docId,
        // The simulated judge keys on the question text, so it must be unique.
        question: `[${tree.docId} q${i}] What does the document say on page ${page} about ${leaf.title}?`,
        pages: [page],
      });
    }
  }
  return out;
}

async function financeBench(
  dir: string,
): Promise<{ trees: TreeDocument[]; questions: BenchQuestion[] } | string> {
  let loader: Record<string, unknown>;
  try {
    loader = (await import("pageindex-loader")) as Record<string, unknown>;
  } catch (error) {
    return `pageindex-loader could not be imported (${(error as Error).message}); build it first`;
  }
  const PdfTreeLoader = loader.PdfTreeLoader as
    | (new (
        input: string,
        options?: Record<string, unknown>,
      ) => { loadTree(): Promise<TreeDocument> })
    | undefined;
  if (!PdfTreeLoader) return "pageindex-loader does not export PdfTreeLoader (yet); FinanceBench skipped";
  const lines = readFileSync(join(dir, "questions.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim());
  const raw = lines.map(
    (l) =>
      JSON.parse(l) as { id: string; doc_name: string; question: string; evidence: Array<{ page: number }> },
  );
  const trees: TreeDocument[] = [];
  for (const name of [...new Set(raw.map((q) => q.doc_name))]) {
    try {
      trees.push(await new PdfTreeLoader(join(dir, "pdfs", `${name}.pdf`), { docId: name }).loadTree());
      const t = trees.at(-1) as TreeDocument;
      console.log(`built ${name}: ${t.nodes.length} nodes, structure ${t.build.structure}`);
    } catch (error) {
      console.log(`could not build ${name}: ${(error as Error).message}`);
    }
  }
  const built = new Set(trees.map((t) => t.docId));
  const questions = raw
    .filter((q) => built.has(q.doc_name))
    .map((q) => ({
      id: q.id,
      docId: q.doc_name,
      question: q.question,
      pages: q.evidence.map((e) => e.page),
    }));
  return { trees, questions };
}

async function main() {
  const corpus = requireCorpus();
  const out: Record<string, unknown> = {
    errorRate: ERROR_RATE,
    falsePositiveRate: FALSE_POSITIVE_RATE,
    wideFalsePositiveRate: WIDE_FALSE_POSITIVE_RATE,
    seed: SEED,
    k: K,
  };

  const refDir = join(corpus, "pageindex-reference/results");
  const trees = readdirSync(refDir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => fromPageIndexJson(JSON.parse(readFileSync(join(refDir, f), "utf8"))));
  console.log(
    `PageIndex reference trees: ${trees.map((t) => `${t.docId} (${t.nodes.length} nodes)`).join(", ")}`,
  );
  const ref = await runSet(
    "PageIndex reference trees (synthetic page questions)",
    trees,
    referenceQuestions(trees),
  );
  out.reference = { summary: summarise(ref), ...details(ref), perQuery: ref.perQuery };

  const fb = await financeBench(join(corpus, "financebench"));
  if (typeof fb === "string") {
    console.log(`\nFinanceBench: ${fb}`);
    out.financebench = { skipped: fb };
  } else {
    const result = await runSet("FinanceBench (evidence pages)", fb.trees, fb.questions);
    out.financebench = {
      summary: summarise(result),
      ...details(result, fb.trees),
      perQuery: result.perQuery,
    };
    console.log("\nper query (calls / round trips / hit):");
    for (const line of result.perQuery) {
      const cells = METHODS.map((m) => {
        const r = line[m] as Row;
        return `${m} ${r.calls}/${r.roundTrips}/${r.hit ? "hit" : "miss"}`;
      });
      console.log(`  ${String(line.id).padEnd(22)} ${cells.join("  ")}`);
    }
  }
  const dir = resolve(".bench-out");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "bench-retriever.json"), `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\nwrote ${join(dir, "bench-retriever.json")}`);
}

await main();
