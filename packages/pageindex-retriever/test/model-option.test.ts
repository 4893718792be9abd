import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { RetrieverConfigError } from "../src/errors.js";
import { PageIndexRetriever } from "../src/index.js";
import { annualReport } from "./support/fixtures.js";

describe("PageIndexRetriever's model option", () => {
  it("names the option and the fix when given a model's name instead of a chat model", () => {
    const byName = "gpt-4o-mini" as unknown as BaseChatModel;
    const build = () => new PageIndexRetriever({ trees: [annualReport()], model: byName });
    expect(build).toThrow(RetrieverConfigError);
    expect(build).toThrow(
      'PageIndexRetriever: model got the string "gpt-4o-mini": pass a chat model object, e.g. new ChatOpenAI({ model: "gpt-4o-mini" })',
    );
    const notAModel = {} as unknown as BaseChatModel;
    expect(() => new PageIndexRetriever({ trees: [annualReport()], model: notAModel })).toThrow(
      /model got an object without invoke\(\)/,
    );
  });

  it("takes a chat model as before", () => {
    const model = new ScriptedChatModel([]);
    expect(new PageIndexRetriever({ trees: [annualReport()], model }).model).toBe(model);
  });
});
