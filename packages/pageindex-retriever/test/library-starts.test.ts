import { countTokens, createTree, type NodeDraft, type TreeDocument } from "pageindex-core";
import { type Judge, LexicalJudge, PageIndexRetriever } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { SectionLibraryReader } from "./support/library-reader.js";

const TOPICS = ["orchard", "vineyard", "pasture", "greenhouse", "apiary", "fishery", "forestry", "dairy"];

/** A manual about one topic: three chapters of three subsections each, pages numbered. */
function topicManual(topic: string, extra: NodeDraft[] = []): TreeDocument {
  let page = 1;
  const leaf = (title: string, text: string): NodeDraft => {
    page += 1;
    return { title, text, summary: text, startPage: page, endPage: page };
  };
  const chapter = (title: string, leaves: NodeDraft[]): NodeDraft => ({
    title,
    text: `${title} of the ${topic}.`,
    startPage: leaves[0]?.startPage as number,
    ownEndPage: leaves[0]?.startPage as number,
    children: leaves,
  });
  return createTree(
    {
      docId: `${topic}-manual`,
      docName: `${topic[0]?.toUpperCase()}${topic.slice(1)} Operations Manual`,
      kind: "pdf",
      pageCount: 20,
      description: `Running a ${topic}: planning, daily work, records.`,
      build: { loader: "test", structure: "outline" },
    },
    [
      chapter("Planning", [
        leaf("Site selection", `Choosing a site for the ${topic}: soil, water, access roads.`),
        leaf("Budget", `Yearly budget of the ${topic}: staff, tools, fuel.`),
        leaf("Permits", `Permits a ${topic} needs from the county.`),
      ]),
      chapter("Daily work", [
        leaf("Morning checks", `Walk the ${topic} at dawn and note anything unusual.`),
        leaf("Tools", `Tools used in the ${topic} and where they are stored.`),
        leaf("Staff rota", `Who works which shift at the ${topic}.`),
      ]),
      chapter("Records", [
        leaf("Logbook", `The ${topic} logbook records every inspection.`),
        leaf("Yearly report", `The yearly report summarises the ${topic} accounts.`),
        ...extra,
      ]),
    ],
  );
}

/** Eight manuals; the apiary's holds the one section about swarming bees. */
function library(): {
  reader: SectionLibraryReader;
  target: { docId: string; nodeId: string };
  trees: TreeDocument[];
} {
  const trees = TOPICS.map((t) =>
    t === "apiary"
      ? topicManual(t, [
          {
            title: "Swarm recovery",
            text: "When the bees swarm and leave the hive, catch the swarm cluster in a box at dusk.",
            summary: "Catching a swarm cluster that left the hive.",
            startPage: 19,
            endPage: 19,
          },
        ])
      : topicManual(t),
  );
  const apiary = trees.find((t) => t.docId === "apiary-manual") as TreeDocument;
  const swarm = apiary.nodes.find((n) => n.title === "Swarm recovery");
  return {
    reader: new SectionLibraryReader(trees),
    target: { docId: apiary.docId, nodeId: swarm?.nodeId as string },
    trees,
  };
}

/** The prompt id of the offered section whose line holds `title`. */
function offeredId(prompt: string, title: string): string | undefined {
  return new RegExp(String.raw`^\[(s\d+)\] .*${title}`, "m").exec(prompt)?.[1];
}

/** The prompt id of the offered document block whose name holds `name`. */
function offeredDocument(prompt: string, name: string): string | undefined {
  return new RegExp(String.raw`<toc doc="(d\d+)" name="[^"]*${name}`).exec(prompt)?.[1];
}

const QUESTION = "how do I catch a swarm of bees that left the hive";

