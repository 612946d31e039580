/**
 * pi's AgentSession over an SDK agent (a scripted stand-in for `createAgent`'s object): options
 * mapped to createAgent's, state read after commands, the runtime's session commands, and the
 * members Atomic does not have refused with the way to do it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { Agent, AgentEvent, CreateAgentOptions } from "../../../sdk/index.js";
import { agentOptions } from "./agent-session-options.js";
import { agentSessionFunctions } from "./agent-session-create.js";
import { agentSessionRuntimeFunctions } from "./agent-session-runtime.js";

const dir = mkdtempSync(join(tmpdir(), "atomic-agent-session-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An agent that answers `prompt` with one reply and records the commands it is sent. */
function scriptedAgent(replies: Record<string, unknown>[] = []) {
  let prompts = 0;
  const listeners = new Set<(event: AgentEvent) => void>();
  const messages: Record<string, unknown>[] = [];
  const sent: Record<string, unknown>[] = [];
  const state = {
    model: { provider: "p", id: "m1" } as { provider: string; id: string; api?: string },
    thinkingLevel: "off",
    isStreaming: false,
    steeringMode: "all",
    followUpMode: "all",
    sessionId: "s-1",
    pendingMessageCount: 0,
    sessionFile: "/s/1.jsonl",
  };
  const emit = (event: Record<string, unknown>) => {
    for (const listener of listeners) listener(event as unknown as AgentEvent);
  };
  let disposed = 0;
  const agent = {
    cwd: dir,
    agentDir: dir,
    subscribe(listener: (event: AgentEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async send(command: Record<string, unknown>) {
      sent.push(command);
      if (command.type === "get_state") return { type: "response", command: "get_state", success: true, data: { ...state } };
      if (command.type === "get_available_models")
        return { type: "response", command: command.type, success: true, data: { models: [PHYSICAL, { ...ROUTER, api: "pi-virtual" }], scopedModels: [] } };
      if (command.type === "set_model")
        state.model = command.provider === ROUTER.provider ? { ...ROUTER, api: "pi-virtual" } : { provider: String(command.provider), id: String(command.modelId) };
      if (command.type === "new_session") {
        messages.length = 0;
        state.sessionFile = "/s/2.jsonl";
      }
      if (command.type === "set_thinking_level" && command.level === "bogus")
        return { type: "response", command: command.type, success: false, error: "Invalid level: expected a thinking level" };
      return { type: "response", command: command.type, success: true, data: { cancelled: false } };
    },
    async getMessages() {
      // As in process: the agent's own array.
      return messages;
    },
    async prompt(text: string) {
      emit({ type: "agent_start" });
      for (const message of [
        { role: "user", content: text },
        { role: "assistant", content: [{ type: "text", text: `echo ${text}` }], stopReason: "stop", ...replies[prompts++] },
      ]) {
        messages.push(message);
        emit({ type: "message_end", message });
      }
      emit({ type: "agent_settled", aborted: false });
      return { disposition: "started", aborted: false, messages: [], events: [], text: null };
    },
    async dispose() {
      disposed++;
    },
  };
  return { agent: agent as unknown as Agent, sent, disposed: () => disposed };
}

const ROUTER = { provider: "router", id: "auto" };
const PHYSICAL = { provider: "p", id: "m1", api: "openai-completions" };

function boot(replies?: Record<string, unknown>[]) {
  const scripted = scriptedAgent(replies);
  const created: CreateAgentOptions[] = [];
  const sessions = agentSessionFunctions(
    async () => async (options) => {
      created.push(options);
      return scripted.agent;
    },
    () => ({ cwd: dir, agentDir: dir }),
  );
  return { ...scripted, created, ...sessions };
}

describe("createAgentSession over an SDK agent", () => {
  it("maps pi's options onto createAgent's", () => {
    const file = join(dir, "old.jsonl");
    writeFileSync(file, "{}\n");
    const persisted = { isPersisted: () => true, getSessionFile: () => file, getSessionDir: () => "/elsewhere", usesDefaultSessionDir: () => false };
    expect(
      agentOptions(
        {
          model: { provider: "p", id: "m" },
          thinkingLevel: "high",
          tools: ["read", "bash"],
          excludeTools: ["ls"],
          noTools: "builtin",
          scopedModels: [{ model: { provider: "p", id: "n" } }],
          sessionManager: persisted,
        },
        { cwd: "/c", agentDir: "/a" },
      ).create,
    ).toEqual({
      cwd: "/c",
      agentDir: "/a",
      model: "p/m",
      settings: { enabledModels: ["p/n"] },
      session: { dir: "/elsewhere" },
      flags: { thinking: "high", tools: "read,bash", excludeTools: "ls", noBuiltinTools: true, session: file },
    });
    const memory = { isPersisted: () => false, getSessionFile: () => undefined, getSessionDir: () => "" };
    expect(agentOptions({ sessionManager: memory, settingsManager: { getSettings: () => ({ theme: "dark" }) } }, { cwd: "/c", agentDir: "/a" }).create).toEqual({
      cwd: "/c",
      agentDir: "/a",
      session: false,
      settingsFiles: false,
      settings: { theme: "dark" },
    });
    expect(() => agentOptions({ customTools: [{}] }, { cwd: "/c", agentDir: "/a" })).toThrow(
      "createAgentSession({ customTools }) is not supported in Atomic: register the tools from an extension",
    );
    expect(() => agentOptions({ resourceLoader: {} }, { cwd: "/c", agentDir: "/a" })).toThrow(/resourceLoader/);
  });

  it("an awaited prompt leaves the reply in messages, without touching the agent's own array", async () => {
    const { createAgentSession, created } = boot();
    const { session } = await createAgentSession();
    expect(created).toEqual([{ cwd: dir, agentDir: dir }]);
    await session.prompt("hi");
    expect(session.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(session.getLastAssistantText()).toBe("echo hi");
    expect(session.state).toMatchObject({ isStreaming: false, errorMessage: undefined, model: { provider: "p", id: "m1" } });
    expect([session.sessionFile, session.sessionId, session.isIdle]).toEqual(["/s/1.jsonl", "s-1", true]);
    await session.setModel({ provider: "q", id: "m2" });
    expect(session.model).toEqual({ provider: "q", id: "m2" });
    await expect(session.setThinkingLevel("bogus")).rejects.toThrow("Invalid level: expected a thinking level");
  });

  it("routedModel: under a virtual model, the model and level of the latest successful answer (pi 1.6)", async () => {
    const { createAgentSession, sent } = boot([
      { provider: "p", model: "m1", thinkingLevel: "low" },
      { provider: "q", model: "m9", thinkingLevel: "high", stopReason: "error" },
    ]);
    const { session } = await createAgentSession();
    // On a physical model: none, and no models request for it.
    await session.prompt("hi");
    expect(session.routedModel).toBeUndefined();
    expect(sent.filter((command) => command.type === "get_available_models")).toEqual([]);
    await session.setModel({ ...ROUTER, api: "pi-virtual" });
    expect(session.routedModel).toEqual({ model: PHYSICAL, thinkingLevel: "low" });
    // A failed answer is passed over, as pi does.
    await session.prompt("again");
    expect(session.messages.at(-1)).toMatchObject({ provider: "q", stopReason: "error" });
    expect(session.routedModel).toEqual({ model: PHYSICAL, thinkingLevel: "low" });
  });

  it("refuses what Atomic does not have, naming the way", async () => {
    const { createAgentSession, AgentSession, disposed } = boot();
    const { session } = await createAgentSession();
    expect(() => (session as unknown as { getSessionStats(): unknown }).getSessionStats()).toThrow(
      "AgentSession.getSessionStats() is not available in Atomic: count from session.messages",
    );
    expect(() => (session as unknown as { agent: unknown }).agent).toThrow("AgentSession.agent is not available in Atomic");
    expect(() => new AgentSession({})).toThrow("new AgentSession() is not supported in Atomic: use `await createAgentSession(options)`");
    await Promise.all([session.dispose(), session.dispose()]);
    expect(disposed()).toBe(1);
  });

  it("the runtime runs new-session on the same session object and rebinds", async () => {
    const booted = boot();
    const runtimeFns = agentSessionRuntimeFunctions({
      createAgentSession: booted.createAgentSession,
      createModelRuntime: async () => ({ catalog: true }),
      createSettingsManager: () => ({ getSettings: () => ({}) }),
      agentDir: dir,
    });
    const memory = { isPersisted: () => false, getSessionFile: () => undefined, getSessionDir: () => "" };
    const runtime = await runtimeFns.createAgentSessionRuntime(
      async ({ cwd, sessionManager }) => {
        const services = await runtimeFns.createAgentSessionServices({ cwd });
        expect(() => services.resourceLoader).toThrow("AgentSessionServices.resourceLoader is not available in Atomic");
        return { ...(await runtimeFns.createAgentSessionFromServices({ services, sessionManager })), services, diagnostics: services.diagnostics };
      },
      { cwd: dir, agentDir: dir, sessionManager: memory },
    );
    // The settings manager made from the files is not passed on: the agent reads the files (and the user's plugins) itself.
    expect(booted.created).toEqual([{ cwd: dir, agentDir: dir, session: false }]);
    const rebound: unknown[] = [];
    runtime.setRebindSession(async (session) => {
      rebound.push(session);
    });
    await runtime.session.prompt("one");
    expect(await runtime.newSession()).toEqual({ cancelled: false });
    expect(rebound).toEqual([runtime.session]);
    expect(runtime.session.sessionFile).toBe("/s/2.jsonl");
    expect(runtime.session.messages).toEqual([]);
    await expect(runtime.fork("e1", { position: "at" })).rejects.toThrow(/position: "at"/);
    await expect(runtime.newSession({ setup: async () => {} })).rejects.toThrow(/newSession\(\{ setup \}\) is not supported/);
    await expect(runtimeFns.createAgentSessionServices({ cwd: dir, resourceLoaderOptions: { additionalExtensionPaths: ["x"] } })).rejects.toThrow(/resourceLoaderOptions/);
  });
});
