/**
 * The agent's side of the kernel contract, in-process with a scripted provider: context edits at
 * the run's edges, message_end replacement, notes injected by before_agent_start, messages
 * deferred past a run, agent_settled, an abort read before its prompt started, an abort while a
 * batch of events is relayed, and the input pipeline for steer/follow_up.
 */
import { afterEach, describe, expect, it } from "vitest";
import { bootKernel, removeDir, tempDir } from "../../test/fake-llm/harness.js";
import { batchedAssistantStream, emptyUsage, type AgentMessage, type AssistantMessage, type AssistantMessageEvent, type LlmMessage, type Model } from "../../lib/llm/index.js";
import { definePlugin, type Kernel, type OutEvent } from "../../kernel/index.js";

const MODEL: Model = {
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

/** Answers each call with the next scripted text and records what the model was sent. */
function scriptedProvider(answers: string[], seen: LlmMessage[][], systemPrompts: string[]) {
  return definePlugin({
    name: "scripted",
    requires: ["models"],
    apply(k) {
      k.service("models").registerProvider({ name: "scripted", api: "scripted", models: [MODEL], requiresAuth: false });
      k.hooks.stream.for("scripted").tap(k.name, (request) => {
        seen.push(request.context.messages);
        systemPrompts.push(request.context.systemPrompt);
        const text = answers.shift() ?? "(no more answers)";
        return (async function* (): AsyncGenerator<AssistantMessageEvent> {
          const message: AssistantMessage = {
            role: "assistant",
            content: [{ type: "text", text }],
            api: "scripted",
            provider: "scripted",
            model: "m1",
            usage: emptyUsage(),
            stopReason: "stop",
            timestamp: Date.now(),
          };
          if (request.options.signal.aborted) {
            const error = { ...message, content: [], stopReason: "aborted" as const, errorMessage: "Request was aborted" };
            yield { type: "error", reason: "aborted", error, partial: error };
            return;
          }
          yield { type: "start", partial: { ...message, content: [] } };
          yield { type: "done", reason: "stop", message, partial: message };
        })();
      });
    },
  });
}

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

async function boot(answers: string[], extra: ReturnType<typeof definePlugin>[] = []) {
  const agentDir = await tempDir();
  dirs.push(agentDir);
  const seen: LlmMessage[][] = [];
  const systemPrompts: string[] = [];
  const kernel: Kernel = await bootKernel({ agentDir, plugins: [scriptedProvider(answers, seen, systemPrompts), ...extra], cli: { provider: "scripted", model: "m1" } });
  const events: OutEvent[] = [];
  kernel.events.subscribe((e) => events.push(e));
  const agent = kernel.services.get("agent");
  const run = async (message: string, extraFields: Record<string, unknown> = {}) => {
    await kernel.commands.invoke("prompt", { message, ...extraFields }, { source: "sdk", seq: 0 });
    await agent.waitForIdle();
  };
  return { kernel, agent, events, seen, systemPrompts, run };
}

const texts = (messages: readonly AgentMessage[]) =>
  messages.map((m) =>
    m.role === "assistant"
      ? m.content.map((c) => (c.type === "text" ? c.text : "")).join("")
      : typeof (m as { content?: unknown }).content === "string"
        ? (m as { content: string }).content
        : m.role,
  );

describe("agent contract", () => {
  it("run_start may replace the context before the first LLM call; run_end may edit it and continue", async () => {
    let continued = false;
    const editor = definePlugin({
      name: "editor",
      apply(k) {
        k.hooks.run_start.tap(k.name, (e) => e.setContext([{ role: "user", content: "(compacted)", timestamp: 1 }]));
        k.hooks.run_end.tap(k.name, (e) => {
          if (continued) return undefined;
          continued = true;
          e.setContext([...e.messages, { role: "user", content: "continue please", timestamp: 2 }]);
          return { continue: true };
        });
      },
    });
    const t = await boot(["first", "second"], [editor]);
    t.agent.replaceMessages([{ role: "user", content: "history", timestamp: 0 }]);
    await t.run("now");
    expect(texts(t.seen[0]!)).toEqual(["(compacted)", "now"]);
    expect(texts(t.seen[1]!)).toEqual(["(compacted)", "now", "first", "continue please"]);
    expect(t.events.filter((e) => e.type === "agent_start")).toHaveLength(2);
  });

  it("message_end may replace a message (same role), on the wire and in the context; another role is refused", async () => {
    const redactor = definePlugin({
      name: "redactor",
      apply(k) {
        k.hooks.message_end.tap(k.name, ({ message }) => {
          if (message.role === "assistant") return { message: { ...message, content: [{ type: "text", text: "[redacted]" }] } };
          if (message.role === "user") return { message: { role: "custom", customType: "x", content: "nope", display: true, timestamp: 0 } as AgentMessage };
          return undefined;
        });
      },
    });
    const t = await boot(["secret"], [redactor]);
    await t.run("hi");
    const ends = t.events.filter((e): e is OutEvent<"message_end"> => e.type === "message_end");
    expect(ends.map((e) => e.message.role)).toEqual(["user", "assistant"]);
    expect(texts(ends.map((e) => e.message))).toEqual(["hi", "[redacted]"]);
    expect(texts(t.agent.getMessages())).toEqual(["hi", "[redacted]"]);
  });

  it("before_agent_start may inject a note that is stored and sent with the prompt, and chain the system prompt", async () => {
    const noter = definePlugin({
      name: "noter",
      apply(k) {
        k.hooks.before_agent_start.tap(k.name, (e) => {
          e.inject.push({ role: "custom", customType: "note", content: "remember the rules", display: false, timestamp: 3 });
          return { ...e, systemPrompt: `${e.systemPrompt}\nBe brief.` };
        });
      },
    });
    const t = await boot(["ok"], [noter]);
    await t.run("hi");
    expect(texts(t.seen[0]!)).toEqual(["hi", "remember the rules"]);
    expect(t.agent.getMessages().map((m) => m.role)).toEqual(["user", "custom", "assistant"]);
    expect(t.systemPrompts[0]).toMatch(/\nBe brief\.$/);
  });

  it("appendAfterRun stores at once when idle, after the run (before agent_settled) while one streams", async () => {
    const order: string[] = [];
    const t = await boot(["a1"]);
    t.kernel.hook("agent_settled").tap("t", () => void order.push("settled"));
    const bash = { role: "bashExecution", command: "ls", output: "x", exitCode: 0, cancelled: false, truncated: false, fullOutputPath: null, timestamp: 5 } as const;
    t.kernel.hook("agent_start").tap("t", () => {
      order.push("agent_start");
      void t.agent.appendAfterRun({ ...bash }).then(() => order.push("stored"));
    });
    t.kernel.hook("message_end").tap("t", ({ message }) => void (message.role === "bashExecution" && order.push("recorded")));
    await t.run("go");
    expect(order).toEqual(["agent_start", "recorded", "stored", "settled"]);
    expect(t.agent.getMessages().map((m) => m.role)).toEqual(["user", "assistant", "bashExecution"]);
    await t.agent.appendAfterRun({ ...bash, command: "pwd" });
    expect(t.agent.getMessages()).toHaveLength(4);
    expect(t.events.filter((e) => e.type === "message_end")).toHaveLength(2);
  });

  it("an abort read after a prompt (but before its run started) aborts that run without a provider call", async () => {
    const t = await boot(["never sent"]);
    const prompt = t.kernel.commands.invoke("prompt", { message: "hi" }, { source: "rpc", seq: 1 });
    await t.agent.abort(2);
    await prompt;
    await t.agent.waitForIdle();
    expect(t.seen).toHaveLength(0);
    expect(t.agent.getMessages().at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    await t.kernel.commands.invoke("prompt", { message: "later" }, { source: "rpc", seq: 3 });
    await t.agent.waitForIdle();
    expect(t.seen).toHaveLength(1);
  });

  it("an abort while a message_update tap is awaited ends the relay there, not after the rest of the batch", async () => {
    const batchedProvider = definePlugin({
      name: "batched",
      requires: ["models"],
      apply(k) {
        k.service("models").registerProvider({ name: "batched", api: "batched", models: [{ ...MODEL, api: "batched", provider: "batched" }], requiresAuth: false });
        k.hooks.stream.for("batched").tap(k.name, () =>
          batchedAssistantStream(async function* () {
            const partial: AssistantMessage = {
              role: "assistant",
              content: [],
              api: "batched",
              provider: "batched",
              model: "m1",
              usage: emptyUsage(),
              stopReason: "stop",
              timestamp: Date.now(),
            };
            yield [{ type: "start", partial } satisfies AssistantMessageEvent];
            // One read's worth of deltas, mapped as they are walked.
            yield (function* (): Generator<AssistantMessageEvent> {
              partial.content.push({ type: "text", text: "" });
              yield { type: "text_start", contentIndex: 0, partial };
              for (let i = 0; i < 200; i++) {
                (partial.content[0] as { text: string }).text += "x";
                yield { type: "text_delta", contentIndex: 0, delta: "x", partial };
              }
            })();
          }),
        );
      },
    });
    let updates = 0;
    let agentRef: ReturnType<Kernel["services"]["get"]> | undefined;
    const slowListener = definePlugin({
      name: "slow-listener",
      apply(k) {
        k.hooks.message_update.tapPromise(k.name, async () => {
          updates++;
          if (updates === 3) void (agentRef as { abort(): Promise<void> }).abort();
          await new Promise((resolve) => setTimeout(resolve, 1));
        });
      },
    });
    const agentDir = await tempDir();
    dirs.push(agentDir);
    const kernel = await bootKernel({ agentDir, plugins: [batchedProvider, slowListener], cli: { provider: "batched", model: "m1" } });
    const agent = kernel.services.get("agent");
    agentRef = agent;
    await kernel.commands.invoke("prompt", { message: "go" }, { source: "sdk", seq: 0 });
    await agent.waitForIdle();
    expect(updates).toBe(3);
    const last = agent.getMessages().at(-1) as AssistantMessage;
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted", errorMessage: "Request was aborted" });
    expect(last.content).toEqual([{ type: "text", text: "xx" }]);
  });

  it("steer and follow_up go through the input hook and queue; a handled prompt answers handled and never settles (pi 1.x)", async () => {
    const settled: string[] = [];
    const t = await boot(
      ["x"],
      [
        definePlugin({
          name: "expander",
          apply(k) {
            k.hooks.input.tap(k.name, (e) => (e.text === "/done" ? { ...e, handled: true } : { ...e, text: `${e.via}:${e.text}` }));
          },
        }),
      ],
    );
    t.kernel.hook("agent_settled").tap("t", () => void settled.push("settled"));
    expect(await t.kernel.commands.invoke("steer", { message: "a" }, { source: "rpc", seq: 1 })).toEqual({ disposition: "queued" });
    expect(await t.kernel.commands.invoke("follow_up", { message: "b" }, { source: "rpc", seq: 2 })).toEqual({ disposition: "queued" });
    const queue = t.events.filter((e): e is OutEvent<"queue_update"> => e.type === "queue_update").at(-1)!;
    expect(queue).toEqual({ type: "queue_update", steering: ["steer:a"], followUp: ["follow_up:b"] });
    expect(await t.kernel.commands.invoke("steer", { message: "/done" }, { source: "rpc", seq: 3 })).toEqual({ disposition: "handled" });
    expect(await t.kernel.commands.invoke("prompt", { message: "/done" }, { source: "rpc", seq: 4 })).toEqual({ disposition: "handled" });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toEqual([]);
    expect(t.agent.isStreaming()).toBe(false);
  });

  it("clear_queue takes every queued message (extensions' too) and returns the user texts, with a queue_update", async () => {
    const t = await boot(["x"]);
    await t.kernel.commands.invoke("steer", { message: "a" }, { source: "rpc", seq: 1 });
    await t.kernel.commands.invoke("follow_up", { message: "b" }, { source: "rpc", seq: 2 });
    t.agent.queueMessage("followUp", { role: "custom", customType: "ext", content: "note", display: true, timestamp: 1 } as never);
    expect(t.agent.pendingMessageCount()).toBe(3);
    const before = t.events.length;
    expect(await t.kernel.commands.invoke("clear_queue", {}, { source: "rpc", seq: 3 })).toEqual({ steering: ["a"], followUp: ["b"] });
    expect(t.events.slice(before)).toEqual([{ type: "queue_update", steering: [], followUp: [] }]);
    expect(t.agent.pendingMessageCount()).toBe(0);
    // Nothing queued: an empty answer, and the queue_update all the same (as pi).
    expect(await t.kernel.commands.invoke("clear_queue", {}, { source: "rpc", seq: 4 })).toEqual({ steering: [], followUp: [] });
  });

  it("agent_settled says whether an abort ended the run; a changed thinking level is announced once booted", async () => {
    const t = await boot(["one", "two"]);
    const settled: { aborted: boolean }[] = [];
    t.kernel.hook("agent_settled").tap("t", (event) => void settled.push(event));
    expect(await t.kernel.commands.invoke("prompt", { message: "hi" }, { source: "rpc", seq: 1 })).toEqual({ disposition: "started" });
    await t.agent.waitForIdle();
    expect(settled).toEqual([{ aborted: false }]);
    await t.kernel.commands.invoke("prompt", { message: "again" }, { source: "rpc", seq: 2 });
    await t.agent.abort(3);
    expect(settled).toEqual([{ aborted: false }, { aborted: true }]);
    const from = t.events.length;
    await t.agent.setModel({ ...MODEL, id: "m2", reasoning: true }, "set");
    await t.agent.setThinkingLevel("low");
    await t.agent.setThinkingLevel("low");
    await t.agent.setThinkingLevel("high", { restore: true });
    // A model that clamps the level changes it too (pi 1.x); a session being loaded does not announce.
    await t.agent.setModel(MODEL, "set");
    expect(t.events.slice(from).filter((e) => e.type === "thinking_level_changed")).toEqual([
      { type: "thinking_level_changed", level: "low" },
      { type: "thinking_level_changed", level: "off" },
    ]);
  });

  it("custom messages queue like steer/follow_up texts (not listed in queue_update) and can open a run", async () => {
    const note = (text: string): AgentMessage => ({ role: "custom", customType: "ext", content: text, display: true, timestamp: 1 });
    const t = await boot(["a1", "a2", "a3", "a4"]);
    let queued = false;
    t.kernel.hook("agent_start").tap("t", () => {
      if (queued) return;
      queued = true;
      t.agent.queueMessage("followUp", note("later") as never);
      t.agent.queueMessage("steer", note("now") as never);
    });
    await t.run("go");
    expect(texts(t.seen[1]!)).toEqual(["go", "a1", "now"]);
    expect(texts(t.seen[2]!)).toEqual(["go", "a1", "now", "a2", "later"]);
    expect(t.events.filter((e) => e.type === "queue_update").every((e) => (e as OutEvent<"queue_update">).steering.length === 0)).toBe(true);

    t.agent.queueMessage("steer", note("while idle") as never);
    expect(t.agent.pendingMessageCount()).toBe(1);
    await t.agent.promptMessage(note("triggered") as never);
    await expect(t.agent.promptMessage(note("again") as never)).rejects.toThrow("Agent is already processing");
    await t.agent.waitForIdle();
    expect(texts(t.seen[3]!).slice(-3)).toEqual(["a3", "while idle", "triggered"]);
    expect(t.agent.getMessages().filter((m) => m.role === "custom")).toHaveLength(4);
  });
});
