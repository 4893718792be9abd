import { countTokens, createTree, type NodeDraft, rootsOf, type TreeDocument } from "pageindex-core";
import { PageIndexRetriever, type PageIndexRetrieverInput } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { type LevelEntry, levelEntries } from "../src/search/groups.js";
import { annualReport, ID, judgeByTitle, offeredNodes, TAX_PATH } from "./support/fixtures.js";

const fast = { backoffMs: 1, timeoutMs: 2000 };

/** A one-word entry name per index ("kaaaa", "kaaab", …): the lexical judge can tell them apart. */
function fn(i: number): string {
  let out = "";
  for (let n = i, k = 0; k < 4; k += 1, n = Math.floor(n / 26))
    out = String.fromCharCode(97 + (n % 26)) + out;
  return `k${out}`;
}

/**
 * A reference manual: a preface, then one chapter of `width` one-page sections (each with two
 * subsections), the shape of a function reference whose chapter lists hundreds of entries.
 */
function referenceManual(width: number, docId = "ref-manual"): TreeDocument {
  const sections: NodeDraft[] = Array.from({ length: width }, (_, i) => {
    const page = 3 + i * 2;
    const name = fn(i);
    return {
      title: `${name}: computes the ${name} transform`,
      startPage: page,
      ownEndPage: page,
      text: `${name} computes a transform of its argument.`,
      tokenCount: 50,
      prefixSummary: `Reference entry for ${name}.`,
      children: [
        // Large enough that a section is opened, not returned whole (collapseBelowTokens).
        {
          title: "Arguments",
          startPage: page,
          endPage: page,
          text: `Arguments of ${name}.`,
          tokenCount: 200,
        },
        {
          title: "Examples",
          startPage: page + 1,
          endPage: page + 1,
          text: `Examples of ${name}.`,
          tokenCount: 200,
        },
      ],
    };
  });
  return createTree(
    {
      docId,
      docName: "Reference Manual",
      kind: "pdf",
      pageCount: 2 + width * 2,
      build: { loader: "test", structure: "outline" },
      createdAt: "2024-01-01T00:00:00.000Z",
    },
    [
      { title: "Preface", startPage: 1, endPage: 2, text: "About this manual." },
      { title: "Function reference", startPage: 3, ownEndPage: 3, text: "", children: sections },
    ],
  );
}

/** A judge that knows the answer's page: it picks every offered entry whose pages hold it. */
function pageJudge(page: number) {
  return (prompt: string) =>
    JSON.stringify({
      relevant: offeredNodes(prompt)
        .filter((n) => n.pages && n.pages[0] <= page && page <= n.pages[1])
        .map((n) => ({ id: n.id, score: 0.9, reason: "holds the page" })),
    });
}

/** Entries listed directly under each parent in an outline prompt (by indentation). */
function widestLevel(prompt: string): number {
  const toc = /<toc>\n([\s\S]*?)\n<\/toc>/.exec(prompt)?.[1] ?? "";
  const counts = new Map<string, number>();
  const stack: string[] = [];
  for (const line of toc.split("\n")) {
    const m = /^( *)\[([^\]]+)\]/.exec(line);
    if (!m) continue;
    const depth = (m[1] as string).length / 2;
    stack.length = depth;
    const parent = stack.slice(0, depth).join("/");
    counts.set(parent, (counts.get(parent) ?? 0) + 1);
    stack[depth] = m[2] as string;
  }
  return Math.max(0, ...counts.values());
}

function retriever(
  tree: TreeDocument,
  model: ScriptedChatModel,
  extra: Partial<PageIndexRetrieverInput> = {},
) {
  return new PageIndexRetriever({ trees: [tree], model, k: 3, ...fast, ...extra });
}

describe("sibling groups", () => {
  it("nest a level of 10,000 sections into balanced runs of at most fanOut, in order", () => {
    const tree = referenceManual(10_000);
    const chapter = rootsOf(tree)[1];
    if (!chapter) throw new Error("fixture");
    const children = chapter.childIds.map((id) =>
      tree.nodes.find((n) => n.nodeId === id),
    ) as typeof tree.nodes;
    const top = levelEntries(tree, chapter, children, 24);
    expect(top.length).toBeLessThanOrEqual(24);
    const ids = new Set<string>();
    let depth = 0;
    const flatten = (entries: LevelEntry[], d: number): string[] => {
      depth = Math.max(depth, d);
      expect(entries.length).toBeLessThanOrEqual(24);
      return entries.flatMap((e) => {
        if (e.kind === "node") return [e.node.nodeId];
        expect(ids.has(e.group.id)).toBe(false);
        ids.add(e.group.id);
        const sizes = e.group.members.map((m) => (m.kind === "node" ? 1 : m.group.nodes.length));
        expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1); // balanced
        return flatten(e.group.members, d + 1);
      });
    };
    expect(flatten(top, 1)).toEqual(chapter.childIds); // every section once, in document order
    expect(depth).toBe(3); // 24^3 >= 10,000 > 24^2
  });

  it("leave a level of at most fanOut sections as it is", () => {
    const tree = annualReport();
    expect(levelEntries(tree, null, rootsOf(tree), 24).every((e) => e.kind === "node")).toBe(true);
  });
});

