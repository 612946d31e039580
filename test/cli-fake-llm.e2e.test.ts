/**
 * The built CLI against the loopback fake LLM over real HTTP (official SDKs, real wire formats):
 * steering lands where the protocol says, retries and aborts reach the server, and model selection
 * failures are reported before any event.
 */
import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, tempDir, type Record_ } from "./helpers/rpc-client.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

async function start(options: { model?: string; settings?: Record<string, unknown> } = {}): Promise<RpcClient> {
  const agentDir = tempDir();
  await writeModelsJson(agentDir, fake.url);
  const args = ["--mode", "rpc", "--no-session", ...(options.model ? ["--model", options.model] : [])];
  const client = new RpcClient({ agentDir, args, settings: options.settings, env: NO_KEYS });
  clients.push(client);
  return client;
}

const roles = (messages: { role: string }[]) => messages.map((m) => m.role);

describe("CLI over the fake LLM", () => {
  it("a steer sent during a tool call reaches the next LLM request after the tool result", async () => {
    fake.script({ toolCalls: [{ name: "bash", args: { command: "sleep 0.5; echo tool-done" } }] }, { text: "Both done." });
    const c = await start({ model: "fake-openai/fake-1" });
    await c.request({ type: "prompt", message: "run it" });
    await c.waitForEvent("tool_execution_start");
    const steer = await c.request({ type: "steer", message: "also say hi" });
    const queued = c.records.lastIndexOf(c.records.filter((r) => r.type === "queue_update").at(-1)!);
    expect(queued).toBeLessThan(c.records.indexOf(steer));
    await c.waitForEvent("agent_end");

    expect(fake.requests).toHaveLength(2);
    const second = fake.requests[1]!.body.messages as { role: string; content: unknown }[];
    expect(roles(second).slice(-3)).toEqual(["assistant", "tool", "user"]);
    expect(String(second.at(-2)!.content)).toContain("tool-done");
    expect(JSON.stringify(second.at(-1)!.content)).toContain("also say hi");
    const types = c.types();
    expect(types.indexOf("tool_execution_end")).toBeLessThan(types.lastIndexOf("turn_start"));
    expect(await c.request({ type: "get_last_assistant_text" })).toMatchObject({ data: { text: "Both done." } });
  });

  it("--record writes what a real provider streamed into a cassette (0600) that replays offline", async () => {
    fake.script({ text: "Recorded answer." });
    const agentDir = tempDir();
    await writeModelsJson(agentDir, fake.url);
    const live = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", "--record", "scene"], env: NO_KEYS });
    clients.push(live);
    await live.ok({ type: "prompt", message: "say it" });
    await live.waitForEvent("agent_end");
    await live.close();
    expect(statSync(join(agentDir, "cassettes", "scene.jsonl")).mode & 0o777).toBe(0o600);
    const served = fake.requests.length;
    const replay = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--provider", "replay", "--model", "scene"], env: NO_KEYS });
    clients.push(replay);
    await replay.ok({ type: "prompt", message: "say it" });
    await replay.waitForEvent("agent_end");
    expect(await replay.ok({ type: "get_last_assistant_text" })).toEqual({ text: "Recorded answer." });
    expect(fake.requests.length).toBe(served);
  });

  it("retries a 429 with backoff and succeeds on the next request", async () => {
    fake.script({ status: 429, errorMessage: "Rate limit reached" }, { text: "after retry" });
    const c = await start({ model: "fake-anthropic/fake-1", settings: { retry: { baseDelayMs: 20 } } });
    await c.request({ type: "prompt", message: "hi" });
    const end = await c.waitFor((r) => r.type === "auto_retry_end");
    const startEvent = c.records.find((r) => r.type === "auto_retry_start")!;
    expect(startEvent).toMatchObject({ attempt: 1, maxAttempts: 3, delayMs: 20 });
    expect(String(startEvent.errorMessage)).toContain("429");
    expect(end).toMatchObject({ success: true, attempt: 1 });
    await c.waitFor((r) => r.type === "agent_end" && c.records.indexOf(r) > c.records.indexOf(end));
    expect(fake.requests).toHaveLength(2);
    const messages = (await c.request({ type: "get_messages" })).data as { messages: { role: string; stopReason?: string }[] };
    expect(messages.messages.map((m) => m.stopReason ?? m.role)).toEqual(["user", "stop"]);
  });

  it("abort mid-stream closes the HTTP request and ends the run as aborted", async () => {
    fake.script({ text: "one two three four five six seven eight", stall: 4 });
    const c = await start({ model: "fake-responses/fake-1" });
    await c.request({ type: "prompt", message: "stream" });
    await c.waitForEvent("message_update");
    await c.request({ type: "abort" });
    await fake.waitForDisconnect(0, 5_000);
    const end = c.records.find((r) => r.type === "message_end" && (r.message as { role: string }).role === "assistant")!;
    expect(end.message).toMatchObject({ stopReason: "aborted" });
  });

  it("an unsupported saved default provider blocks prompt before any event until set_model", async () => {
    const c = await start({ settings: { defaultProvider: "nonexistent", defaultModel: "nope" } });
    const rejected = await c.request({ type: "prompt", message: "hi" });
    expect(rejected).toMatchObject({
      success: false,
      error: "Configured default model is unavailable or unsupported. Update defaultProvider/defaultModel or use /model.",
    });
    expect(c.records.filter((r: Record_) => r.type !== "response")).toEqual([]);
    const models = (await c.request({ type: "get_available_models" })).data as { models: { provider: string }[] };
    expect(models.models.some((m) => m.provider === "fake-openai")).toBe(true);
    expect(await c.request({ type: "set_model", provider: "fake-openai", modelId: "fake-1" })).toMatchObject({ success: true, data: { id: "fake-1" } });
    fake.script({ text: "unblocked" });
    expect(await c.request({ type: "prompt", message: "hi" })).toMatchObject({ success: true });
    await c.waitForEvent("agent_end");
    expect(await c.request({ type: "set_model", provider: "ghost", modelId: "x" })).toMatchObject({ success: false, error: "Model not found: ghost/x" });
  });

  it("model objects on the wire never carry models.json headers (they may hold credentials)", async () => {
    const agentDir = tempDir();
    writeFileSync(
      join(agentDir, "models.json"),
      JSON.stringify({ providers: { secretive: { baseUrl: fake.url, api: "anthropic-messages", apiKey: "k", headers: { "x-token": "s3cret" }, models: [{ id: "m1" }] } } }),
    );
    const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--model", "secretive/m1"], env: NO_KEYS });
    clients.push(c);
    const outputs = [
      await c.request({ type: "get_state" }),
      await c.request({ type: "get_available_models" }),
      await c.request({ type: "set_model", provider: "secretive", modelId: "m1" }),
    ];
    for (const output of outputs) expect(output.success).toBe(true);
    expect((outputs[0]!.data as { model: { id: string } }).model.id).toBe("m1");
    expect(JSON.stringify(outputs)).not.toContain("s3cret");
    fake.script({ text: "ok" });
    await c.request({ type: "prompt", message: "hi" });
    await c.waitForEvent("agent_end");
    expect(fake.requests[0]!.headers["x-token"]).toBe("s3cret");
  });

  it("a provider without credentials is rejected with the exact prefix and no request", async () => {
    const c = await start({ model: "anthropic/claude-sonnet-4-6" });
    const state = (await c.request({ type: "get_state" })).data as { model: { provider: string } | null };
    expect(state.model?.provider).toBe("anthropic");
    const rejected = await c.request({ type: "prompt", message: "hi" });
    expect(rejected.success).toBe(false);
    expect(String(rejected.error)).toMatch(/^No API key found for anthropic\./);
    expect(fake.requests).toHaveLength(0);
  });
});
