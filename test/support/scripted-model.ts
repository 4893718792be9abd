import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import { BaseChatModel, type BaseChatModelParams } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";

/** One scripted turn: a text answer, an error to throw, a hang, or a function of the prompt. */
export type ScriptedTurn =
  | string
  | Error
  | { hang: true }
  | ((prompt: string, messages: BaseMessage[]) => string | Error | Promise<string>);

/** A 429 like the OpenAI client throws it. */
export function rateLimitError(): Error {
  return Object.assign(new Error("429 Too Many Requests: rate limit reached"), { status: 429 });
}

/**
 * A text-only chat model (no tool calling, like many local models) that answers from a script
 * and records every prompt it saw. A function turn lets a fake answer depend on the prompt, the
 * way a real model's would. When the script runs out, `fallback` answers (default: throw).
 */
export class ScriptedChatModel extends BaseChatModel {
  readonly prompts: string[] = [];
  private readonly script: ScriptedTurn[];
  private readonly fallback: ScriptedTurn | undefined;

  constructor(script: ScriptedTurn[], options: { fallback?: ScriptedTurn } & BaseChatModelParams = {}) {
    super(options);
    this.script = [...script];
    this.fallback = options.fallback;
  }

  _llmType(): string {
    return "scripted";
  }

  get calls(): number {
    return this.prompts.length;
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const prompt = messages
      .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
      .join("\n");
    this.prompts.push(prompt);
    const turn = this.script.length > 0 ? this.script.shift() : this.fallback;
    if (turn === undefined)
      throw new Error(`ScriptedChatModel: script exhausted after ${this.prompts.length - 1} calls`);
    let answer: string | Error;
    if (typeof turn === "function") answer = await turn(prompt, messages);
    else if (turn instanceof Error) answer = turn;
    else if (typeof turn === "object") {
      // Hang until aborted, like a stalled connection; ignores nothing but the signal.
      await new Promise((_, reject) =>
        options.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
      );
      throw new Error("unreachable");
    } else answer = turn;
    if (answer instanceof Error) throw answer;
    const message = new AIMessage({
      content: answer,
      usage_metadata: {
        input_tokens: Math.ceil(prompt.length / 4),
        output_tokens: Math.ceil(answer.length / 4),
        total_tokens: Math.ceil(prompt.length / 4) + Math.ceil(answer.length / 4),
      },
    });
    return { generations: [{ text: answer, message }] };
  }
}
