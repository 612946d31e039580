/**
 * A scripted loopback LLM server speaking the real streaming wire formats of Anthropic
 * Messages, OpenAI Chat Completions, OpenAI Responses and Gemini, so the official SDKs can be
 * driven end to end without network. Each request pops the next scripted reply (or the default),
 * is recorded for assertions, and can stall mid-stream to test abort and disconnects.
 *
 * @example
 * const fake = await startFakeLlm();
 * fake.script({ text: "Hello" }, { status: 429 });
 * await writeModelsJson(agentDir, fake.url);
 */
import { mkdir, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { anthropicError, renderAnthropic } from "./render-anthropic.js";
import { MALFORMED_DATA, sse, type RenderContext, type Rendered } from "./render-common.js";
import { googleError, renderGoogle } from "./render-google.js";
import { openAiError, renderOpenAiChat, renderOpenAiResponses } from "./render-openai.js";
import { EVENTSTREAM_TYPE, bedrockError, bedrockFrame, renderBedrock } from "./render-bedrock.js";
import { renderConverse } from "./render-converse.js";
import { piMessagesError, renderPiMessages } from "./render-pi-messages.js";
import { modelsError, modelsWireFormatOf, renderModelsReply } from "./render-models.js";
import type { FakeReply, RecordedRequest, ReplySource, WireFormat } from "./types.js";
import { hangTimeout } from "../helpers/hang.js";

export type { FakeAnswer, FakeReply, FakeToolCall, FakeUsage, RecordedRequest, ReplySource, WireFormat } from "./types.js";

export interface FakeLlm {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  /** Queues replies; each request takes the next one, then falls back to the default. */
  script(...replies: ReplySource[]): void;
  setDefault(reply: ReplySource): void;
  /** Every request so far, in arrival order. */
  requests: RecordedRequest[];
  /** What `GET …/models` answers (OpenAI's list shape, as local servers serve it); unset: 404. */
  listModels(models: Record<string, unknown>[] | undefined): void;
  /** Scripted replies not yet used. */
  pending(): number;
  /** Drops the scripted replies not yet used (a test that expected no request leaves its own). */
  discardPending(): void;
  /** Resolves when at least `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves when request `index` (default: the latest) has been closed early by its client. */
  waitForDisconnect(index?: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const RENDER: Record<WireFormat, (reply: FakeReply, ctx: RenderContext) => Rendered> = {
  anthropic: renderAnthropic,
  "openai-chat": renderOpenAiChat,
  "openai-responses": renderOpenAiResponses,
  google: renderGoogle,
  bedrock: renderBedrock,
  "bedrock-converse": renderConverse,
  "pi-messages": renderPiMessages,
};
const ERROR_BODY: Record<WireFormat, (status: number, message: string) => string> = {
  anthropic: anthropicError,
  "openai-chat": openAiError,
  "openai-responses": openAiError,
  google: googleError,
  bedrock: bedrockError,
  "bedrock-converse": bedrockError,
  "pi-messages": piMessagesError,
};

export function wireFormatOf(path: string, body?: unknown): WireFormat | "unknown" {
  // pi's protocol posts `{model, context, options}` to `<base>/messages` too.
  if (path.endsWith("/messages")) return (body as { context?: unknown } | undefined)?.context !== undefined ? "pi-messages" : "anthropic";
  if (path.endsWith("/chat/completions")) return "openai-chat";
  if (path.endsWith("/responses")) return "openai-responses";
  if (path.includes(":streamGenerateContent")) return "google";
  if (path.endsWith("/invoke-with-response-stream")) return "bedrock";
  if (path.endsWith("/converse-stream")) return "bedrock-converse";
  return "unknown";
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const queue: ReplySource[] = [];
  let fallback: ReplySource = { text: "ok" };
  let modelList: Record<string, unknown>[] | undefined;
  const requests: RecordedRequest[] = [];
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let body: unknown = raw;
    try {
      body = raw === "" ? undefined : JSON.parse(raw);
    } catch {
      /* keep the raw text */
    }
    const modelsFormat = modelsWireFormatOf(url.pathname, body);
    const format = modelsFormat ?? wireFormatOf(url.pathname, body);
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body,
      format,
      disconnected: false,
      completed: false,
    };
    requests.push(recorded);
    res.on("close", () => {
      if (!res.writableFinished) recorded.disconnected = true;
      changed();
    });
    changed();
    if (format === "unknown" && req.method === "GET" && url.pathname.endsWith("/models") && modelList) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: modelList }));
      recorded.completed = true;
      return;
    }
    if (modelsFormat) {
      const source = queue.shift() ?? fallback;
      const reply = typeof source === "function" ? source(recorded) : source;
      if (reply.status !== undefined && reply.status >= 400) {
        res
          .writeHead(reply.status, { "content-type": "application/json", ...reply.headers })
          .end(reply.errorBody ?? modelsError(modelsFormat, reply.status, reply.errorMessage ?? defaultErrorMessage(reply.status)));
      } else {
        const model = String((body as { model?: unknown } | undefined)?.model ?? "unknown");
        res.writeHead(200, { "content-type": "application/json", ...reply.headers }).end(JSON.stringify(renderModelsReply(modelsFormat, reply, model, requests.length)));
      }
      recorded.completed = true;
      changed();
      return;
    }
    if (format === "unknown") {
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `No fake endpoint at ${url.pathname}` } }));
      return;
    }
    const source = queue.shift() ?? fallback;
    const reply = typeof source === "function" ? source(recorded) : source;
    await respond(res, format as WireFormat, reply, { model: modelOf(format as WireFormat, url.pathname, body), seq: requests.length });
    recorded.completed = res.writableFinished;
    changed();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  const waitFor = (test: () => boolean, timeoutMs: number | undefined, what: string) =>
    new Promise<void>((resolve, reject) => {
      if (test()) return resolve();
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`Fake LLM: timed out waiting for ${what}`));
      }, hangTimeout(timeoutMs));
      const check = () => {
        if (!test()) return;
        clearTimeout(timer);
        listeners.delete(check);
        resolve();
      };
      listeners.add(check);
    });

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...replies) => void queue.push(...replies),
    setDefault: (reply) => void (fallback = reply),
    listModels: (models) => void (modelList = models),
    pending: () => queue.length,
    discardPending: () => void queue.splice(0),
    waitForRequests: (count, timeoutMs) => waitFor(() => requests.length >= count, timeoutMs, `${count} requests`),
    waitForDisconnect: (index, timeoutMs) => waitFor(() => Boolean(requests[index ?? requests.length - 1]?.disconnected), timeoutMs, `a client disconnect`),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function respond(res: ServerResponse, format: WireFormat, reply: FakeReply, ctx: RenderContext): Promise<void> {
  if (reply.status !== undefined && reply.status >= 400) {
    const message = reply.errorMessage ?? defaultErrorMessage(reply.status);
    res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers }).end(reply.errorBody ?? ERROR_BODY[format](reply.status, message));
    return;
  }
  const rendered = RENDER[format](reply, ctx);
  let frames = rendered.frames;
  if (reply.malformed) {
    const broken =
      format === "bedrock" || format === "bedrock-converse" ? bedrockFrame(MALFORMED_DATA) : sse(MALFORMED_DATA, format === "anthropic" ? "content_block_delta" : undefined);
    frames = [...frames.slice(0, rendered.malformedAfter), broken];
  }
  const stallAt = reply.stall === true ? 3 : reply.stall;
  const type = format === "bedrock" || format === "bedrock-converse" ? EVENTSTREAM_TYPE : "text/event-stream";
  res.writeHead(200, { "content-type": type, "cache-control": "no-cache", connection: "keep-alive", ...reply.headers });
  for (let i = 0; i < frames.length; i++) {
    if (stallAt !== undefined && i >= stallAt) {
      // Hold the connection open; the client must abort (the test checks the disconnect).
      await new Promise<void>((resolve) => res.once("close", resolve));
      return;
    }
    if (res.destroyed) return;
    res.write(frames[i]);
    if (reply.chunkDelayMs) await delay(reply.chunkDelayMs);
  }
  res.end();
}

