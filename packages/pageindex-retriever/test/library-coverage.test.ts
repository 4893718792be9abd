import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTree, type NodeDraft, type TreeDocument } from "pageindex-core";
import { PageIndexRetriever } from "pageindex-retriever";
import { PageIndexStore } from "pageindex-store";
import { afterEach, describe, expect, it } from "vitest";

/** A manual of flat sections, one page each. */
function manual(
  docId: string,
  docName: string,
  sections: Array<[title: string, text: string]>,
): TreeDocument {
  const nodes: NodeDraft[] = sections.map(([title, text], i) => ({
    title,
    text,
    summary: text,
    startPage: i + 1,
    endPage: i + 1,
  }));
  return createTree(
    {
      docId,
      docName,
      kind: "pdf",
      pageCount: nodes.length,
      description: docName,
      build: { loader: "test", structure: "outline" },
    },
    nodes,
  );
}

/**
 * The question names its manual's subject in its own words ("bees"), which run through every
 * section of the beekeeping manual; a workshop manual holds none of them, but its one section
 * about cold weather and lids matches the question's other words better than the answer does.
 */
function library(): TreeDocument[] {
  // Ten sections per word: in a long manual, a word of one section is held by few of its nodes.
  const many = (words: string[]) =>
    words.flatMap((w) =>
      [
        "",
        " repairs",
        " records",
        " costs",
        " orders",
        " checks",
        " sizes",
        " labels",
        " stock",
        " faults",
      ].map((suffix) => `${w}${suffix}`),
    );
  const chores = many([
    "frames",
    "smoker",
    "queen",
    "brood",
    "wax",
    "pollen",
    "nectar",
    "entrance",
    "varroa",
    "drones",
  ]);
  const bees = manual("beekeeping", "Beekeeping Guide", [
    ...chores.map((c): [string, string] => [
      `The ${c}`,
      `How the bees use the ${c}, and what the hive needs.`,
    ]),
    ["Winter cluster", "In the cold months the bees cluster; open the hive only on a mild day."],
  ]);
  const tools = many([
    "saws",
    "drills",
    "clamps",
    "files",
    "chisels",
    "planes",
    "vices",
    "sanders",
    "glue",
    "screws",
  ]);
  const workshop = manual("workshop", "Workshop Manual", [
    ...tools.map((t): [string, string] => [`The ${t}`, `Store the ${t} on the rack after use.`]),
    ["Stuck lids", "Stay calm: a stuck lid comes off slowly."],
  ]);
  const garden = manual("garden", "Garden Notes", [
    ["Compost", "Turn the compost every month."],
    ["Pruning", "Prune roses in late winter."],
    ["Frost", "Cover seedlings on a cold night."],
  ]);
  const kitchen = manual("kitchen", "Kitchen Rules", [
    ["Knives", "Sharpen knives weekly."],
    ["Storage", "Keep flour in a dry box."],
  ]);
  return [bees, workshop, garden, kitchen];
}

const QUESTION = "how do I keep my bees calm when I open the hive lid in cold weather";

describe("offline library-wide search: the document a question is about", () => {
  const folders: string[] = [];
  const stores: PageIndexStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  /** A folder store (its SQLite library index) holding `trees`. */
  async function storeOf(trees: readonly TreeDocument[]): Promise<PageIndexStore> {
    const folder = mkdtempSync(join(tmpdir(), "pageindex-coverage-"));
    folders.push(folder);
    const store = await PageIndexStore.fromPath(folder);
    stores.push(store);
    for (const tree of trees) await store.addTree(tree);
    return store;
  }

  it("ranks the section of the manual whose subject the question names above another manual's closer wording", async () => {
    const store = await storeOf(library());
    const retriever = new PageIndexRetriever({ reader: store, k: 3, cache: false });
    const docs = await retriever.invoke(QUESTION);
    expect(retriever.lastRun?.docIds).toEqual(expect.arrayContaining(["workshop", "beekeeping"]));
    // The workshop's section holds the question's rarest words ("calm", "lid") and is the
    // library's best-matching section; the question is about bees, which every section of the
    // beekeeping guide is about.
    const workshop = docs.find((d) => d.metadata.docId === "workshop");
    expect(workshop?.metadata.reason).toMatch(/section 1\.00/);
    expect(docs[0]?.metadata).toMatchObject({ docId: "beekeeping", title: "Winter cluster" });
    expect(docs[0]?.metadata.reason).toMatch(/library evidence/);
  });

  it("still ranks another manual's section first when the question is about that manual's subject", async () => {
    const store = await storeOf(library());
    const retriever = new PageIndexRetriever({ reader: store, k: 3, cache: false });
    const docs = await retriever.invoke("a stuck lid on my clamps: how do I get it off calmly?");
    expect(docs[0]?.metadata).toMatchObject({ docId: "workshop", title: "Stuck lids" });
  });
});
