import type { BaseMessage } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { countTokens } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { summarizeNodes } from "../src/common/summarize.js";
import { MarkdownTreeLoader } from "../src/index.js";

/** Records which sections it was asked about and how many calls overlapped. */
class RecordingModel extends FakeListChatModel {
  sections: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  override async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): ReturnType<FakeListChatModel["_generate"]> {
    const prompt = messages.map((m) => String(m.content)).join("\n");
    // The section's own title: the last step of the "Section: A › B" path line.
    const path = /Section: ([^\n<]*)/.exec(prompt)?.[1] ?? "?";
    const title = path.split(/\s(?:›|>|&gt;)\s/).pop() ?? "?";
    this.sections.push(title.trim());
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await super._generate(messages, options);
    } finally {
      this.inFlight -= 1;
    }
  }
}

/** `## title` and words, grown until the whole section has exactly `tokens` tokens. */
function sectionOf(title: string, tokens: number): string {
  let text = `## ${title}\n\nWords`;
  while (countTokens(text) < tokens) text += " word";
  if (countTokens(text) !== tokens) throw new Error(`cannot make ${tokens} tokens`);
  return text;
}

describe("the summary threshold (default 200 tokens)", () => {
  const texts = {
    "199": sectionOf("S199", 199),
    "200": sectionOf("S200", 200),
    "201": sectionOf("S201", 201),
  };

  it("keeps text under 200 tokens as its own summary and sends 200 and 201 to the model", async () => {
    const model = new RecordingModel({ responses: ['{"summary": "From the model."}'] });
    const targets = Object.entries(texts).map(([id, text]) => ({ id, title: `S${id}`, text }));
    const result = await summarizeNodes(targets, { mode: "llm", model, concurrency: 1, retries: 0 });
    expect(result.outcomes.map((o) => [o.id, o.method])).toEqual([
      ["199", "text"],
      ["200", "llm"],
      ["201", "llm"],
    ]);
    expect(model.sections).toEqual(["S200", "S201"]);
  });

  it("applies the same boundary to the loader's node token counts, and moves with summaryThreshold", async () => {
    const markdown = `# Doc\n\n${Object.values(texts).join("\n\n")}\n`;
    const load = async (summaryThreshold?: number) => {
      const model = new RecordingModel({ responses: ['{"summary": "From the model."}'] });
      const tree = await MarkdownTreeLoader.fromText(markdown, {
        name: "t.md",
        summaries: "llm",
        model,
        concurrency: 1,
        retries: 0,
        ...(summaryThreshold !== undefined ? { summaryThreshold } : {}),
      }).loadTree();
      return { tree, asked: model.sections };
    };
    const byDefault = await load();
    expect(byDefault.tree.nodes.map((n) => [n.title, n.tokenCount])).toEqual([
      ["Doc", 2],
      ["S199", 199],
      ["S200", 200],
      ["S201", 201],
    ]);
    expect(byDefault.asked).toEqual(["S200", "S201"]);
    expect((await load(201)).asked).toEqual(["S201"]);
    expect((await load(202)).asked).toEqual([]);
  });
});

describe("MarkdownTreeLoader summary concurrency", () => {
  const markdown = Array.from({ length: 6 }, (_, i) => sectionOf(`Part ${i}`, 260)).join("\n\n");

  for (const concurrency of [1, 2, 4]) {
    it(`never has more than ${concurrency} model call(s) in flight`, async () => {
      const model = new RecordingModel({ responses: ['{"summary": "s"}'], sleep: 15 });
      await MarkdownTreeLoader.fromText(markdown, {
        name: "c.md",
        summaries: "llm",
        model,
        concurrency,
        retries: 0,
      }).loadTree();
      expect(model.sections).toHaveLength(6);
      expect(model.maxInFlight).toBe(concurrency);
    });
  }
});
