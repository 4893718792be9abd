import { ModelAnswerError } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { describeModelError } from "../../packages/pageindex-cli/src/cli/model-errors.js";

const model = { provider: "openai-compatible", name: "fake", baseURL: "http://127.0.0.1:9/v1" };

describe("describeModelError's hint", () => {
  it("says the answer was unusable, not that the name, URL or key may be wrong, when the model answered", () => {
    const error = new ModelAnswerError("generate-question: unusable answer (the answer contained no JSON)");
    const message = describeModelError(error, model);
    expect(message).toContain("generate-question: unusable answer");
    expect(message).toContain("not in the JSON asked for");
    expect(message).not.toContain("check the model name");
  });

  it("keeps the general hint for a failure it cannot place", () => {
    expect(describeModelError(new Error("something odd"), model)).toContain(
      "check the model name, the URL and the key",
    );
  });
});
