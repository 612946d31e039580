/**
 * Conformance over the built CLI, beyond the feature suites: the `id` envelope field, bad input
 * on every in-scope command, what stdout carries for model/thinking changes, and
 * get_last_assistant_text. Replay cassettes only (fast, offline).
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { errorTurn } from "./helpers/agent-harness.js";
import { RpcClient, tempDir, textTurn, toolTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

/**
 * A CLI on replay cassette `a` (no reasoning) in a fresh agent dir, plus `err` (a 401) and the
 * models.json fake-* providers (reasoning; never called here, so their URL is a dead port).
 */
async function start(options: { turns?: object[][]; session?: boolean; eventDelayMs?: number } = {}): Promise<RpcClient> {
  const agentDir = tempDir("atomic-agent-");
  writeCassette(agentDir, "a", options.turns ?? [textTurn("Hello there.")], options.eventDelayMs ? { eventDelayMs: options.eventDelayMs } : {});
  writeCassette(agentDir, "err", [errorTurn("401 invalid x-api-key")]);
  await writeModelsJson(agentDir, "http://127.0.0.1:9");
  const args = ["--mode", "rpc", "--provider", "replay", "--model", "a", ...(options.session ? [] : ["--no-session"])];
  const client = new RpcClient({ agentDir, args, env: NO_KEYS });
  clients.push(client);
  return client;
}

/** Writes raw lines, then resolves once the response to a trailing marker command arrived. */
async function script(c: RpcClient, lines: string[]): Promise<Record_[]> {
  const from = c.records.length;
  c.write([...lines, '{"type":"get_state","id":"__end__"}'].join("\n") + "\n");
  await c.waitFor((r) => r.id === "__end__", 10_000, from);
  return c.records.slice(from, -1);
}

describe("the id field", () => {
  it("rejects an id that is not a string or a finite number, without echoing or running the command", async () => {
    const c = await start();
    const records = await script(c, [
      '{"type":"abort","id":true}',
      '{"type":"set_steering_mode","mode":"all","id":null}',
      '{"type":"get_state","id":{"x":1}}',
      '{"type":"prompt","message":"hi","id":["p"]}',
      '{"type":"nope","id":false}',
      '{"type":"get_state","id":1e400}',
      '{"id":1e400}',
    ]);
    const invalid = "Invalid id: expected string or number";
    expect(records).toEqual([
      { type: "response", command: "abort", success: false, error: invalid },
      { type: "response", command: "set_steering_mode", success: false, error: invalid },
      { type: "response", command: "get_state", success: false, error: invalid },
      { type: "response", command: "prompt", success: false, error: invalid },
      { type: "response", command: "nope", success: false, error: invalid },
      { type: "response", command: "get_state", success: false, error: "Invalid id: expected a finite number" },
      { type: "response", command: "unknown", success: false, error: 'Invalid command: expected a JSON object with a string "type"' },
    ]);
    const state = c.records.at(-1)!.data as Record<string, unknown>;
    expect(state).toMatchObject({ steeringMode: "one-at-a-time", isStreaming: false });
  });
});

