/**
 * In-process harness for the session plugin tests: a real kernel with fake `agent` and `models`
 * plugins that fire the same hooks the real ones do, and an event log to assert ordering.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKernel, definePlugin, silentLogger, type Kernel } from "../../kernel/index.js";
import type { AgentMessage, Model, ThinkingLevel } from "../../lib/llm/index.js";
import { agentHookDeclarations, type AgentApi, type StateContributor } from "../agent/api.js";
import type { ModelsApi } from "../models/api.js";
import sessionJsonl from "../session-jsonl/index.js";
import session from "./index.js";
import { assistant } from "./fixtures.test-support.js";

export const MODEL: Model = {
  id: "m1",
  name: "M1",
  api: "test-api",
  provider: "test",
  baseUrl: "",
  reasoning: true,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 1000,
  maxTokens: 100,
};
export const OTHER: Model = { ...MODEL, id: "m2", name: "M2" };

export interface Harness {
  kernel: Kernel;
  agent: FakeAgent;
  log: string[];
  dir: string;
  invoke(type: string, raw?: Record<string, unknown>): Promise<any>;
  state(): Record<string, unknown>;
}

/** Just enough of the agent core: state, hooks on change, and an abortable "stream". */
export class FakeAgent {
  messages: AgentMessage[] = [];
  model: Model | null = MODEL;
  thinking: ThinkingLevel = "medium";
  streaming = false;
  sessionId: string | undefined;
  contributors: StateContributor[] = [];
  constructor(
    private readonly kernel: () => Kernel,
    private readonly log: string[],
  ) {}

  api(): AgentApi {
    const self = this;
    const hook = <K extends "model_select" | "thinking_level_select" | "message_end">(name: K) => self.kernel().hook(name);
    return {
      getModel: () => self.model,
      async setModel(model, source) {
        self.log.push(`setModel ${model?.id} ${source}`);
        self.model = model;
        if (model) await hook("model_select").promise({ model, source });
      },
      getThinkingLevel: () => self.thinking,
      async setThinkingLevel(level) {
        const previousLevel = self.thinking;
        self.thinking = level;
        if (level !== previousLevel) await hook("thinking_level_select").promise({ level, previousLevel });
        return level;
      },
      getMessages: () => self.messages,
      replaceMessages(messages) {
        self.log.push(`replaceMessages ${messages.length}`);
        self.messages = [...messages];
      },
      async appendMessage(message) {
        self.messages.push(message);
        await hook("message_end").promise({ message });
      },
      isStreaming: () => self.streaming,
      async abort() {
        if (!self.streaming) return;
        self.streaming = false;
        const aborted = assistant("partial", { stopReason: "aborted" });
        self.messages.push(aborted);
        await hook("message_end").promise({ message: aborted });
        self.log.push("aborted");
      },
      clearQueues() {},
      setSessionId(id) {
        self.sessionId = id;
      },
      addStateContributor(contributor) {
        self.contributors.push(contributor);
      },
    } as Partial<AgentApi> as AgentApi;
  }

  /** Simulates a finished message of a run. */
  async emit(message: AgentMessage): Promise<void> {
    await this.api().appendMessage(message);
  }
}

const created: Harness[] = [];

/** Closes every harness's session file and removes its temp dir (call from afterEach). */
export async function disposeHarnesses(): Promise<void> {
  for (const h of created.splice(0)) {
    await h.kernel.services.get("session").flush();
    await h.kernel.hooks.shutdown.promise({ reason: "exit" });
    await rm(h.dir, { recursive: true, force: true });
  }
}

export async function createHarness(options: { noSession?: boolean; name?: string; store?: boolean } = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), "atomic-session-"));
  const log: string[] = [];
  let kernel!: Kernel;
  const agent = new FakeAgent(() => kernel, log);
  const models: Partial<ModelsApi> = { find: (provider, id) => [MODEL, OTHER].find((m) => m.provider === provider && m.id === id) };
  kernel = createKernel({
    config: {
      agentDir: join(dir, "agent"),
      cwd: dir,
      settings: {},
      cli: { positionals: [], noSession: options.noSession ?? false, ...(options.name ? { name: options.name } : {}) },
      env: {},
      trusted: false,
    },
    log: silentLogger,
  });
  const fakes = [
    definePlugin({ name: "agent", provides: ["agent"], hooks: agentHookDeclarations, apply: (k) => k.provide("agent", agent.api()) }),
    definePlugin({ name: "models", provides: ["models"], apply: (k) => k.provide("models", models as ModelsApi) }),
  ];
  await kernel.use([...fakes, session, ...(options.store === false ? [] : [sessionJsonl])]);
  const h = kernel.hookRegistry.viewFor("test");
  h.session_start.tap("test", (e) => void log.push(`session_start ${e.reason}`));
  h.session_shutdown.tap("test", (e) => void log.push(`session_shutdown ${e.reason}`));
  h.session_info_changed.tap("test", (e) => void log.push(`session_info_changed ${e.name}`));
  await kernel.boot();
  const harness: Harness = {
    kernel,
    agent,
    log,
    dir,
    invoke: (type, raw = {}) => kernel.commands.invoke(type, raw),
    state: () => Object.assign({}, ...agent.contributors.map((c) => c())),
  };
  created.push(harness);
  return harness;
}