describe("auto strategy (default with a model)", () => {
  it("asks once with the whole table of contents when it fits, and returns the deepest pick", async () => {
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
    const r = new PageIndexRetriever({ trees: [annualReport()], model, ...fast });
    const docs = await r.invoke("effective tax rate");
    expect(model.calls).toBe(1);
    expect(offeredNodes(model.prompts[0] as string)).toHaveLength(15);
    expect(docs[0]?.metadata).toMatchObject({ nodeId: ID.note12, strategy: "auto", judge: "llm" });
    // The trail runs through the sections shown above the pick.
    expect(docs[0]?.metadata.visited).toEqual(["0003", "0007", "0010", ID.note12]);
    expect(r.lastRun?.stats).toMatchObject({ calls: 1, roundTrips: 1, budgetExhausted: false });
  });

  it("offers a 300-wide level through groups: no level over fanOut, no prompt over budget, groups never returned", async () => {
    const tree = referenceManual(300);
    const page = 3 + 217 * 2 + 1; // the Examples of entry 217
    const model = new ScriptedChatModel([], { fallback: pageJudge(page) });
    const r = retriever(tree, model);
    const docs = await r.invoke(`an example of the ${fn(217)} transform`);
    expect(docs[0]?.metadata.title).toBe("Examples");
    expect(docs[0]?.metadata.path).toContain(`${fn(217)}: computes the ${fn(217)} transform`);
    for (const prompt of model.prompts) {
      expect(widestLevel(prompt)).toBeLessThanOrEqual(24);
      expect(countTokens(prompt)).toBeLessThanOrEqual(6000); // the default maxPromptTokens
    }
    expect(docs.every((d) => tree.nodes.some((n) => n.nodeId === d.metadata.nodeId))).toBe(true);
    expect(docs.flatMap((d) => d.metadata.visited).every((id) => !id.includes("~"))).toBe(true);
    expect(r.lastRun?.stats.roundTrips).toBeLessThanOrEqual(3);
  });

  it("reaches one of 10,000 siblings in a few round trips", async () => {
    const tree = referenceManual(10_000);
    const page = 3 + 7_777 * 2;
    const model = new ScriptedChatModel([], { fallback: pageJudge(page) });
    const r = retriever(tree, model);
    const docs = await r.invoke(`arguments of ${fn(7777)}`);
    expect(docs[0]?.metadata.title).toBe("Arguments");
    expect(docs[0]?.metadata.path).toContain(`${fn(7777)}: computes the ${fn(7777)} transform`);
    expect(r.lastRun?.stats.roundTrips).toBeLessThanOrEqual(5);
    for (const prompt of model.prompts) expect(widestLevel(prompt)).toBeLessThanOrEqual(24);
  });

  it("splits a level too large for one prompt across calls of one round trip, dropping nothing", async () => {
    const tree = referenceManual(60);
    const model = new ScriptedChatModel([], { fallback: pageJudge(3 + 41 * 2) });
    const r = retriever(tree, model, { maxPromptTokens: 900, fanOut: 60 });
    const docs = await r.invoke(`${fn(41)}`);
    expect(docs[0]?.metadata.path).toContain(`${fn(41)}: computes the ${fn(41)} transform`);
    const parts = model.prompts.filter((p) => /part \d+ of \d+/.test(p));
    expect(parts.length).toBeGreaterThan(1);
    // Every section of the wide chapter was offered in some part.
    const offered = new Set(parts.flatMap((p) => offeredNodes(p).map((n) => n.title)));
    expect([...offered].filter((t) => t.startsWith("k")).length).toBe(60);
  });

  it("stops at maxQueryTokens with the best found so far and says so", async () => {
    const tree = referenceManual(300);
    const model = new ScriptedChatModel([], { fallback: pageJudge(3 + 100 * 2) });
    const r = retriever(tree, model, { maxPromptTokens: 2500, lookaheadTokens: 2500, maxQueryTokens: 2500 });
    const docs = await r.invoke(`${fn(100)}`);
    expect(r.lastRun?.stats).toMatchObject({ budgetExhausted: true, budgetStop: "promptTokens" });
    expect(model.calls).toBe(1);
    // The group the judge chose stands in through its best lexical sections.
    expect(docs[0]?.metadata).toMatchObject({ budgetStopped: true });
    expect(docs[0]?.metadata.title).toMatch(new RegExp(`^${fn(100)}`));
  });

  it("stops at maxCalls", async () => {
    const model = new ScriptedChatModel([], { fallback: pageJudge(3 + 100 * 2) });
    const r = retriever(referenceManual(300), model, { maxCalls: 1 });
    await r.invoke(`${fn(100)}`);
    expect(model.calls).toBe(1);
    expect(r.lastRun?.stats).toMatchObject({ budgetExhausted: true, budgetStop: "calls" });
  });

  it("drops ids that were not offered and falls back lexically on unusable answers", async () => {
    const ids = new ScriptedChatModel([JSON.stringify({ relevant: [{ id: "9999" }, { id: ID.note12 }] })]);
    const first = retriever(annualReport(), ids);
    expect((await first.invoke("effective tax rate"))[0]?.metadata.nodeId).toBe(ID.note12);
    expect(first.lastRun?.warnings.join(" ")).toMatch(/dropped ids not offered \(9999\)/);

    const bad = new ScriptedChatModel(["no json", "still none", "nope"]); // one call and its 2 retries
    const second = retriever(annualReport(), bad, { k: 1 });
    const docs = await second.invoke("effective tax rate");
    expect(second.lastRun?.stats.fallbacks).toBe(1);
    expect(docs[0]?.metadata.judge).toBe("lexical-fallback");
    expect(docs[0]?.metadata.nodeId).toBe(ID.note12);
  });

  describe("a dead end (a picked section none of whose subsections is picked)", () => {
    const tree = referenceManual(300);
    const examples = /^ *\[([^\]]+)\] Examples/m;
    const judge = (prompt: string) =>
      prompt.includes("Second look")
        ? JSON.stringify({ relevant: [{ id: examples.exec(prompt)?.[1] ?? "?" }] })
        : new RegExp(`Opened: .*${fn(100)}`).test(prompt)
          ? JSON.stringify({ relevant: [] })
          : pageJudge(3 + 100 * 2)(prompt);
    // A small lookahead: each level is its own round trip (roots, chapter, group, entry 100).
    const options = { lookaheadTokens: 600, maxPromptTokens: 3000 };

    it("gets a second look, whose picks are followed", async () => {
      const model = new ScriptedChatModel([], { fallback: judge });
      const docs = await retriever(tree, model, options).invoke(`${fn(100)}`);
      expect(model.prompts.filter((p) => p.includes("Second look"))).toHaveLength(1);
      expect(docs[0]?.metadata.title).toBe("Examples");
      expect(docs[0]?.metadata.path).toContain(`${fn(100)}: computes the ${fn(100)} transform`);
    });

    it("is kept whole when no step is left for a second look", async () => {
      const model = new ScriptedChatModel([], { fallback: judge });
      const r = retriever(tree, model, { ...options, maxSteps: 4 });
      const docs = await r.invoke(`${fn(100)}`);
      expect(model.prompts.some((p) => p.includes("Second look"))).toBe(false);
      expect(docs[0]?.metadata).toMatchObject({ deadEnd: true, includesDescendants: true });
      expect(docs[0]?.metadata.title).toMatch(new RegExp(`^${fn(100)}`));
    });
  });

  it("puts the fixed instructions and the question before anything that varies (prompt caching)", async () => {
    const tree = referenceManual(300);
    const model = new ScriptedChatModel([], { fallback: pageJudge(3 + 217 * 2) });
    await retriever(tree, model, { maxPromptTokens: 3000 }).invoke(`${fn(217)}`);
    expect(model.calls).toBeGreaterThan(1);
    const prefix = (p: string) =>
      p.slice(0, p.indexOf(`Question: ${fn(217)}`) + `Question: ${fn(217)}`.length);
    expect(new Set(model.prompts.map(prefix)).size).toBe(1);
    expect(prefix(model.prompts[0] as string).length).toBeGreaterThan(500);
  });
});

describe("expand and beam with a level wider than fanOut", () => {
  it.each(["expand", "beam"] as const)(
    "%s offers the level through groups, one level a prompt",
    async (strategy) => {
      const tree = referenceManual(300);
      const model = new ScriptedChatModel([], { fallback: pageJudge(3 + 5 * 2) });
      const r = retriever(tree, model, { strategy });
      const docs = await r.invoke(`${fn(5)}`);
      expect(docs[0]?.metadata.path).toContain(`${fn(5)}: computes the ${fn(5)} transform`);
      for (const p of model.prompts) {
        const offered = offeredNodes(p);
        expect(offered.length).toBeLessThanOrEqual(24);
      }
      // roots, the chapter's 13 groups, one group's sections, then entry 5's subsections.
      expect(r.lastRun?.stats.roundTrips).toBe(4);
    },
  );
});