describe("document choice from section evidence", () => {
  it("offers documents with their best sections and starts where the model picks", async () => {
    const { reader, target } = library();
    const model = new ScriptedChatModel([
      (prompt) => {
        const id = offeredId(prompt, "Swarm recovery");
        return JSON.stringify({ relevant: id ? [{ id, score: 0.9, reason: "swarm" }] : [] });
      },
    ]);
    const retriever = new PageIndexRetriever({ reader, model, k: 3, cache: false });
    const docs = await retriever.invoke(QUESTION);
    const prompt = model.prompts[0] as string;
    // Documents with a one-line description, sections with their ancestors, pages and summary.
    expect(prompt).toMatch(/Document: Apiary Operations Manual — Running a apiary/);
    expect(prompt).toMatch(/^\[s\d+\] Records › Swarm recovery \(p\. 19\)\n {4}Catching a swarm cluster/m);
    // One call: the picked leaf is the result, judged already.
    expect(model.calls).toBe(1);
    expect(retriever.lastRun?.stats.roundTrips).toBe(1);
    expect(docs[0]?.metadata).toMatchObject({ docId: target.docId, nodeId: target.nodeId, judge: "llm" });
    expect(retriever.lastRun?.docIds).toEqual([target.docId]);
    expect(retriever.lastRun?.documentRanking?.[0]?.docId).toBe(target.docId);
  });

  it("asks the model even when one document leads clearly (no lexical shortcut)", async () => {
    const { reader } = library();
    const model = new ScriptedChatModel([], { fallback: JSON.stringify({ relevant: [] }) });
    const retriever = new PageIndexRetriever({
      reader,
      model,
      documentSelection: "llm",
      documentMargin: 1.01,
      cache: false,
    });
    await retriever.invoke(QUESTION);
    expect(model.prompts[0]).toMatch(/^Question: how do I catch a swarm/m);
    expect(model.prompts[0]).toMatch(/Candidate documents:/);
    expect(retriever.lastRun?.stats.usage.byStep?.["choose-library"]?.calls).toBe(1);
  });

  it("opens a document picked without sections from its root", async () => {
    const { reader, target } = library();
    const model = new ScriptedChatModel([
      (prompt) => JSON.stringify({ relevant: [{ id: offeredDocument(prompt, "Apiary"), score: 0.8 }] }),
      (prompt) => {
        const id = /^ *\[(\d+)\] Swarm recovery/m.exec(prompt)?.[1];
        return JSON.stringify({ relevant: id ? [{ id, score: 0.9 }] : [] });
      },
    ]);
    const retriever = new PageIndexRetriever({ reader, model, k: 3, cache: false });
    const docs = await retriever.invoke(QUESTION);
    expect(model.prompts[1]).toMatch(/Opened: the top level of the document/);
    expect(model.prompts[1]).toMatch(/Document: Apiary Operations Manual/);
    expect(docs[0]?.metadata).toMatchObject({ docId: target.docId, nodeId: target.nodeId });
    expect(retriever.lastRun?.stats.roundTrips).toBe(2);
  });

  it("opens only the narrower of two nested picks, and caches the choice", async () => {
    const { reader, target } = library();
    const model = new ScriptedChatModel([
      (prompt) => {
        const chapter = /^\[(s\d+)\] Records \(/m.exec(prompt)?.[1];
        const leaf = offeredId(prompt, "Swarm recovery");
        return JSON.stringify({ relevant: [{ id: chapter }, { id: leaf }] });
      },
    ]);
    const retriever = new PageIndexRetriever({ reader, model, k: 3 });
    const question = "records of a bee swarm";
    const docs = await retriever.invoke(question);
    expect(model.prompts[0]).toMatch(/^\[s\d+\] Records \(/m);
    // The chapter holding the picked leaf is not opened: one call (the script has one turn).
    expect(model.calls).toBe(1);
    expect(docs[0]?.metadata.nodeId).toBe(target.nodeId);
    const again = await retriever.invoke(question);
    expect(model.calls).toBe(1);
    expect(retriever.lastRun?.stats.cacheHits).toBe(1);
    expect(again[0]?.metadata.nodeId).toBe(target.nodeId);
  });

  it("returns a section picked for its own text, and opens a wider pick scored clearly above the narrower", async () => {
    const { reader } = library();
    const apiary = await reader.getSkeleton("apiary-manual");
    const records = apiary.nodes.find((n) => n.title === "Records");
    const logbook = apiary.nodes.find((n) => n.title === "Logbook");
    // "Records" with its own text picked ("self"): a result, and opened for its subsections.
    const self = new ScriptedChatModel(
      [
        (prompt) =>
          JSON.stringify({
            relevant: [{ id: /^\[(s\d+)\] Records \(/m.exec(prompt)?.[1], score: 0.8, self: true }],
          }),
      ],
      { fallback: JSON.stringify({ relevant: [] }) },
    );
    const retriever = new PageIndexRetriever({ reader, model: self, k: 3, cache: false });
    const docs = await retriever.invoke("records of a bee swarm");
    expect(docs[0]?.metadata).toMatchObject({ nodeId: records?.nodeId, judge: "llm" });
    // Its own text, not its subsections'.
    expect(docs[0]?.pageContent).toContain("Records of the apiary");
    expect(docs[0]?.pageContent).not.toContain("logbook records every inspection");
    expect(self.prompts[1]).toMatch(/Opened: .*Records/);

    // "Records" at 0.8 beside its "Logbook" at 0.4: the model means the whole chapter.
    const wider = new ScriptedChatModel(
      [
        (prompt) =>
          JSON.stringify({
            relevant: [
              { id: /^\[(s\d+)\] Records \(/m.exec(prompt)?.[1], score: 0.8 },
              { id: offeredId(prompt, "Logbook"), score: 0.4 },
            ],
          }),
      ],
      { fallback: JSON.stringify({ relevant: [] }) },
    );
    const both = new PageIndexRetriever({ reader, model: wider, k: 3, cache: false });
    const found = await both.invoke("records of a bee swarm in the logbook");
    expect(wider.prompts[0]).toMatch(/^\[s\d+\] Records › Logbook/m);
    expect(wider.prompts[1]).toMatch(/Opened: .*Records/);
    expect(found.some((d) => d.metadata.nodeId === logbook?.nodeId)).toBe(true);
  });

  it("lists a small document's other sections by title, and starts at the one the model picks", async () => {
    const { reader } = library();
    const apiary = await reader.getSkeleton("apiary-manual");
    const permits = apiary.nodes.find((n) => n.title === "Permits");
    const model = new ScriptedChatModel([
      (prompt) => {
        const block = /<toc doc="d\d+" name="Apiary[^"]*"[^>]*>([\s\S]*?)<\/toc>/.exec(prompt)?.[1] ?? "";
        const id = /^\[(s\d+)\] Permits$/m.exec(block)?.[1];
        return JSON.stringify({ relevant: id ? [{ id, score: 0.9, reason: "permits" }] : [] });
      },
    ]);
    const retriever = new PageIndexRetriever({ reader, model, k: 3, cache: false });
    const docs = await retriever.invoke("do I need paperwork to keep a swarm of bees in the hive");
    const prompt = model.prompts[0] as string;
    // The apiary manual (13 sections): its matched sections, then the others by title.
    expect(prompt).toMatch(/Its other sections:\n(\[s\d+\] [^\n]+\n)*\[s\d+\] Permits\n/);
    expect(model.calls).toBe(1);
    expect(docs[0]?.metadata).toMatchObject({
      docId: "apiary-manual",
      nodeId: permits?.nodeId,
      judge: "llm",
    });
  });

  it("does not search a document picked only weakly beside a strong pick", async () => {
    const { reader, target } = library();
    const model = new ScriptedChatModel([
      (prompt) =>
        JSON.stringify({
          relevant: [
            { id: offeredId(prompt, "Swarm recovery"), score: 0.9 },
            { id: offeredDocument(prompt, "Orchard"), score: 0.2 },
          ],
        }),
    ]);
    const retriever = new PageIndexRetriever({ reader, model, k: 3, cache: false });
    await retriever.invoke("swarm in the logbook");
    expect(model.prompts[0]).toMatch(/name="Orchard Operations Manual"/);
    expect(retriever.lastRun?.docIds).toEqual([target.docId]);
    expect(retriever.lastRun?.documentRanking?.some((r) => r.docId === "orchard-manual")).toBe(true);
    expect(model.calls).toBe(1);
  });

  it("falls back lexically, with a warning, when the answer is garbage", async () => {
    const { reader, target } = library();
    const model = new ScriptedChatModel(["I would look in the bee manual, probably."], {
      fallback: JSON.stringify({ relevant: [] }),
    });
    const retriever = new PageIndexRetriever({ reader, model, retries: 0, k: 3, cache: false });
    const docs = await retriever.invoke(QUESTION);
    const run = retriever.lastRun;
    expect(run?.warnings.some((w) => w.startsWith("library choice unusable"))).toBe(true);
    expect(run?.stats.fallbacks).toBeGreaterThanOrEqual(1);
    expect(run?.docIds[0]).toBe(target.docId);
    // Every later judgment said "nothing": the library's matches still answer.
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.some((d) => d.metadata.nodeId === target.nodeId)).toBe(true);
  });

  it("drops ids that were not offered, a real document that was not offered included", async () => {
    const { reader, target } = library();
    // "dairy-manual" exists in the library but matches no word of the question: never offered.
    const model = new ScriptedChatModel(
      [JSON.stringify({ relevant: [{ id: "s999" }, { id: "dairy-manual" }, { id: "d42" }] })],
      { fallback: JSON.stringify({ relevant: [] }) },
    );
    const retriever = new PageIndexRetriever({ reader, model, k: 3, cache: false });
    const docs = await retriever.invoke(QUESTION);
    const run = retriever.lastRun;
    expect(model.prompts[0]).not.toMatch(/Dairy/);
    expect(run?.warnings.some((w) => w.includes("dropped ids not offered (s999, dairy-manual, d42)"))).toBe(
      true,
    );
    expect(run?.docIds).not.toContain("dairy-manual");
    expect(docs.every((d) => d.metadata.docId !== "dairy-manual")).toBe(true);
    expect(docs.some((d) => d.metadata.nodeId === target.nodeId)).toBe(true);
  });

  it("keeps the offered picks beside an id that was not offered", async () => {
    const { reader, target } = library();
    const model = new ScriptedChatModel([
      (prompt) =>
        JSON.stringify({
          relevant: [{ id: "dairy-manual" }, { id: offeredId(prompt, "Swarm recovery"), score: 0.9 }],
        }),
    ]);
    const retriever = new PageIndexRetriever({ reader, model, k: 3, cache: false });
    const docs = await retriever.invoke(QUESTION);
    expect(retriever.lastRun?.docIds).toEqual([target.docId]);
    expect(docs[0]?.metadata.nodeId).toBe(target.nodeId);
  });

  /**
   * Twelve manuals whose logbooks all log bee swarms; the pond manual's visitors' section, the
   * one that answers, names a swarm once, so it ranks below the first page of candidates.
   */
  function crowdedLibrary(): { reader: SectionLibraryReader; target: { docId: string; nodeId: string } } {
    const topics = [...TOPICS, "hatchery", "stable", "kennel", "mill", "pond"];
    const trees = topics.map((t) =>
      topicManual(
        t,
        t === "pond"
          ? [{ title: "Visitors", text: "A swarm once passed over the pond.", startPage: 19, endPage: 19 }]
          : [
              {
                title: "Swarm log",
                text: `Bee swarm seen at the ${t}: the swarm of bees settled near the hive box; swarm logged.`,
                startPage: 19,
                endPage: 19,
              },
            ],
      ),
    );
    const pond = trees.find((t) => t.docId === "pond-manual") as TreeDocument;
    const visitors = pond.nodes.find((n) => n.title === "Visitors");
    return {
      reader: new SectionLibraryReader(trees),
      target: { docId: pond.docId, nodeId: visitors?.nodeId as string },
    };
  }
  const SWARM = "what to do about a swarm of bees";
  /** The model's "nothing fits", with the words the answering section would use. */
  const SEARCH_POND = JSON.stringify({ relevant: [], search: "swarm passed over the pond" });
  /** A scripted answer picking the pond manual's "Visitors" section (nothing when not offered). */
  const pickVisitors =
    (score: number, extra: { self?: boolean } = {}) =>
    (prompt: string) => {
      const id = offeredId(prompt, "Visitors");
      return JSON.stringify({ relevant: id ? [{ id, score, reason: "passing swarm", ...extra }] : [] });
    };

  it("looks at the next candidates when the model picks none of the first", async () => {
    const { reader, target } = crowdedLibrary();
    const model = new ScriptedChatModel([pickVisitors(0.9), pickVisitors(0.9)]);
    const retriever = new PageIndexRetriever({ reader, model, k: 3, cache: false });
    const docs = await retriever.invoke(SWARM);
    // The pond manual is not on the first page of candidates; it is on the second. Only the
    // first prompt says that more candidates follow an empty answer.
    expect(model.prompts[0]).not.toMatch(/name="Pond Operations Manual"/);
    expect(model.prompts[1]).toMatch(/name="Pond Operations Manual"/);
    expect(model.prompts[0]).toMatch(/answer with an empty list and put in "search" the words/);
    expect(model.prompts[1]).not.toMatch(/the next candidates are listed/);
    expect(model.calls).toBe(2);
    expect(retriever.lastRun?.stats.roundTrips).toBe(2);
    expect(docs[0]?.metadata).toMatchObject({ docId: target.docId, nodeId: target.nodeId, judge: "llm" });
  });

  it("keeps the near misses of both pages when neither holds a strong pick", async () => {
    const { reader } = crowdedLibrary();
    const nearMiss = (prompt: string) =>
      JSON.stringify({ relevant: [{ id: offeredId(prompt, "Swarm log"), score: 0.2, reason: "maybe" }] });
    const model = new ScriptedChatModel([nearMiss, nearMiss], { fallback: JSON.stringify({ relevant: [] }) });
    const retriever = new PageIndexRetriever({ reader, model, k: 3, maxDocuments: 2, cache: false });
    await retriever.invoke(SWARM);
    const first = /<toc doc="d1" name="([^"]*)"/.exec(model.prompts[0] as string)?.[1];
    const second = /<toc doc="d1" name="([^"]*)"/.exec(model.prompts[1] as string)?.[1];
    expect(retriever.lastRun?.stats.usage.byStep?.["choose-library"]?.calls).toBe(2);
    // Both near misses searched: one document from each page.
    const searched = retriever.lastRun?.docIds.map((id) => id.replace("-manual", "")) ?? [];
    expect(searched).toHaveLength(2);
    expect(first?.toLowerCase()).toContain(searched[0]);
    expect(second?.toLowerCase()).toContain(searched[1]);
  });

  it("searches the library again with the model's words for the second look", async () => {
    const { reader, target } = crowdedLibrary();
    const model = new ScriptedChatModel([
      // Nothing fits: the model says what the answering section would talk about.
      SEARCH_POND,
      pickVisitors(0.9),
    ]);
    const retriever = new PageIndexRetriever({ reader, model, k: 3, cache: false });
    const docs = await retriever.invoke(SWARM);
    // The pond manual, last of the first search, comes first on the second page.
    expect(model.prompts[1]).toMatch(/<toc doc="d1" name="Pond Operations Manual"/);
    expect(model.prompts[1]).toMatch(/^\[s\d+\] Records › Visitors/m);
    expect(retriever.lastRun?.stats.roundTrips).toBe(2);
    expect(docs[0]?.metadata).toMatchObject({ docId: target.docId, nodeId: target.nodeId });
  });

  it("weighs unsure picks against the candidates the model's words find, keeping the surer choice", async () => {
    const { reader, target } = crowdedLibrary();
    const unsure = (prompt: string) =>
      JSON.stringify({
        relevant: [{ id: offeredId(prompt, "Swarm log"), score: 0.5, reason: "maybe" }],
        search: "swarm passed over the pond",
      });
    // The second look is surer: its pick wins.
    const surer = new ScriptedChatModel([unsure, pickVisitors(0.9)]);
    const docs = await new PageIndexRetriever({ reader, model: surer, k: 3, cache: false }).invoke(SWARM);
    expect(surer.prompts[0]).toMatch(/Give "search" too when no pick of yours scores above 0.7/);
    expect(surer.prompts[1]).toMatch(/<toc doc="d1" name="Pond Operations Manual"/);
    expect(docs[0]?.metadata).toMatchObject({ docId: target.docId, nodeId: target.nodeId });

    // The second look is less sure: the first choice stays.
    const lessSure = new ScriptedChatModel([unsure, pickVisitors(0.4)], {
      fallback: JSON.stringify({ relevant: [] }),
    });
    const retriever = new PageIndexRetriever({ reader, model: lessSure, k: 3, cache: false });
    await retriever.invoke(SWARM);
    expect(lessSure.prompts[1]).toMatch(/name="Pond Operations Manual"/);
    expect(retriever.lastRun?.docIds).not.toContain(target.docId);

    // A sure pick takes no second look, search words or not.
    const sure = new ScriptedChatModel([
      (prompt) =>
        JSON.stringify({ relevant: [{ id: offeredId(prompt, "Swarm log"), score: 0.9 }], search: "pond" }),
    ]);
    const once = new PageIndexRetriever({ reader, model: sure, k: 3, cache: false });
    await once.invoke(SWARM);
    expect(once.lastRun?.stats.usage.byStep?.["choose-library"]?.calls).toBe(1);
  });

  it("keeps the model's search words and self picks in the judgment cache", async () => {
    const { reader, target } = crowdedLibrary();
    const model = new ScriptedChatModel([SEARCH_POND, pickVisitors(0.9, { self: true })]);
    const retriever = new PageIndexRetriever({ reader, model, k: 3 });
    const first = await retriever.invoke(SWARM);
    const again = await retriever.invoke(SWARM);
    expect(model.calls).toBe(2);
    expect(retriever.lastRun?.stats.cacheHits).toBe(2);
    expect(again.map((d) => d.metadata.nodeId)).toEqual(first.map((d) => d.metadata.nodeId));
    expect(again[0]?.metadata.nodeId).toBe(target.nodeId);
  });

  it("takes no second look after an unusable answer, and warns when the model picks nothing", async () => {
    const { reader, target } = crowdedLibrary();
    const garbage = new ScriptedChatModel(["The pond, I think."], {
      fallback: JSON.stringify({ relevant: [] }),
    });
    const retriever = new PageIndexRetriever({ reader, model: garbage, retries: 0, k: 3, cache: false });
    await retriever.invoke(SWARM);
    expect(retriever.lastRun?.stats.usage.byStep?.["choose-library"]?.calls).toBe(1);
    expect(retriever.lastRun?.warnings.some((w) => w.startsWith("library choice unusable"))).toBe(true);

    const none = new ScriptedChatModel([], { fallback: JSON.stringify({ relevant: [] }) });
    const quiet = new PageIndexRetriever({ reader, model: none, k: 3, cache: false });
    const docs = await quiet.invoke(SWARM);
    expect(quiet.lastRun?.stats.usage.byStep?.["choose-library"]?.calls).toBe(2);
    expect(quiet.lastRun?.stats.fallbacks).toBe(0);
    expect(quiet.lastRun?.warnings).toContain(
      "library choice: the model picked none of the 13 candidate documents offered; searching the best one lexically chosen",
    );
    expect(quiet.lastRun?.docIds).toHaveLength(1);
    // Chosen lexically, never empty.
    expect(docs.length).toBeGreaterThan(0);
    expect(target.docId).toBe("pond-manual");
  });

  it("offline: searches the best documents separately and ranks their sections by the library's evidence", async () => {
    // A handbook whose every chapter says "frost" leads the document ranking; the answer is one
    // section of another manual that matches the whole question.
    const handbook = createTree(
      {
        docId: "frost-handbook",
        docName: "Frost Handbook",
        kind: "pdf",
        pageCount: 6,
        description: "Frost in farming.",
        build: { loader: "test", structure: "outline" },
      },
      [
        "Frost forecast",
        "Start of the frost season",
        "Frost protection",
        "When frost starts",
        "Frost and wind",
      ].map((title, i) => ({
        title,
        text: `${title}: frost frost in the fields, season ${i}.`,
        startPage: i + 1,
        endPage: i + 1,
      })),
    );
    const vineyard = topicManual("vineyard", [
      {
        title: "Starting the wind machines against frost",
        text: "Start the wind machines when a radiation frost is forecast: they mix warm air into the vines.",
        summary: "Wind machines protect vines from radiation frost.",
        startPage: 19,
        endPage: 19,
      },
    ]);
    const reader = new SectionLibraryReader([
      handbook,
      vineyard,
      ...["orchard", "pasture", "dairy"].map((t) => topicManual(t)),
    ]);
    // Small subtrees are not returned whole here, so the section itself must be found.
    const retriever = new PageIndexRetriever({ reader, k: 3, cache: false, collapseBelowTokens: 0 });
    const docs = await retriever.invoke("when should I start the wind machines against frost");
    const run = retriever.lastRun;
    expect(run?.documentRanking?.[0]?.docId).toBe("frost-handbook");
    expect(run?.docIds).toEqual(expect.arrayContaining(["frost-handbook", "vineyard-manual"]));
    expect(docs[0]?.metadata).toMatchObject({
      docId: "vineyard-manual",
      title: "Starting the wind machines against frost",
    });
    expect(docs[0]?.metadata.reason).toMatch(/library evidence/);
  });

  it("offline: finds the section and is never empty", async () => {
    const { reader, target } = library();
    // Small subtrees are not returned whole here, so the section itself must be found.
    const retriever = new PageIndexRetriever({ reader, k: 3, cache: false, collapseBelowTokens: 0 });
    const docs = await retriever.invoke(QUESTION);
    expect(retriever.lastRun?.documentRanking?.[0]?.docId).toBe(target.docId);
    expect(docs[0]?.metadata).toMatchObject({ docId: target.docId, nodeId: target.nodeId });
    // A judge that rejects every section it is shown: the library's matches stand in.
    const lexical = new LexicalJudge();
    const rejecting: Judge = {
      usesModel: false,
      async judgeSiblings(request) {
        const verdicts = request.candidates.map((c) => ({
          nodeId: c.nodeId,
          relevant: false,
          score: 0,
          reason: "no",
        }));
        return { judgment: { verdicts, judge: "lexical" }, roundTrips: 0 };
      },
      async judgeOutline() {
        return { judgment: { verdicts: [], judge: "lexical" }, roundTrips: 0 };
      },
      chooseDocuments: (request, run) => lexical.chooseDocuments(request, run),
    };
    const strict = new PageIndexRetriever({ reader, k: 3, cache: false, judge: rejecting });
    const rescued = await strict.invoke("swarm");
    expect(strict.lastRun?.warnings.some((w) => w.startsWith("the search found nothing"))).toBe(true);
    expect(rescued.length).toBeGreaterThan(0);
    expect(rescued[0]?.metadata.docId).toBe(target.docId);
  });

  it("offline: searches a copy of a document already chosen in place of the next document", async () => {
    const { trees, target } = library();
    const apiary = trees.find((t) => t.docId === target.docId) as TreeDocument;
    // The same manual stored a second time (another edition): the same sections, another id.
    const copy: TreeDocument = {
      ...apiary,
      docId: "apiary-manual-a4",
      docName: "Apiary Operations Manual (A4)",
    };
    const reader = new SectionLibraryReader([...trees, copy]);
    const retriever = new PageIndexRetriever({ reader, k: 3, cache: false });
    // Every manual has a logbook: the library ranks them all.
    const docs = await retriever.invoke(`${QUESTION}, and note it in the logbook`);
    const run = retriever.lastRun;
    const ranked = run?.documentRanking?.map((r) => r.docId) ?? [];
    expect(ranked.slice(0, 2).sort()).toEqual([target.docId, copy.docId].sort());
    // One of the two is searched, and the third document searched is the next one ranked.
    expect(run?.docIds).toEqual([ranked[0], ranked[2], ranked[3]]);
    // Its pages are not returned a second time under the copy's id.
    expect(docs.some((d) => d.metadata.docId === ranked[1])).toBe(false);
  });

  it("counts the library only when its search returned no more documents than it searches", async () => {
    const { reader, target } = library();
    let counts = 0;
    const listDocuments = reader.listDocuments.bind(reader);
    reader.listDocuments = ((page?: Parameters<typeof listDocuments>[0]) => {
      counts += 1;
      return listDocuments(page as Parameters<typeof listDocuments>[0]);
    }) as typeof reader.listDocuments;
    const retriever = new PageIndexRetriever({ reader, k: 3, cache: false });
    await retriever.invoke("yearly budget for staff and fuel"); // every manual has a Budget section
    expect(counts).toBe(0);
    expect(retriever.lastRun?.documentRanking?.length).toBe(TOPICS.length);
    const docs = await retriever.invoke("swarm"); // one manual: is the library larger than three?
    expect(counts).toBe(1);
    expect(docs[0]?.metadata.docId).toBe(target.docId);
  });

  it("fits 50 candidate documents within the prompt budget, best first", async () => {
    const long = "sediment ".repeat(120);
    const trees = Array.from({ length: 50 }, (_, i) =>
      createTree(
        {
          docId: `report-${i}`,
          docName: `River report ${i}`,
          kind: "pdf",
          pageCount: 5,
          description: `Survey ${i} of the river. ${long}`,
          build: { loader: "test", structure: "outline" },
        },
        [1, 2, 3, 4, 5].map((s) => ({
          title: `Sediment survey ${s}${i === 7 ? " of the dam outflow" : ""}`,
          text: `Sediment measured at station ${s}. ${i === 7 ? "dam outflow dam outflow" : ""}`,
          summary: `Sediment at station ${s}: ${long}`,
          startPage: s,
          endPage: s,
        })),
      ),
    );
    const reader = new SectionLibraryReader(trees);
    const model = new ScriptedChatModel([], { fallback: JSON.stringify({ relevant: [] }) });
    const maxPromptTokens = 2500;
    const retriever = new PageIndexRetriever({
      reader,
      model,
      maxPromptTokens,
      documentCandidates: 50,
      cache: false,
    });
    await retriever.invoke("sediment below the dam outflow");
    const prompt = model.prompts[0] as string;
    expect(countTokens(prompt)).toBeLessThanOrEqual(maxPromptTokens);
    const offered = [...prompt.matchAll(/<toc doc="d\d+" name="River report (\d+)"/g)].map((m) => m[1]);
    expect(offered[0]).toBe("7");
    expect(offered.length).toBeGreaterThan(1);
    expect(offered.length).toBeLessThan(50);
    expect(retriever.lastRun?.stats.documentsConsidered).toBe(50);
  });
});