describe("bad input on every in-scope command", () => {
  const cases: [string, string][] = [
    ['{"type":"prompt"}', "Invalid message: expected string"],
    ['{"type":"prompt","message":null}', "Invalid message: expected string"],
    ['{"type":"prompt","message":["x"]}', "Invalid message: expected string"],
    ['{"type":"prompt","message":"x","images":{}}', "Invalid images: expected array"],
    ['{"type":"prompt","message":"x","images":[null]}', "Invalid images.0: expected object"],
    ['{"type":"prompt","message":"x","images":[{"type":"image","data":"aGVsbG8=","mimeType":7}]}', "Invalid images.0.mimeType: expected string"],
    // Stored unchecked, either would be refused by the provider on every later request of the session.
    [
      '{"type":"prompt","message":"x","images":[{"type":"image","data":"aGVsbG8=","mimeType":"text/plain"}]}',
      'Invalid images.0.mimeType: expected an image type, such as "image/png"',
    ],
    [
      '{"type":"follow_up","message":"x","images":[{"type":"image","data":"not base64!","mimeType":"image/png"}]}',
      "Invalid images.0.data: expected base64-encoded image bytes (no data: prefix, no line breaks)",
    ],
    ['{"type":"prompt","message":"x","streamingBehavior":"later"}', 'Invalid streamingBehavior: expected one of "steer", "followUp"'],
    ['{"type":"steer","message":1e400}', "Invalid message: expected string"],
    ['{"type":"steer","message":"x","images":[{"type":"video","data":"a","mimeType":"b"}]}', 'Invalid images.0.type: expected "image"'],
    ['{"type":"follow_up"}', "Invalid message: expected string"],
    ['{"type":"set_model","provider":"replay"}', "Invalid modelId: expected string"],
    ['{"type":"set_model","provider":12345678901234567890,"modelId":"a"}', "Invalid provider: expected string"],
    ['{"type":"cycle_model","direction":"up"}', 'Invalid direction: expected one of "forward", "backward"'],
    ['{"type":"set_thinking_level","level":"ultra"}', 'Invalid level: expected one of "off", "minimal", "low", "medium", "high", "xhigh", "max"'],
    ['{"type":"set_thinking_level","level":null}', 'Invalid level: expected one of "off", "minimal", "low", "medium", "high", "xhigh", "max"'],
    ['{"type":"set_steering_mode","mode":"ALL"}', 'Invalid mode: expected one of "all", "one-at-a-time"'],
    ['{"type":"set_follow_up_mode"}', 'Invalid mode: expected one of "all", "one-at-a-time"'],
    ['{"type":"set_auto_retry","enabled":"yes"}', "Invalid enabled: expected boolean"],
    ['{"type":"set_auto_compaction","enabled":0}', "Invalid enabled: expected boolean"],
    ['{"type":"logout_provider","provider":[]}', "Invalid provider: expected string"],
    ['{"type":"new_session","parentSession":5}', "Invalid parentSession: expected string"],
    ['{"type":"switch_session"}', "Invalid sessionPath: expected string"],
    ['{"type":"import_session","inputPath":{}}', "Invalid inputPath: expected string"],
    ['{"type":"fork","entryId":null}', "Invalid entryId: expected string"],
    ['{"type":"get_entries","since":7}', "Invalid since: expected string"],
    ['{"type":"set_session_name","name":true}', "Invalid name: expected string"],
    ['{"type":"export_html","outputPath":false}', "Invalid outputPath: expected string"],
  ];

  it("answers each with success:false naming the field; the process and the session survive", async () => {
    const c = await start({ session: true });
    const first = await c.request({ type: "prompt", message: "keep me" });
    expect(first.success).toBe(true);
    // agent_settled comes after agent_end: wait for it so no event interleaves with the answers.
    await c.waitForEvent("agent_settled");
    const before = await c.request({ type: "get_messages" });

    const records = await script(
      c,
      cases.map(([line], i) => line.replace(/}$/, `,"id":"c${i}"}`)),
    );
    expect(records.map((r) => [r.id, r.success, r.error])).toEqual(cases.map(([, error], i) => [`c${i}`, false, error]));
    expect(records.every((r) => r.type === "response")).toBe(true); // nothing ran

    expect(await c.request({ type: "get_messages" })).toMatchObject({ success: true, data: before.data });
    const state = (await c.request({ type: "get_state" })).data as { sessionFile: string };
    expect((await c.close()).code).toBe(0);
    const lines = readFileSync(state.sessionFile, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record_);
    expect(lines.filter((l) => l.type === "message").map((l) => (l.message as { role: string }).role)).toEqual(["user", "assistant"]);
  });
});

