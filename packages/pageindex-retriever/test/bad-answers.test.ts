import { PageIndexRetriever } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import {
  rateLimitError,
  ScriptedChatModel,
  type ScriptedTurn,
} from "../../../test/support/scripted-model.js";
import { DOCUMENT_CHOICE_PATHS } from "./support/catalog-reader.js";
import { annualReport, ID, judgeByTitle, manual, offeredNodes, TAX_PATH } from "./support/fixtures.js";

// These tests pin how `expand` (the default before `auto`) searches.
const fast = { backoffMs: 1, timeoutMs: 2000, strategy: "expand" as const };
const good = judgeByTitle(TAX_PATH);

/** Answers `bad` once (the first time `when` holds for a prompt), well everywhere else. */
function badOnce(when: (prompt: string) => boolean, bad: () => string | Error): ScriptedTurn {
  let done = false;
  return (prompt: string) => {
    if (done || !when(prompt)) return fallbackJudge(prompt);
    done = true;
    const answer = bad();
    if (answer instanceof Error) throw answer;
    return answer;
  };
}

/** The bad answer every time `when` holds (a refusal is retried and refused again). */
function badAlways(when: (prompt: string) => boolean, bad: () => string | Error): ScriptedTurn {
  return (prompt: string) => (when(prompt) ? bad() : fallbackJudge(prompt));
}

/** The document choice: the catalog's cards prompt, or the library prompt of candidates with their sections. */
const atChoice = (prompt: string) =>
  prompt.includes("Choose up to") || prompt.includes("Candidate documents:");

/** Good answers: document choice names the manual, judging follows the title patterns. */
function fallbackJudge(prompt: string): string {
  if (atChoice(prompt)) return JSON.stringify({ relevant: [{ id: "rocket-manual" }] });
  return prompt.includes("Rocket Skates") ? judgeByTitle(/Maintenance/)(prompt) : good(prompt);
}

const atNotes = (prompt: string) => offeredNodes(prompt).some((n) => n.id === ID.note12);

/** A bad answer, given the id a good answer would name. */
type Bad = (rightId: string) => string | Error;

const BAD: Array<[string, Bad, "llm" | "lexical-fallback", number]> = [
  // [label, answer, who judged the returned section, calls made for the bad judgment]
  ["malformed JSON", (id) => `{'relevant': [{'id': '${id}', 'score': 0.8,},]`, "llm", 1],
  [
    "only unknown ids",
    () => JSON.stringify({ relevant: [{ id: "0999" }, { id: "Item 99" }] }),
    "lexical-fallback",
    1,
  ],
  ["a refusal", () => "I'm sorry, but I can't help with that.", "lexical-fallback", 3],
  ["a 429 then success", () => rateLimitError(), "llm", 2],
];

describe("bad model answers with the beam strategy", () => {
  it.each(BAD)("%s at the notes level still returns the tax note", async (_label, bad, judge, callsThere) => {
    // A refusal is retried: each retry gets the bad answer again; the others answer once.
    const answer = () => bad(ID.note12);
    const model = new ScriptedChatModel([], {
      fallback: callsThere === 3 ? badAlways(atNotes, answer) : badOnce(atNotes, answer),
    });
    const retriever = new PageIndexRetriever({
      trees: [annualReport()],
      model,
      beamWidth: 1,
      k: 1,
      ...fast,
      strategy: "beam",
    });
    const docs = await retriever.invoke("What was the effective tax rate in 2023?");
    expect(docs.map((d) => d.metadata.nodeId)).toEqual([ID.note12]);
    expect(docs[0]?.metadata).toMatchObject({ strategy: "beam", judge });
    expect(docs[0]?.pageContent).toContain("21.4%");
    // roots, Part II, Item 8 once each; the notes level as many times as it was asked.
    expect(retriever.lastRun?.stats).toMatchObject({ calls: 3 + callsThere, steps: 4 });
    expect(retriever.lastRun?.stats.roundTrips).toBe(3 + callsThere);
  });
});

describe.each(DOCUMENT_CHOICE_PATHS)(
  "bad model answers when the model chooses the documents ($path)",
  ({ path, reader }) => {
    const trees = () => [annualReport(), manual(), annualReport("beta-10k", "BETA 2023 Form 10-K")];
    const unusable =
      path === "library"
        ? /library choice unusable .*; chose lexically/
        : /document choice unusable .*; chose lexically/;

    it.each(BAD)(
      "%s in the document choice still finds the manual's section",
      async (_label, bad, judge, callsThere) => {
        const answer = () => bad("rocket-manual");
        const model = new ScriptedChatModel([], {
          fallback: callsThere === 3 ? badAlways(atChoice, answer) : badOnce(atChoice, answer),
        });
        const retriever = new PageIndexRetriever({
          reader: reader(trees()),
          model,
          documentSelection: "llm",
          documentMargin: Number.POSITIVE_INFINITY, // always ask the model, however clear the lexical choice
          maxDocuments: 1,
          k: 1,
          ...fast,
        });
        const docs = await retriever.invoke("How often should the fuel filter be replaced?");
        // The choice was asked in this path's prompt.
        expect(model.prompts[0]).toContain(path === "library" ? "Candidate documents:" : "Choose up to");
        expect(docs.map((d) => d.id)).toEqual(["rocket-manual:0002"]);
        expect(docs[0]?.metadata.judge).toBe("llm");
        expect(retriever.lastRun?.docIds).toEqual(["rocket-manual"]);
        const warnings = retriever.lastRun?.warnings.join("\n") ?? "";
        if (judge === "lexical-fallback") expect(warnings).toMatch(unusable);
        else expect(warnings).not.toMatch(/choice unusable/);
        // The choice (with its retries) comes before the judging of the chosen manual's roots.
        expect(retriever.lastRun?.stats.roundTrips).toBe(callsThere + 1);
        expect(retriever.lastRun?.stats.calls).toBe(callsThere + 1);
      },
    );
  },
);
