/**
 * What every library index (SQLite, PostgreSQL, in memory) must do: call
 * {@link libraryBehaviour} inside a `describe` with a factory that opens a fresh, empty index.
 */

import { createTree, type NodeDraft, type TreeDocument } from "pageindex-core";
import { afterEach, expect, it } from "vitest";
import { libraryEntry } from "../src/library/entry.js";
import { LibrarySync } from "../src/library/sync.js";
import type { LibraryEntry, LibraryIndex } from "../src/library/types.js";

/** Opens a fresh, empty library index. */
export type LibraryFactory = () => Promise<LibraryIndex>;

/** A tree from drafts, with document-level extras. */
export function libraryTree(
  docId: string,
  roots: NodeDraft[],
  extra: { metadata?: Record<string, unknown>; description?: string; docName?: string; kind?: "pdf" } = {},
): TreeDocument {
  return createTree(
    {
      docId,
      docName: extra.docName ?? `${docId}.md`,
      kind: extra.kind ?? "markdown",
      ...(extra.kind === "pdf" ? { pageCount: 40 } : { lineCount: 40 }),
      build: { loader: "test", structure: "headings" },
      createdAt: "2025-01-02T03:04:05.000Z",
      ...(extra.metadata ? { metadata: extra.metadata } : {}),
      ...(extra.description ? { description: extra.description } : {}),
    },
    roots,
  );
}

/** A leaf draft with a title and a text (token count given, so no tokenizer runs). */
const leaf = (title: string, text: string, more: Partial<NodeDraft> = {}): NodeDraft => ({
  title,
  text,
  tokenCount: Math.ceil(text.length / 4),
  ...more,
});

/** A document of a few sections about `topic`, filler for the ranking tests. */
function topicEntry(
  docId: string,
  topic: string,
  extra: Parameters<typeof libraryTree>[2] = {},
): LibraryEntry {
  return libraryEntry(
    libraryTree(
      docId,
      [
        leaf(`Introduction to ${topic}`, `This guide covers ${topic} for everyday use.`),
        leaf(`Using ${topic}`, `Steps for working with ${topic} and its settings.`),
      ],
      extra,
    ),
    `v-${docId}-1`,
  );
}

const docIds = (hits: ReadonlyArray<{ docId: string }>) => hits.map((h) => h.docId);

/**
 * A library where each of two words fills more sections than a small candidate budget: 12
 * documents about widgets, 12 about sprockets, written first, then the one document whose
 * section holds both ("both"), and 3 about okapis (a rare word). Written in that order, so an
 * engine reading the first rows holding a word (a LIMIT over a posting list) meets the answer
 * last.
 */
export function crowdedLibrary(): LibraryEntry[] {
  const one = (docId: string, word: string) =>
    libraryEntry(
      libraryTree(docId, [leaf(`${word} care`, `How to clean a ${word} and oil the ${word}.`)]),
      `v-${docId}`,
    );
  return [
    ...Array.from({ length: 12 }, (_, i) => one(`widget-${i}`, "Widget")),
    ...Array.from({ length: 12 }, (_, i) => one(`sprocket-${i}`, "Sprocket")),
    libraryEntry(
      libraryTree("both", [
        leaf("Mounting", "Parts of the frame."),
        leaf("Widget alignment", "Line the widget up with the sprocket teeth."),
      ]),
      "v-both",
    ),
    ...Array.from({ length: 3 }, (_, i) => one(`okapi-${i}`, "Okapi")),
  ];
}

/**
 * Four documents whose section holds two of "widget", "sprocket", "okapi", then the one whose
 * section holds all three ("all-three"): with a budget of 2, the rows holding two overflow it.
 */
export function pairedLibrary(): LibraryEntry[] {
  const pairs = ["widget sprocket", "sprocket okapi", "widget okapi", "okapi widget"];
  const doc = (docId: string, words: string) =>
    libraryEntry(libraryTree(docId, [leaf(`Notes on ${words}`, `Some ${words} facts.`)]), `v-${docId}`);
  return [...pairs.map((words, i) => doc(`pair-${i}`, words)), doc("all-three", "widget sprocket okapi")];
}

