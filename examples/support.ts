/**
 * What the examples share: which bundled sample they index, how the sample becomes a tree,
 * which chat model they use (none offline), and the run-as-script check.
 */
import { existsSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { TreeDocument } from "pageindex-core";
import { MarkdownTreeLoader, PdfTreeLoader } from "pageindex-loader";
import { HashingEmbeddings } from "pageindex-retriever/eval";
// The CLI's `--model` parser (provider:name), borrowed so the examples read PAGEINDEX_MODEL the same way.
import { chatModelFromSpec, type ModelEnv } from "../packages/pageindex-cli/src/cli/model-spec.js";

/** The sample documents bundled with pageindex-cli (its `pageindex demo` indexes them). */
export const SAMPLES_DIR = fileURLToPath(new URL("../packages/pageindex-cli/samples/", import.meta.url));

/** A bundled sample and the question the examples ask of it. */
export interface Sample {
  file: string;
  question: string;
  /** A section title (substring) the answer is in, when known. */
  answerSection?: string;
}

/** The bundled Markdown operator manual (always present). */
export const MANUAL: Sample = {
  file: "tiller-operator-manual.md",
  question: "How do I rotate the TLS certificates without downtime?",
  answerSection: "Rotating certificates without downtime",
};

/** The generated PDF annual report (used when it has been added to the samples). */
export const ANNUAL_REPORT: Sample = {
  file: "acme-annual-report-2025.pdf",
  question: "What drove the change in gross margin compared with the prior year?",
  answerSection: "Gross Margin",
};

/**
 * THE sample selection: the examples index the first of these that exists in `samples/`.
 * Change this one constant to point every example at another document.
 */
export const SAMPLE_PREFERENCE: readonly Sample[] = [ANNUAL_REPORT, MANUAL];

/** The sample the examples use by default. */
export function defaultSample(): Sample {
  const found = SAMPLE_PREFERENCE.find((s) => existsSync(join(SAMPLES_DIR, s.file)));
  if (!found) throw new Error(`No bundled sample found in ${SAMPLES_DIR}`);
  return found;
}

/** Options every example's `main` takes. */
export interface ExampleOptions {
  /** Environment read for the model (`PAGEINDEX_MODEL`, `OPENAI_API_KEY`…). Default `process.env`; `{}` forces offline. */
  env?: ModelEnv;
  /** Where printed lines go. Default `console.log`. */
  log?: (line: string) => void;
}

/** The chat model the examples use: `PAGEINDEX_MODEL`, else gpt-4o-mini when a key is set, else none. */
export async function exampleModel(
  env: ModelEnv = process.env,
): Promise<{ model: BaseChatModel; label: string } | undefined> {
  const spec = env.PAGEINDEX_MODEL ?? (env.OPENAI_API_KEY ? "openai:gpt-4o-mini" : undefined);
  const resolved = await chatModelFromSpec(spec, env);
  return resolved ? { model: resolved.model, label: `${resolved.provider}:${resolved.name}` } : undefined;
}

/** Embeddings for the vector side: OpenAI's with a key, else the offline hashing stand-in. */
export async function exampleEmbeddings(env: ModelEnv = process.env) {
  if (env.OPENAI_API_KEY) {
    const { OpenAIEmbeddings } = await import("@langchain/openai");
    return {
      embeddings: new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: env.OPENAI_API_KEY }),
      label: "OpenAI text-embedding-3-small",
    };
  }
  return {
    embeddings: new HashingEmbeddings(),
    label: "HashingEmbeddings (offline lexical stand-in: hashed words, not a semantic model)",
  };
}

/**
 * Indexes a Markdown or PDF file into a tree. Offline: headings/outline/layout structure and
 * extractive summaries; with a model, the PDF loader may use it for structure and both write
 * LLM summaries.
 */
export async function loadTree(path: string, model?: BaseChatModel): Promise<TreeDocument> {
  const summaries = model ? ("llm" as const) : ("extractive" as const);
  const withModel = model ? { model } : {};
  if (extname(path).toLowerCase() === ".pdf") {
    return new PdfTreeLoader(path, { summaries, ...withModel }).loadTree();
  }
  return new MarkdownTreeLoader(path, { summaries, ...withModel }).loadTree();
}

/** Whether the module at `url` is the script node was started with. */
export function isMain(url: string): boolean {
  const entry = process.argv[1];
  return entry !== undefined && url === pathToFileURL(entry).href;
}

/**
 * Where a retrieved Document is, for printing: document › section path (pages or lines), and
 * whether a tree section came with its subsections.
 */
export function describeSource(metadata: Record<string, unknown>): string {
  const m = metadata;
  const path = Array.isArray(m.path) ? (m.path as string[]).join(" › ") : String(m.title ?? "");
  const range =
    typeof m.startPage === "number"
      ? m.endPage !== undefined && m.endPage !== m.startPage
        ? `pages ${m.startPage}-${m.endPage}`
        : `page ${m.startPage}`
      : typeof m.startLine === "number"
        ? `lines ${m.startLine}-${m.endLine}`
        : undefined;
  const whole = m.includesDescendants === true ? " [whole section, subsections included]" : "";
  return `${String(m.docName ?? m.source ?? "?")} › ${path}${range ? ` (${range})` : ""}${whole}`;
}
