/**
 * pageindex-loader: PDF and Markdown documents to PageIndex section trees, as LangChain
 * document loaders.
 * @packageDocumentation
 */

export * from "./auto-loader.js";
export * from "./common/describe.js";
export * from "./common/enrich.js";
export * from "./common/errors.js";
export * from "./common/extractive.js";
export * from "./common/source.js";
export * from "./common/summarize.js";
export * from "./common/tree-loader.js";
export * from "./markdown/loader.js";
export * from "./markdown/parse.js";
export * from "./markdown/sections.js";
export * from "./pdf/index.js";
export * from "./pdf/llm/index.js";
