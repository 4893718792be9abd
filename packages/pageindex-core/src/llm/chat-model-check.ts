/**
 * Why a value given as a `model` option cannot be a LangChain chat model, or `undefined` when it
 * can. Catches the usual slip of passing a model's name (`"gpt-4o-mini"`) where an object such as
 * `new ChatOpenAI({ model: "gpt-4o-mini" })` is wanted: unchecked, it failed deep inside the first
 * call with a `TypeError` naming neither the option nor the fix.
 *
 * @example
 * ```ts
 * chatModelProblem("gpt-4o-mini"); // 'got the string "gpt-4o-mini": pass a chat model object, …'
 * chatModelProblem(new ChatOpenAI({ model: "gpt-4o-mini" })); // undefined
 * ```
 */
export function chatModelProblem(value: unknown): string | undefined {
  if (typeof value === "string") {
    return `got the string "${value}": pass a chat model object, e.g. new ChatOpenAI({ model: "${value}" })`;
  }
  if (typeof value === "object" && value !== null) {
    if (typeof (value as { invoke?: unknown }).invoke === "function") return undefined;
    return "got an object without invoke(): pass a LangChain chat model (a BaseChatModel)";
  }
  return `got ${typeof value}: pass a LangChain chat model (a BaseChatModel)`;
}
