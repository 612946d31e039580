/**
 * In-process harness for the compaction tests: the real agent, models, session, session-jsonl,
 * retry and compaction plugins booted by the host, with a scripted provider for the test model
 * that records every request (the planner's included) and can hold a request until aborted.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { definePlugin, type Kernel, type OutEvent, type Settings } from "../../kernel/index.js";
import { emptyUsage, type AgentMessage, type AssistantMessage, type AssistantMessageEvent, type Model, type StreamRequest } from "../../lib/llm/index.js";
import { bootKernel, tempDir } from "../../test/fake-llm/harness.js";
import retry from "../retry/index.js";
import sessionJsonl from "../session-jsonl/index.js";
import session from "../session/index.js";
import compaction from "./index.js";

export const MODEL: Model = {
  id: "m1",
  name: "M1",
  api: "compaction-test",
  provider: "test",
  baseUrl: "",
  reasoning: false,
  input: ["text", "image"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 100_000,
  maxTokens: 1000,
};

/** A scripted answer: text, an error, or a function of the request; `hold` waits for the abort. */
export type Answer = { text: string; usage?: number } | { error: string } | { hold: true };
export type Scripted = Answer | ((request: StreamRequest) => Answer);

export interface CompactionHarness {
  kernel: Kernel;
  dir: string;
  events: OutEvent[];
  requests: StreamRequest[];
  script(...replies: Scripted[]): void;
  invoke(type: string, input?: Record<string, unknown>): Promise<any>;
  /** Appends messages as if a run had produced them (recorded in the session). */
  fill(messages: AgentMessage[]): Promise<void>;
  sessionFile(): string | undefined;
  fileText(): Promise<string>;
  dispose(): Promise<void>;
}

export function isPlannerRequest(request: StreamRequest): boolean {
  return request.context.systemPrompt.includes("deletion records only");
}

export function plannerText(request: StreamRequest): string {
  return request.context.messages[0]!.content as string;
}

export const user = (text: string, timestamp = 1): AgentMessage => ({ role: "user", content: text, timestamp });

export function answer(text: string, usage = 0, timestamp = 2): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    api: MODEL.api,
    provider: "test",
    model: "m1",
    usage: { ...emptyUsage(), input: usage, totalTokens: usage },
    stopReason: "stop",
    timestamp,
  };
}

/** What the second line of a `conversation` message says after `detail <i>:`. */
export const FILLER = "lorem ipsum dolor sit amet ".repeat(4).trim();

/** `count` alternating user/assistant messages: `<label>-<i>`, then `detail <i>: <filler>`. */
export function conversation(count: number, label = "m"): AgentMessage[] {
  return Array.from({ length: count }, (_, i) => {
    const text = `${label}-${i}\ndetail ${i}: ${FILLER}`;
    return i % 2 === 0 ? user(text) : answer(text);
  });
}

export async function bootCompaction(options: { settings?: Settings; noSession?: boolean } = {}): Promise<CompactionHarness> {
  const dir = await tempDir("atomic-compaction-");
  // The provider needs a credential for prompts to pass the models plugin's preflight.
  const provider_ = {
    baseUrl: "http://127.0.0.1:9",
    api: MODEL.api,
    apiKey: "test-key",
    models: [{ id: MODEL.id, contextWindow: MODEL.contextWindow, maxTokens: MODEL.maxTokens }],
  };
  await writeFile(join(dir, "models.json"), JSON.stringify({ providers: { [MODEL.provider]: provider_ } }));
  const queue: Scripted[] = [];
  const requests: StreamRequest[] = [];
  const provider = definePlugin({
    name: "compaction-test-provider",
    apply(k) {
      k.hooks.stream.for(MODEL.api).tap(k.name, (request) => {
        requests.push(request);
        return stream(queue.shift() ?? { text: "" }, request);
      });
    },
  });
  const kernel = await bootKernel({
    agentDir: dir,
    plugins: [sessionJsonl, session, retry, compaction, provider],
    ...(options.settings ? { settings: options.settings } : {}),
    cli: { positionals: [], ...(options.noSession ? { noSession: true } : {}) },
  });
  const events: OutEvent[] = [];
  kernel.events.subscribe((event) => void events.push(event));
  const agent = kernel.services.get("agent");
  await agent.setModel(MODEL, "set");
  const sessionApi = kernel.services.get("session");
  return {
    kernel,
    dir,
    events,
    requests,
    script: (...replies) => void queue.push(...replies),
    invoke: (type, input = {}) => kernel.commands.invoke(type, input, { source: "sdk", seq: 0 }),
    async fill(messages) {
      for (const message of messages) await agent.appendMessage(message);
    },
    sessionFile: () => sessionApi.sessionFile(),
    async fileText() {
      await sessionApi.flush();
      return readFile(sessionApi.sessionFile()!, "utf8");
    },
    async dispose() {
      await kernel.hooks.shutdown.promise({ reason: "exit" });
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function* stream(reply: Scripted, request: StreamRequest): AsyncGenerator<AssistantMessageEvent> {
  const resolved = typeof reply === "function" ? reply(request) : reply;
  const base = { role: "assistant" as const, api: MODEL.api, provider: "test", model: "m1", usage: emptyUsage(), timestamp: Date.now() };
  if ("hold" in resolved) {
    const signal = request.options.signal;
    await new Promise<void>((resolve) => (signal.aborted ? resolve() : signal.addEventListener("abort", () => resolve(), { once: true })));
    const aborted: AssistantMessage = { ...base, content: [], stopReason: "aborted", errorMessage: "Request was aborted" };
    yield { type: "error", reason: "aborted", error: aborted, partial: aborted };
    return;
  }
  if ("error" in resolved) {
    const failed: AssistantMessage = { ...base, content: [], stopReason: "error", errorMessage: resolved.error };
    yield { type: "error", reason: "error", error: failed, partial: failed };
    return;
  }
  const usage = { ...emptyUsage(), input: resolved.usage ?? 10, output: 5, totalTokens: (resolved.usage ?? 10) + 5 };
  const done: AssistantMessage = { ...base, content: [{ type: "text", text: resolved.text }], usage, stopReason: "stop" };
  yield { type: "done", reason: "stop", message: done, partial: done };
}
