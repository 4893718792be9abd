// A tiny OpenAI-compatible chat server for CLI tests: the built binary talks to it over HTTP
// exactly as it would to vLLM, LM Studio or Ollama's /v1 endpoint.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** What the fake server saw and how to reach it. */
export interface FakeOpenAi {
  /** Base URL to give the CLI, e.g. `http://127.0.0.1:40123/v1`. */
  baseURL: string;
  /** Every chat request body received, in order. */
  requests: ChatRequest[];
  close(): Promise<void>;
}

interface ChatRequest {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
  response_format?: unknown;
}

const textOf = (request: ChatRequest) =>
  request.messages
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)))
    .join("\n");

/** The answer a judge would give: the first offered section id, as the judging schema wants. */
function judgment(request: ChatRequest): string {
  const id = /\bid="([^"]+)"/.exec(textOf(request))?.[1] ?? "0000";
  return JSON.stringify({ relevant: [{ id, score: 0.9, reason: "the fake judge picks the first section" }] });
}

/**
 * Answers of the evaluation's steps (question writing, its check, answering from context,
 * grading), keyed by the step's tool name or, for JSON-text calls, by the system prompt.
 */
function evaluationAnswer(request: ChatRequest): string | undefined {
  const text = textOf(request);
  const tool = request.tools?.[0]?.function.name;
  const step =
    tool ??
    (/You write evaluation questions/.test(text)
      ? "generate_question"
      : /You reword evaluation questions/.test(text)
        ? "rewrite_question"
        : /You check evaluation questions/.test(text)
          ? "check_question"
          : /You grade answers/.test(text)
            ? "grade"
            : /Answer the user's question from the context/.test(text)
              ? "answer"
              : undefined);
  if (step === "generate_question") {
    // A user's wording built from the section's first words, never its title.
    const first = /<section[^>]*>\s*([^<]*)/.exec(text)?.[1]?.split(/\s+/).slice(0, 6).join(" ") ?? "it";
    return JSON.stringify({ question: `What should I know about this: ${first}?`, answer: first });
  }
  // A user's own words, none of the section's.
  if (step === "rewrite_question")
    return JSON.stringify({ question: "How do I look after my appliance so that it keeps working?" });
  if (step === "check_question")
    return JSON.stringify({ answerable: true, titleOnly: false, reason: "fake check" });
  if (step === "answer") return JSON.stringify({ answer: "Descale every two weeks." });
  if (step === "grade") return JSON.stringify({ grade: "correct", reason: "fake grader" });
  return undefined;
}

/** A string field of a JSON answer made `size` characters long, as a model that rambles writes it. */
function padded(content: string, size: number): string {
  const value = JSON.parse(content) as Record<string, unknown>;
  const key = ["answer", "reason"].find((k) => typeof value[k] === "string");
  if (!key) return content;
  value[key] = `${String(value[key])} ${"and so on ".repeat(Math.ceil(size / 10))}`.slice(0, size);
  return JSON.stringify(value);
}

/** The reply to one chat request: an answer citing [1], or a judgment (tool call or JSON text). */
function reply(request: ChatRequest, hugeAnswers?: number): Record<string, unknown> {
  const isAnswer = /You answer questions about documents/.test(textOf(request));
  const evaluation = evaluationAnswer(request);
  const content = isAnswer
    ? "Descale every two weeks in hard-water areas [1]."
    : evaluation !== undefined && hugeAnswers !== undefined
      ? padded(evaluation, hugeAnswers)
      : (evaluation ?? judgment(request));
  const tool = !isAnswer ? request.tools?.[0]?.function.name : undefined;
  const message = tool
    ? {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "call_1", type: "function", function: { name: tool, arguments: content } }],
      }
    : { role: "assistant", content };
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 0,
    model: request.model,
    choices: [{ index: 0, message, finish_reason: tool ? "tool_calls" : "stop" }],
    usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
  };
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Starts the server on a free port of 127.0.0.1. With `refuse`, every chat request gets that
 * HTTP status and an OpenAI-style error body (401: a wrong key, 404: an unknown model); with
 * `hangAnswers`, answering requests (not judgments) are accepted and never answered; with
 * `hangAll`, no request is ever answered; with `hugeAnswers`, every evaluation answer (question
 * writing, answering, grading) rambles to that many characters.
 */
export async function startFakeOpenAi(
  refuse?: number,
  options: { hangAnswers?: boolean; hangAll?: boolean; hugeAnswers?: number } = {},
): Promise<FakeOpenAi> {
  const requests: ChatRequest[] = [];
  const server: Server = createServer((req, res) => {
    body(req).then((text) => {
      if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const request = JSON.parse(text) as ChatRequest;
      requests.push(request);
      if (refuse) {
        res.writeHead(refuse, { "content-type": "application/json" });
        res.end(
          JSON.stringify({ error: { message: `refused with ${refuse}`, type: "invalid_request_error" } }),
        );
        return;
      }
      // A server that takes the answering request and never replies (judgments still work).
      if (options.hangAnswers && /You answer questions about documents/.test(textOf(request))) return;
      if (options.hangAll) return;
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply(request, options.hugeAnswers)));
    });
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections(); // requests left hanging on purpose
      }),
  };
}
