// Tree store speed: for a generated 10,000-node tree, the time to store it, to open its
// skeleton cold (new store instance, nothing cached) and warm, and to fetch 10 node texts from
// an opened document and cold (a fresh store handle: head, skeleton, then the chunks), on
// each backend (InMemoryStore, FileByteStore, LangChain's LocalFileStore, Redis when a server
// answers at PAGEINDEX_TEST_REDIS_URL or redis://127.0.0.1:6379), next to the baseline of
// reading + JSON.parse of the whole tree as one file. Medians of a few repetitions, one run;
// reported as ratios to the baseline. Reads no corpus.
// Usage: pnpm -r --filter "./packages/**" run build && npx tsx scripts/bench-store.ts
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseStore } from "@langchain/core/stores";
import { InMemoryStore } from "@langchain/core/stores";
import { LocalFileStore } from "langchain/storage/file_system";
import { createTree, type NodeDraft, type TreeDocument } from "pageindex-core";
import { FileByteStore, PageIndexStore, RedisByteStore } from "pageindex-store";

const NODES = 10_000;
const BRANCHING = 6;
const TEXT_CHARS = 600;
const REDIS_URL = process.env.PAGEINDEX_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A deterministic tree: heap-shaped, pre-order ids, about TEXT_CHARS characters per node. */
function generateTree(): TreeDocument {
  const words = "revenue segment margin liability covenant lease goodwill impairment tax outlook".split(" ");
  let page = 0;
  const build = (i: number): NodeDraft => {
    page += 1;
    const text = Array.from({ length: TEXT_CHARS / 8 }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(
      " ",
    );
    const draft: NodeDraft = {
      title: `Section ${i}`,
      text,
      tokenCount: Math.ceil(text.length / 4),
      startPage: page,
      summary: `What section ${i} says about ${words[i % words.length]}.`,
    };
    const children: NodeDraft[] = [];
    for (let c = 1; c <= BRANCHING; c += 1)
      if (i * BRANCHING + c < NODES) children.push(build(i * BRANCHING + c));
    if (children.length > 0) draft.children = children;
    return draft;
  };
  const root = build(0);
  return createTree(
    {
      docId: "bench-10k",
      docName: "bench-10k.pdf",
      kind: "pdf",
      pageCount: page,
      build: { loader: "bench", structure: "outline" },
    },
    [root],
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function time(runs: number, fn: () => Promise<unknown> | unknown): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

interface Row {
  backend: string;
  store: number;
  cold: number;
  coldChecksum: number;
  warm: number;
  texts: number;
  textsCold: number;
}

async function measure(
  backend: string,
  open: () => Promise<BaseStore<string, Uint8Array>>,
  tree: TreeDocument,
) {
  const byteStore = await open();
  const writer = new PageIndexStore(byteStore);
  const store = await time(3, () => writer.addTree(tree)); // the 2nd and 3rd runs replace the tree
  const cold = await time(5, async () =>
    new PageIndexStore(await open(), { verifyOnRead: "full" }).getSkeleton(tree.docId),
  );
  const coldChecksum = await time(5, async () => new PageIndexStore(await open()).getSkeleton(tree.docId));
  const reader = new PageIndexStore(byteStore);
  await reader.getSkeleton(tree.docId);
  const warm = await time(20, () => reader.getSkeleton(tree.docId));
  // Ten nodes spread over the tree, as a query opening a few branches would pick.
  const ids = Array.from({ length: 10 }, (_, k) => tree.nodes[(k * 997 + 13) % NODES]?.nodeId as string);
  const fetchTexts = async (from: PageIndexStore) => {
    const got = await from.getNodeTexts(tree.docId, ids);
    if (got.size !== 10) throw new Error(`expected 10 texts, got ${got.size}`);
  };
  const texts = await time(5, () => fetchTexts(reader));
  // What a new process answering its first query pays (the default check of the skeleton).
  const textsCold = await time(5, async () => fetchTexts(new PageIndexStore(await open())));
  await writer.deleteDocument(tree.docId);
  return { backend, store, cold, coldChecksum, warm, texts, textsCold } satisfies Row;
}

async function main(): Promise<void> {
  const tree = generateTree();
  const dir = mkdtempSync(join(tmpdir(), "pageindex-bench-"));
  const rows: Row[] = [];
  try {
    const file = join(dir, "tree.json");
    const json = JSON.stringify(tree);
    writeFileSync(file, json);
    const baseline = await time(5, () => JSON.parse(readFileSync(file, "utf8")));
    console.log(
      `Tree: ${tree.nodes.length} nodes, ${(json.length / 1e6).toFixed(1)} MB as JSON. ` +
        `Baseline (readFile + JSON.parse of the whole tree): ${baseline.toFixed(1)} ms.\n`,
    );

    const memory = new InMemoryStore<Uint8Array>();
    rows.push(await measure("InMemoryStore", async () => memory, tree));
    rows.push(await measure("FileByteStore", () => FileByteStore.fromPath(join(dir, "fbs")), tree));
    rows.push(
      await measure("LangChain LocalFileStore", () => LocalFileStore.fromPath(join(dir, "lfs")), tree),
    );

    let redis: RedisByteStore | undefined;
    try {
      redis = await RedisByteStore.fromUrl(REDIS_URL, {
        prefix: `pageindex-bench:${process.pid}:`,
        connectTimeoutMs: 1500,
      });
    } catch (error) {
      console.log(`Redis skipped: ${(error as Error).message}\n`);
    }
    if (redis) {
      const shared = redis;
      try {
        rows.push(await measure("RedisByteStore", async () => shared, tree));
      } finally {
        await shared.close();
      }
    }

    const cell = (ms: number) =>
      `${ms.toFixed(ms < 10 ? 2 : 1)} ms (${(ms / baseline).toFixed(ms / baseline < 0.1 ? 3 : 2)}×)`;
    console.log(
      "| backend | store tree | skeleton cold, full validation | skeleton cold, checksum and structure (default) | skeleton warm | 10 node texts | 10 node texts, cold |",
    );
    console.log("|---|---|---|---|---|---|---|");
    console.log(
      `| baseline: JSON.parse whole tree | | ${cell(baseline)} | ${cell(baseline)} | | | ${cell(baseline)} |`,
    );
    for (const row of rows) {
      const cells = [row.store, row.cold, row.coldChecksum, row.warm, row.texts, row.textsCold].map(cell);
      console.log(`| ${row.backend} | ${cells.join(" | ")} |`);
    }
    console.log(
      "\nRatios are time ÷ baseline from this run; medians of 3 (store), 5 (cold, texts) or 20 (warm) runs. " +
        "Cold texts: a fresh store handle reads the head, the skeleton (the default check) and the chunks.",
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
