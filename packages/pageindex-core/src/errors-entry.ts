/**
 * `pageindex-core/errors`: the error types and the model-error helpers alone, without the tree
 * model, zod schemas, tokenizer or LangChain. For programs that must start fast (the
 * `pageindex` command prints `--version` and reports a missing file before loading the rest);
 * the classes are the same ones `pageindex-core` exports, so `instanceof` agrees.
 * @module
 */
export * from "./errors.js";
export * from "./llm/model-errors.js";
export { oneLine } from "./llm/prompt.js";
export { DocumentNotFoundError } from "./model/reader.js";