function defaultErrorMessage(status: number): string {
  if (status === 429) return "Rate limit exceeded, please retry later";
  if (status === 529) return "Overloaded";
  if (status >= 500) return "Internal server error";
  return "Bad request";
}

function modelOf(format: WireFormat, path: string, body: unknown): string {
  if (format === "bedrock" || format === "bedrock-converse") return decodeURIComponent(path.split("/model/")[1]?.split("/")[0] ?? "unknown");
  if (format === "google") return decodeURIComponent(path.split("/models/")[1]?.split(":")[0] ?? "unknown");
  return String((body as { model?: unknown } | undefined)?.model ?? "unknown");
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export const FAKE_PROVIDERS = {
  "fake-anthropic": { api: "anthropic-messages", path: "" },
  "fake-openai": { api: "openai-completions", path: "/v1" },
  "fake-responses": { api: "openai-responses", path: "/v1" },
  "fake-google": { api: "google-generative-ai", path: "/v1beta" },
} as const;

export type FakeProviderName = keyof typeof FAKE_PROVIDERS;

/**
 * Writes `<agentDir>/models.json` with one provider per wire format (`fake-anthropic`,
 * `fake-openai`, `fake-responses`, `fake-google`), each serving model `fake-1` from `url`.
 */
export async function writeModelsJson(agentDir: string, url: string): Promise<string> {
  const providers: Record<string, unknown> = {};
  for (const [name, { api, path }] of Object.entries(FAKE_PROVIDERS)) {
    providers[name] = {
      baseUrl: `${url}${path}`,
      api,
      apiKey: "test-key",
      models: [
        {
          id: "fake-1",
          name: `Fake 1 (${name})`,
          reasoning: true,
          input: ["text", "image"],
          cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
          contextWindow: 200_000,
          maxTokens: 8_192,
        },
      ],
    };
  }
  await mkdir(agentDir, { recursive: true });
  const file = join(agentDir, "models.json");
  await writeFile(file, JSON.stringify({ providers }, null, 2) + "\n");
  return file;
}
