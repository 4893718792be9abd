import type { BaseMessage } from "@langchain/core/messages";
import { countTokens } from "pageindex-store";

/**
 * Room for what a structured call adds to the messages: the answer's JSON Schema, as text for a
 * model without tool calling or as a tool definition (about 230 tokens either way).
 */
const ANSWER_FORMAT_TOKENS = 256;

/** Tokens of a prompt (what `maxPromptTokens` and `maxQueryTokens` count), answer format included. */
export function promptTokens(messages: readonly BaseMessage[]): number {
  return (
    ANSWER_FORMAT_TOKENS +
    countTokens(
      messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n"),
    )
  );
}