describe("model and thinking commands", () => {
  it("put their responses on stdout, and thinking_level_changed (pi 1.x) before the response that changed the level; model_select is a hook, not an event", async () => {
    const c = await start();
    const from = c.records.length;
    expect(await c.request({ type: "set_model", provider: "fake-openai", modelId: "fake-1" })).toMatchObject({ success: true });
    await c.request({ type: "set_thinking_level", level: "high" });
    await c.request({ type: "set_thinking_level", level: "high" });
    await c.request({ type: "cycle_thinking_level" });
    expect((await c.request({ type: "cycle_model" })).data).toMatchObject({ isScoped: false });
    await c.request({ type: "cycle_model", direction: "backward" });
    const records = c.records.slice(from);
    expect(records.map((r) => r.type)).toEqual(["response", "thinking_level_changed", "response", "response", "thinking_level_changed", "response", "response", "response"]);
    expect(records.filter((r) => r.type === "thinking_level_changed")).toEqual([
      { type: "thinking_level_changed", level: "high" },
      { type: "thinking_level_changed", level: "off" },
    ]);
  });

  it("cycle forward/backward, clamp thinking to the model, and report it in get_state", async () => {
    const c = await start();
    type Model = { provider: string; id: string };
    const state = async () => (await c.request({ type: "get_state" })).data as { model: Model; thinkingLevel: string };
    expect(await state()).toMatchObject({ model: { provider: "replay", id: "a" }, thinkingLevel: "off" }); // medium clamped
    expect(await c.request({ type: "cycle_thinking_level" })).toMatchObject({ success: true, data: null });
    expect((await c.request({ type: "get_available_thinking_levels" })).data).toEqual({ levels: ["off"] });

    const fake = { provider: "fake-openai", id: "fake-1", reasoning: true, contextWindow: 200_000 };
    expect(await c.request({ type: "set_model", provider: "fake-openai", modelId: "fake-1" })).toMatchObject({ success: true, data: fake });
    expect((await c.request({ type: "get_available_thinking_levels" })).data).toEqual({ levels: ["off", "minimal", "low", "medium", "high"] });
    expect(await c.request({ type: "set_thinking_level", level: "xhigh" })).toEqual(expect.objectContaining({ success: true }));
    expect(await state()).toMatchObject({ model: fake, thinkingLevel: "high" });
    expect((await c.request({ type: "cycle_thinking_level" })).data).toEqual({ level: "off" });

    const models = ((await c.request({ type: "get_available_models" })).data as { models: Model[] }).models;
    const at = models.findIndex((m) => m.provider === "fake-openai" && m.id === "fake-1");
    const next = models[(at + 1) % models.length]!;
    expect((await c.request({ type: "cycle_model" })).data).toMatchObject({ model: { provider: next.provider, id: next.id }, isScoped: false });
    expect((await state()).model).toMatchObject({ provider: next.provider, id: next.id });
    expect((await c.request({ type: "cycle_model", direction: "backward" })).data).toMatchObject({ model: fake });
    expect(await c.request({ type: "set_model", provider: "replay", modelId: "zzz" })).toMatchObject({ success: false, error: "Model not found: replay/zzz" });
  });

  it("set_model and set_thinking_level while streaming answer at once and the run goes on", async () => {
    const c = await start({ turns: [textTurn("one two three four five six", 6)], eventDelayMs: 25 });
    const from = c.records.length;
    await c.request({ type: "prompt", message: "go" });
    await c.waitForEvent("message_update", 5000, from);
    expect(await c.request({ type: "set_model", provider: "fake-openai", modelId: "fake-1" })).toMatchObject({ success: true });
    expect(await c.request({ type: "set_thinking_level", level: "low" })).toEqual(expect.objectContaining({ success: true }));
    expect((await c.request({ type: "get_state" })).data).toMatchObject({ isStreaming: true, model: { id: "fake-1" }, thinkingLevel: "low" });
    const end = await c.waitForEvent("agent_end", 5000, from);
    expect((end.messages as { stopReason?: string }[]).at(-1)).toMatchObject({ stopReason: "stop", model: "a" });
  });
});

describe("get_last_assistant_text", () => {
  it("is the last assistant message's text: null when it has none, an aborted empty turn is skipped", async () => {
    const c = await start({ turns: [textTurn("First answer.")] });
    await c.request({ type: "prompt", message: "one" });
    await c.waitForEvent("agent_end");
    expect((await c.request({ type: "get_last_assistant_text" })).data).toEqual({ text: "First answer." });
    await c.request({ type: "set_model", provider: "replay", modelId: "err" }); // the next answer is a 401
    const from = c.records.length;
    await c.request({ type: "prompt", message: "two" });
    await c.waitForEvent("agent_end", 5000, from);
    expect((await c.request({ type: "get_last_assistant_text" })).data).toEqual({ text: null });
  });

  it("skips the closing aborted turn of a run aborted during a tool", async () => {
    const c = await start({ turns: [toolTurn("t1", "bash", { command: "sleep 5" }, "Running it.")] });
    const from = c.records.length;
    await c.request({ type: "prompt", message: "go" });
    await c.waitForEvent("tool_execution_start", 5000, from);
    await c.request({ type: "abort" });
    const messages = ((await c.request({ type: "get_messages" })).data as { messages: { role: string; stopReason?: string; content: unknown[] }[] }).messages;
    expect(messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted", content: [] });
    expect((await c.request({ type: "get_last_assistant_text" })).data).toEqual({ text: "Running it." });
  });
});

describe("signals", () => {
  it.each([
    ["SIGINT", 130],
    ["SIGHUP", 129],
  ] as const)("%s closes the running run, then exits %i", async (signal, code) => {
    const c = await start({ turns: [textTurn("word ".repeat(100), 100)], eventDelayMs: 10 });
    await c.request({ type: "prompt", message: "go" });
    await c.waitForEvent("message_update");
    c.child.kill(signal);
    expect((await c.exited).code).toBe(code);
    expect(c.types().slice(-4)).toEqual(["message_end", "turn_end", "agent_end", "agent_settled"]);
    expect(c.records.at(-4)).toMatchObject({ message: { role: "assistant", stopReason: "aborted" } });
  });
});