export function libraryBehaviour(open: LibraryFactory): void {
  const opened: LibraryIndex[] = [];
  const fresh = async (): Promise<LibraryIndex> => {
    const index = await open();
    opened.push(index);
    return index;
  };
  afterEach(async () => {
    for (const index of opened.splice(0)) await index.close();
  });

  it("puts, replaces and removes documents: cards, sections, versions and counts follow", async () => {
    const index = await fresh();
    expect(await index.count()).toBe(0);
    await index.putDocument(topicEntry("volcanoes", "magma"));
    await index.putDocument(topicEntry("glaciers", "moraine"));
    expect(await index.count()).toBe(2);
    expect(docIds(await index.searchLibrary("magma"))).toEqual(["volcanoes"]);
    expect(await index.indexedVersions()).toEqual(
      new Map([
        ["glaciers", "v-glaciers-1"],
        ["volcanoes", "v-volcanoes-1"],
      ]),
    );

    // Replacing drops the old sections: nothing of version 1 is found any more.
    const replaced = libraryEntry(
      libraryTree("volcanoes", [leaf("Tephra fallout", "Ash and tephra.")]),
      "v2",
    );
    await index.putDocument(replaced);
    expect(await index.count()).toBe(2);
    expect(await index.searchLibrary("magma")).toEqual([]);
    expect(docIds(await index.searchLibrary("tephra"))).toEqual(["volcanoes"]);
    expect((await index.getCard("volcanoes"))?.versionId).toBe("v2");
    expect((await index.indexedVersions()).get("volcanoes")).toBe("v2");

    await index.removeDocument("volcanoes");
    await index.removeDocument("volcanoes"); // absent: a no-op
    await index.removeDocument("never-there");
    expect(await index.count()).toBe(1);
    expect(await index.getCard("volcanoes")).toBeUndefined();
    expect(await index.searchLibrary("tephra")).toEqual([]);
    expect(await index.searchSections("tephra")).toEqual([]);
    expect((await index.listDocuments({})).documents.map((c) => c.docId)).toEqual(["glaciers"]);
  });

  it("puts many documents at once, the last entry of a docId winning", async () => {
    const index = await fresh();
    await index.putDocuments([
      topicEntry("a", "anchovy"),
      topicEntry("b", "barnacle"),
      libraryEntry(libraryTree("a", [leaf("Albatross", "Albatross flight.")]), "v-a-2"),
    ]);
    await index.putDocuments([]);
    expect(await index.count()).toBe(2);
    expect(await index.searchLibrary("anchovy")).toEqual([]);
    expect(docIds(await index.searchLibrary("albatross barnacle")).sort()).toEqual(["a", "b"]);
    expect((await index.indexedVersions()).get("a")).toBe("v-a-2");
    // Replacing and removing in batches keeps the document count (and the listing's total) exact.
    await index.putDocuments([topicEntry("b", "bream"), topicEntry("c", "cormorant")]);
    await index.removeDocument("a");
    await index.removeDocument("a");
    expect(await index.count()).toBe(2);
    expect((await index.listDocuments({ limit: 0 })).total).toBe(2);
    expect((await index.listDocuments({ limit: 0, filter: { kind: "markdown" } })).total).toBe(2);
  });

  it("records intents until the write they announce lands, or is cleared", async () => {
    const index = await fresh();
    expect(await index.pending()).toEqual(new Map());
    await index.begin("written", "v1");
    await index.begin("deleted");
    await index.begin("abandoned", "v9");
    await index.begin("written", "v2"); // a second writer of the same document: both intents kept
    expect(await index.pending()).toEqual(
      new Map<string, Array<string | undefined>>([
        ["abandoned", ["v9"]],
        ["deleted", [undefined]],
        ["written", ["v1", "v2"]],
      ]),
    );
    await index.putDocument(libraryEntry(libraryTree("written", [leaf("Kestrel", "Kestrel notes.")]), "v2"));
    await index.removeDocument("deleted");
    await index.clear("abandoned", "v9");
    await index.clear("nothing-pending");
    // v1's writer has not finished: its intent stays.
    expect(await index.pending()).toEqual(new Map([["written", ["v1"]]]));
    await index.clear("written", "v1");
    expect(await index.pending()).toEqual(new Map());
    // Clearing changed nothing indexed.
    expect(await index.count()).toBe(1);
    expect(await index.getCard("abandoned")).toBeUndefined();
  });

  it("records a wave's intents at once (beginAll where the engine has it) as one begin each would", async () => {
    const index = await fresh();
    const sync = new LibrarySync(index, (problem) => {
      throw problem;
    });
    await index.begin("kept", "v0");
    await sync.beginAll([
      { docId: "kept", versionId: "v1" }, // beside the earlier intent (another writer's)
      { docId: "gone" },
      { docId: "new", versionId: "v7" },
    ]);
    await sync.beginAll([]);
    expect(await index.pending()).toEqual(
      new Map<string, Array<string | undefined>>([
        ["gone", [undefined]],
        ["kept", ["v0", "v1"]],
        ["new", ["v7"]],
      ]),
    );
    await index.putDocuments([
      libraryEntry(libraryTree("kept", [leaf("Kestrel", "Kestrel notes.")]), "v1"),
      libraryEntry(libraryTree("new", [leaf("Osprey", "Osprey notes.")]), "v7"),
    ]);
    await index.removeDocument("gone");
    expect(await index.pending()).toEqual(new Map([["kept", ["v0"]]]));
    expect([...(await index.indexedVersions())].sort()).toEqual([
      ["kept", "v1"],
      ["new", "v7"],
    ]);
  });

  it("keeps each concurrent writer's intent for the same document until that writer finishes", async () => {
    const index = await fresh();
    // Writers A (v-a) and B (v-b) announce the same document; B lands first, A is killed.
    await index.begin("shared", "v-a");
    await index.begin("shared", "v-b");
    await index.putDocument(libraryEntry(libraryTree("shared", [leaf("Osprey", "Osprey notes.")]), "v-b"));
    // B's put clears B's intent only: A's still leads the next repair to the document.
    expect(await index.pending()).toEqual(new Map([["shared", ["v-a"]]]));
    // A failed write is abandoned for its own version only.
    await index.begin("shared", "v-c");
    await index.clear("shared", "v-c");
    expect(await index.pending()).toEqual(new Map([["shared", ["v-a"]]]));
    // A delete's intent is its own too.
    await index.begin("shared");
    await index.removeDocument("shared");
    expect(await index.pending()).toEqual(new Map([["shared", ["v-a"]]]));
  });

  it("filters by metadata and kind as the catalog does, in every search and listing", async () => {
    const index = await fresh();
    await index.putDocuments([
      topicEntry("ops-en", "backup", { metadata: { lang: "EN", tags: ["ops", "Linux"], year: 2024 } }),
      topicEntry("ops-de", "backup", { metadata: { lang: "de", frontMatter: { team: "Ops" } } }),
      topicEntry("dev-pdf", "backup", { metadata: { lang: "en" }, kind: "pdf" }),
    ]);
    const ids = async (filter: Record<string, string | number | boolean | string[]>) =>
      docIds(await index.searchLibrary("backup", { filter })).sort();
    expect(await ids({ lang: "en" })).toEqual(["dev-pdf", "ops-en"]);
    expect(await ids({ lang: "en", kind: "markdown" })).toEqual(["ops-en"]);
    expect(await ids({ tags: "linux" })).toEqual(["ops-en"]);
    expect(await ids({ lang: ["de", "fr"] })).toEqual(["ops-de"]);
    expect(await ids({ team: "ops" })).toEqual(["ops-de"]); // one nesting level, as front matter
    expect(await ids({ year: 2024 })).toEqual(["ops-en"]);
    expect(await ids({ lang: "fr" })).toEqual([]);
    expect(await ids({})).toEqual(["dev-pdf", "ops-de", "ops-en"]);
    const sections = await index.searchSections("backup", { filter: { kind: "pdf" } });
    expect(sections.length).toBeGreaterThan(0);
    expect(new Set(sections.map((s) => s.docId))).toEqual(new Set(["dev-pdf"]));
    const matches = await index.searchDocuments("backup", { filter: { lang: "de" } });
    expect(matches.map((m) => m.card.docId)).toEqual(["ops-de"]);
    const page = await index.listDocuments({ filter: { lang: "en" } });
    expect(page.total).toBe(2);
    expect(page.documents.map((c) => c.docId)).toEqual(["dev-pdf", "ops-en"]);
  });

  it("restricts searches to the documents named", async () => {
    const index = await fresh();
    await index.putDocuments(["d1", "d2", "d3"].map((id) => topicEntry(id, "lighthouse")));
    expect(docIds(await index.searchLibrary("lighthouse", { docIds: ["d3", "d1"] })).sort()).toEqual([
      "d1",
      "d3",
    ]);
    const sections = await index.searchSections("lighthouse", { docIds: ["d2"] });
    expect(new Set(sections.map((s) => s.docId))).toEqual(new Set(["d2"]));
    expect(await index.searchLibrary("lighthouse", { docIds: [] })).toEqual([]);
    expect(await index.searchLibrary("lighthouse", { docIds: ["unknown"] })).toEqual([]);
  });

  it("pages cards in docId order with the total, and bounds every search", async () => {
    const index = await fresh();
    const ids = Array.from({ length: 12 }, (_, i) => `doc-${String(i).padStart(2, "0")}`);
    await index.putDocuments([...ids].reverse().map((id) => topicEntry(id, "harbour")));
    const first = await index.listDocuments({ limit: 5 });
    expect(first).toMatchObject({ total: 12, offset: 0 });
    expect(first.documents.map((c) => c.docId)).toEqual(ids.slice(0, 5));
    const last = await index.listDocuments({ limit: 5, offset: 10 });
    expect(last.documents.map((c) => c.docId)).toEqual(ids.slice(10));
    expect((await index.listDocuments({ limit: 0 })).total).toBe(12);
    expect((await index.listDocuments({ offset: 50 })).documents).toEqual([]);
    expect(await index.searchLibrary("harbour", { limit: 3 })).toHaveLength(3);
    expect(await index.searchLibrary("harbour", { limit: 0 })).toEqual([]);
    expect(await index.searchDocuments("harbour", { limit: 4 })).toHaveLength(4);
    expect(await index.searchSections("harbour", { limit: 7 })).toHaveLength(7);
    const [hit] = await index.searchLibrary("harbour", { limit: 1, sectionsPerDocument: 1 });
    expect(hit?.sections).toHaveLength(1);
  });

  it("ranks a section deep inside a document above a card that merely shares a common word", async () => {
    const index = await fresh();
    const manual = libraryTree("printer-manual", [
      {
        ...leaf("Printer Manual", "Welcome to the printer."),
        children: [
          {
            ...leaf("Maintenance", "Keeping the printer working."),
            children: [
              {
                ...leaf("Print quality", "Problems with printed pages."),
                children: [
                  // The query's words are in the text only: the card knows nothing of them.
                  leaf(
                    "Print defects",
                    "When toner smudges appear on the paper, the fuser is worn: replace it.",
                    {
                      summary: "Fixing toner smudges by replacing the fuser.",
                    },
                  ),
                ],
              },
            ],
          },
        ],
      },
    ]);
    await index.putDocuments([
      libraryEntry(manual, "v1"),
      topicEntry("paper-catalog", "paper", { description: "Paper sizes and paper weights" }),
      topicEntry("office-guide", "office", { description: "Office paper supplies" }),
    ]);
    const [top] = await index.searchLibrary("toner smudges on the paper");
    expect(top?.docId).toBe("printer-manual");
    expect(top?.sections[0]).toMatchObject({
      docId: "printer-manual",
      title: "Print defects",
      ancestors: ["Printer Manual", "Maintenance", "Print quality"],
      level: 4,
      backMatter: false,
      summary: "Fixing toner smudges by replacing the fuser.",
    });
    const [match] = await index.searchDocuments("toner smudges on the paper");
    expect(match?.card.docId).toBe("printer-manual");
    expect(match?.evidence[0]?.title).toBe("Print defects");
    expect(match?.evidenceWords).toBe(0);
    expect(match?.matched).toEqual([]);
    const [section] = await index.searchSections("fuser smudges");
    expect(section).toMatchObject({ docId: "printer-manual", title: "Print defects" });
  });

  it("ranks a document with several matching sections above one with a single weak match", async () => {
    const index = await fresh();
    const broad = libraryTree("kayak-handbook", [
      leaf("Kayak paddling strokes", "Forward stroke, sweep stroke and draw stroke for a kayak."),
      leaf("Kayak rescue", "Rolling a kayak and rescuing a paddler."),
      leaf("Choosing a kayak", "Sea kayak or river kayak, and paddling gear."),
    ]);
    const weak = libraryTree("boat-list", [
      leaf(
        "Boats",
        "Canoe, dinghy, kayak, rowing boat, yacht, ferry, barge, tug and many other boats listed here.",
      ),
      leaf("Harbours", "Where boats moor."),
    ]);
    await index.putDocuments([libraryEntry(weak, "v1"), libraryEntry(broad, "v1")]);
    const hits = await index.searchLibrary("kayak paddling");
    expect(docIds(hits)).toEqual(["kayak-handbook", "boat-list"]);
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Number.POSITIVE_INFINITY);
    const sections = hits[0]?.sections ?? [];
    expect(sections.length).toBe(3);
    for (let i = 1; i < sections.length; i += 1) {
      expect(sections[i - 1]?.score ?? 0).toBeGreaterThanOrEqual(sections[i]?.score ?? 0);
    }
  });

  it("weighs a long document's sections by its length: many sections are many chances to match", async () => {
    const index = await fresh();
    const answer = "Bleeding the radiator: open the valve until water comes out, then close it.";
    const filler = Array.from({ length: 200 }, (_, i) =>
      leaf(`Appendix table ${i}`, `Reference values of row ${i} for the installer.`),
    );
    const manual = libraryTree("a-building-manual", [
      leaf("Bleeding the radiator", answer),
      leaf("Heating", "The radiator heats the room; the boiler feeds it."),
      ...filler,
    ]);
    const note = libraryTree("z-radiator-note", [leaf("Bleeding the radiator", answer)]);
    await index.putDocuments([libraryEntry(manual, "v1"), libraryEntry(note, "v1")]);
    const hits = await index.searchLibrary("bleeding the radiator valve");
    expect(docIds(hits)).toEqual(["z-radiator-note", "a-building-manual"]);
    expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Number.POSITIVE_INFINITY);
  });

  it("discounts back matter unless the query asks for it", async () => {
    const index = await fresh();
    const tree = libraryTree("gardening", [
      leaf("Pruning roses", "Prune roses in late winter, above an outward bud."),
      leaf("Index", "roses 4, 12 pruning 4 soil 7 compost 9, 11 roses 15 tulips 20 bulbs 21, 22 roses 30"),
    ]);
    const entry = libraryEntry(tree, "v1");
    expect(entry.sections.map((s) => s.backMatter)).toEqual([false, true]);
    const indexOnly = libraryTree("rose-index", [
      leaf("Index", "roses 3, 5 roses 8 roses 13 roses 21 roses 34, 35 roses 40 roses 41 pruning 50"),
    ]);
    await index.putDocuments([entry, libraryEntry(indexOnly, "v1")]);
    const [first] = await index.searchSections("pruning roses");
    expect(first).toMatchObject({ title: "Pruning roses", backMatter: false });
    expect(docIds(await index.searchLibrary("roses"))[0]).toBe("gardening");
    const asked = await index.searchSections("roses in the index");
    expect(asked[0]).toMatchObject({ docId: "rose-index", title: "Index", backMatter: true });
  });

  it("never throws on odd queries: empty, stop words only, engine syntax, unicode", async () => {
    const index = await fresh();
    await index.putDocument(
      libraryEntry(
        libraryTree("odd", [
          leaf("Études cliniques", "Résumé des études: naïve café 日本語 テキスト"),
          leaf("NEAR and far", "col:value AND OR NOT near(a b) a* -minus"),
        ]),
        "v1",
      ),
    );
    const queries = [
      "",
      "   ",
      "the and of to",
      '"',
      '"unbalanced',
      "*",
      "near*",
      "NEAR(col value)",
      "a NEAR b",
      "-minus",
      "col:value",
      "title:études",
      "AND OR NOT",
      "(((",
      "^start",
      "{title text}: x",
      "🙂🙂",
      "\u0000\uffff",
      "x".repeat(5000),
      Array.from({ length: 200 }, (_, i) => `w${i}`).join(" "),
    ];
    for (const query of queries) {
      await expect(index.searchLibrary(query)).resolves.toBeInstanceOf(Array);
      await expect(index.searchSections(query)).resolves.toBeInstanceOf(Array);
      await expect(index.searchDocuments(query)).resolves.toBeInstanceOf(Array);
    }
    expect(await index.searchLibrary("")).toEqual([]);
    expect(await index.searchLibrary("the and of")).toEqual([]);
    expect(docIds(await index.searchLibrary("etudes cafe"))).toEqual(["odd"]);
    expect(docIds(await index.searchLibrary("ÉTUDES"))).toEqual(["odd"]);
    expect(docIds(await index.searchLibrary("日本語"))).toEqual(["odd"]);
    expect(docIds(await index.searchLibrary("col:value"))).toEqual(["odd"]);
    expect(docIds(await index.searchLibrary("NEAR(minus)"))).toEqual(["odd"]);
  });

  it("gives cards back exactly as put, unicode and metadata included", async () => {
    const index = await fresh();
    const entry = libraryEntry(
      libraryTree("carte", [leaf("Überblick", "Inhalt 🙂"), leaf("Zweiter Teil", "Mehr")], {
        docName: "Carte blanche — naïve.md",
        description: "Une description « française » 日本語",
        metadata: { lang: "fr", tags: ["a", "b"], nested: { deep: { deeper: true } }, count: 3 },
      }),
      "01HXYZVERSION",
    );
    await index.putDocument(entry);
    expect(await index.getCard("carte")).toEqual(entry.card);
    expect((await index.listDocuments({})).documents).toEqual([entry.card]);
    expect((await index.searchLibrary("überblick"))[0]?.card).toEqual(entry.card);
    expect(await index.getCard("CARTE")).toBeUndefined();
  });

  it("answers hits with the section's place: pages, lines, level and a summary line", async () => {
    const index = await fresh();
    const long = `${"word ".repeat(100)}end`;
    const tree = libraryTree(
      "paged",
      [
        {
          ...leaf("Chapter one", "Intro", { startPage: 3, endPage: 9 }),
          children: [
            leaf("Quokka habitats", "Quokkas live on Rottnest.", { startPage: 5, endPage: 7, summary: long }),
          ],
        },
      ],
      { kind: "pdf" },
    );
    await index.putDocument(libraryEntry(tree, "v1"));
    const [hit] = await index.searchSections("quokka");
    expect(hit).toMatchObject({
      docId: "paged",
      title: "Quokka habitats",
      level: 2,
      startPage: 5,
      endPage: 7,
    });
    expect(hit?.ancestors).toEqual(["Chapter one"]);
    expect(hit?.score).toBeGreaterThan(0);
    expect((hit?.summary ?? "").length).toBeLessThanOrEqual(200);
    expect(hit?.summary?.startsWith("word word")).toBe(true);
  });
}
