/**
 * In-process harness for the extension API: boots the built-in plugins with a scripted provider
 * and extensions whose factories the test writes inline. Each factory is loaded through the real
 * loader (a temporary file that hands `pi` to it), so registration, staging and taps are the
 * real ones.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach } from "vitest";
import { BUILTIN_PLUGINS } from "../../cli/builtins.js";
import { createHost, type HostRuntime } from "../../host/index.js";
import { definePlugin, type OutEvent } from "../../kernel/index.js";
import { emptyUsage, type AssistantMessage, type AssistantMessageEvent, type LlmContext, type Model } from "../../lib/llm/index.js";
import type { ExtensionAPI } from "./types/api.js";

const FACTORIES = Symbol.for("atomic.test.extension-factories");
type Registry = Map<string, (pi: ExtensionAPI) => unknown>;

export const MODEL: Model = {
  id: "m1",
  name: "Scripted",
  api: "scripted",
  provider: "scripted",
  baseUrl: "",
  reasoning: false,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
};

/** A text, a tool call, or a failed call (the provider's error, as a 429 would end). */
export type Answer = string | { tool: string; args: Record<string, unknown> } | { error: string };

export interface Harness {
  host: HostRuntime;
  events: OutEvent[];
  warnings: string[];
  /** What each LLM call was sent. */
  seen: LlmContext[];
  answers: Answer[];
  paths: string[];
  send(record: Record<string, unknown>): Promise<any>;
  /** Sends a prompt and waits until the agent is idle again. */
  run(message: string): Promise<void>;
  close(): Promise<void>;
}

function reply(content: AssistantMessage["content"], model: string): AssistantMessage {
  return { role: "assistant", content, api: "scripted", provider: "scripted", model, usage: emptyUsage(), stopReason: "stop", timestamp: Date.now() };
}

function scripted(seen: LlmContext[], answers: Answer[], models: Model[]) {
  return definePlugin({
    name: "scripted",
    requires: ["models"],
    apply(k) {
      k.service("models").registerProvider({ name: "scripted", api: "scripted", models: [MODEL, ...models], requiresAuth: false });
      k.hooks.stream.for("scripted").tap(k.name, (request) => {
        seen.push(request.context);
        const answer = answers.shift() ?? "(no more answers)";
        return (async function* (): AsyncGenerator<AssistantMessageEvent> {
          if (typeof answer === "object" && "error" in answer) {
            const failed: AssistantMessage = { ...reply([], request.model.id), stopReason: "error", errorMessage: answer.error };
            yield { type: "start", partial: failed };
            yield { type: "error", reason: "error", error: failed, partial: failed };
            return;
          }
          const content: AssistantMessage["content"] =
            typeof answer === "string" ? [{ type: "text", text: answer }] : [{ type: "toolCall", id: `call-${seen.length}`, name: answer.tool, arguments: answer.args }];
          const message: AssistantMessage = { ...reply(content, request.model.id), stopReason: typeof answer === "string" ? "stop" : "toolUse" };
          yield { type: "start", partial: { ...message, content: [] } };
          yield { type: "done", reason: typeof answer === "string" ? "stop" : "toolUse", message, partial: message };
        })();
      });
    },
  });
}

/** An extension: a factory (loaded through a file that hands `pi` to it), or a module's source text. */
export type TestExtension = ((pi: ExtensionAPI) => unknown) | { source: string; name?: string };

/**
 * Boots the agent with one extension per factory, in order. `models`: more models of the scripted
 * provider (an answer names the model that was called).
 */
export async function bootExtensions(
  factories: TestExtension[],
  options: { answers?: Answer[]; cli?: Record<string, unknown>; settings?: Record<string, unknown>; models?: Model[] } = {},
): Promise<Harness> {
  const dir = mkdtempSync(join(tmpdir(), "atomic-ext-harness-"));
  const registry = ((globalThis as Record<symbol, Registry | undefined>)[FACTORIES] ??= new Map());
  const paths = factories.map((factory, i) => {
    if (typeof factory !== "function") {
      const path = join(dir, factory.name ?? `extension-${i}.ts`);
      writeFileSync(path, factory.source);
      return path;
    }
    const path = join(dir, `extension-${i}.ts`);
    registry.set(path, factory);
    writeFileSync(path, `export default (pi) => globalThis[Symbol.for("atomic.test.extension-factories")].get(${JSON.stringify(path)})(pi);\n`);
    return path;
  });
  const seen: LlmContext[] = [];
  const answers = [...(options.answers ?? [])];
  const warnings: string[] = [];
  const host = await createHost({
    cwd: dir,
    agentDir: dir,
    env: {},
    plugins: [...BUILTIN_PLUGINS, scripted(seen, answers, options.models ?? [])],
    cli: { extension: paths, provider: "scripted", model: "m1", noSession: true, ...options.cli },
    readSettingsFiles: false,
    ...(options.settings ? { settings: options.settings } : {}),
    userPlugins: false,
    log: { info() {}, warn: (line) => warnings.push(line), error: (line) => warnings.push(line) },
  });
  const events: OutEvent[] = [];
  host.subscribe((event) => events.push(event));
  const agent = host.kernel.services.get("agent");
  return {
    host,
    events,
    warnings,
    seen,
    answers,
    paths,
    send: (record) => host.send(record, "rpc"),
    async run(message) {
      const response = await host.send({ type: "prompt", message }, "rpc");
      if (!response?.success) throw new Error(`prompt failed: ${JSON.stringify(response)}`);
      await agent.waitForIdle();
    },
    async close() {
      await host.shutdown("eof");
      for (const path of paths) registry.delete(path);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const uiRequests = (events: OutEvent[], method?: string) =>
  events.filter((e) => e.type === "extension_ui_request" && (!method || e.method === method)) as OutEvent<"extension_ui_request">[];

/** `bootExtensions` for a test file: each harness it boots is closed after its test. */
export function bootClosingAfterEach(): (...args: Parameters<typeof bootExtensions>) => Promise<Harness> {
  const harnesses: Harness[] = [];
  afterEach(async () => {
    for (const harness of harnesses.splice(0)) await harness.close();
  });
  return async (...args) => {
    const harness = await bootExtensions(...args);
    harnesses.push(harness);
    return harness;
  };
}
