/**
 * The agent loop driving a real SDK against the fake server: prompt -> message_update stream
 * -> final message, as a transport sees it (each event serialised the moment it is emitted).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { AssistantMessage } from "../../lib/llm/index.js";
import anthropicPlugin from "../../plugins/provider-anthropic/index.js";
import openaiPlugin from "../../plugins/provider-openai/index.js";
import { bootKernel, removeDir, tempDir } from "./harness.js";
import { startFakeLlm, writeModelsJson, type FakeLlm } from "./server.js";

let fake: FakeLlm;
let agentDir: string;
let kernel: Kernel;
let wire: any[];

// Each test gets its own server, agent dir and kernel: no test sees another's conversation or requests.
beforeEach(async () => {
  fake = await startFakeLlm();
  agentDir = await tempDir();
  await writeModelsJson(agentDir, fake.url);
  kernel = await bootKernel({ agentDir, plugins: [anthropicPlugin, openaiPlugin], cli: { model: "fake-anthropic/fake-1" } });
  wire = [];
  kernel.events.subscribe((event) => wire.push(JSON.parse(JSON.stringify(event))));
});
afterEach(async () => {
  await kernel.services.get("agent").abort();
  await fake.close();
  await removeDir(agentDir);
});

const invoke = (name: string, raw: Record<string, unknown> = {}) => kernel.commands.invoke(name, raw) as Promise<any>;
const idle = () => kernel.services.get("agent").waitForIdle();
const lastAssistant = (): AssistantMessage =>
  kernel.services
    .get("agent")
    .getMessages()
    .filter((m) => m.role === "assistant")
    .at(-1) as AssistantMessage;

describe("agent loop over a real provider", () => {
  it("streams message_update snapshots that match each delta", async () => {
    fake.script({ thinking: "Think", text: "Hello from the fake" });
    await invoke("prompt", { message: "hi" });
    await idle();
    const updates = wire.filter((e) => e.type === "message_update");
    expect(updates.length).toBeGreaterThan(4);
    for (const update of updates) expect(update.message).toEqual(update.assistantMessageEvent.partial);
    let text = "";
    for (const update of updates.filter((u) => u.assistantMessageEvent.type === "text_delta")) {
      text += update.assistantMessageEvent.delta;
      expect(update.message.content.at(-1).text).toBe(text);
    }
    expect(text).toBe("Hello from the fake");
    expect(wire.map((e) => e.type)).toEqual(expect.arrayContaining(["agent_start", "message_start", "message_end", "turn_end", "agent_end"]));
    expect(lastAssistant()).toMatchObject({ stopReason: "stop", provider: "fake-anthropic", usage: { input: 10, output: 5 } });
    expect(lastAssistant().usage.cost.total).toBeGreaterThan(0);
  });

  it("sends the conversation back on the next prompt, including the thinking signature", async () => {
    fake.script({ thinking: "Think", text: "first answer" }, { text: "second answer" });
    await invoke("prompt", { message: "hi" });
    await idle();
    await invoke("prompt", { message: "again" });
    await idle();
    const messages = fake.requests[1]!.body.messages;
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(messages[1].content[0]).toMatchObject({ type: "thinking", signature: "sig-part-1sig-part-2" });
  });

  it("aborts a streaming run: stopReason aborted and the HTTP request is cancelled", async () => {
    fake.script({ text: "one two three four", stall: 4 });
    await invoke("prompt", { message: "long" });
    await fake.waitForRequests(1);
    while (!wire.some((e) => e.type === "message_update")) await new Promise((r) => setTimeout(r, 5));
    await invoke("abort");
    expect(lastAssistant()).toMatchObject({ stopReason: "aborted", content: [{ type: "text", text: "one " }] });
    await fake.waitForDisconnect(0);
  });

  it("records a provider error as the turn's final message", async () => {
    fake.script({ status: 529 });
    await invoke("prompt", { message: "fail" });
    await idle();
    expect(lastAssistant()).toMatchObject({ stopReason: "error", errorMessage: expect.stringMatching(/^529 /) });
  });

  it("switches providers mid-conversation and converts the history", async () => {
    fake.script({ thinking: "Think", text: "from anthropic" }, { text: "from responses" });
    await invoke("prompt", { message: "hi" });
    await idle();
    await invoke("set_model", { provider: "fake-responses", modelId: "fake-1" });
    await invoke("prompt", { message: "switch" });
    await idle();
    const input = fake.requests[1]!.body.input;
    // Anthropic's signed thinking is not replayable to OpenAI: it arrives as plain assistant text.
    expect(input).toContainEqual({ role: "assistant", content: "Think" });
    expect(lastAssistant()).toMatchObject({ provider: "fake-responses", content: [{ type: "text", text: "from responses" }] });
  });
});
