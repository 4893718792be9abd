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
  if (step === "check_question")
    return JSON.stringify({ answerable: true, titleOnly: false, reason: "fake check" });
  if (step === "answer") return JSON.stringify({ answer: "Descale every two weeks." });
  if (step === "grade") return JSON.stringify({ grade: "correct", reason: "fake grader" });
  return undefined;
}

/** The reply to one chat request: an answer citing [1], or a judgment (tool call or JSON text). */
function reply(request: ChatRequest): Record<string, unknown> {
  const isAnswer = /You answer questions about documents/.test(textOf(request));
  const content = isAnswer
    ? "Descale every two weeks in hard-water areas [1]."
    : (evaluationAnswer(request) ?? judgment(request));
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
 * `hangAnswers`, answering requests (not judgments) are accepted and never answered.
 */
export async function startFakeOpenAi(
  refuse?: number,
  options: { hangAnswers?: boolean } = {},
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
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply(request)));
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
