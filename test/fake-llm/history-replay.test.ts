/**
 * A conversation that crossed providers, replayed through the agent loop to each wire format:
 * the agent core drops failed/aborted turns and answers orphaned calls, the provider layer turns
 * foreign thinking into text, drops foreign redacted thinking and signatures, and fits tool-call
 * ids to what each API accepts with every result still pointing at its call.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import { emptyUsage, type AgentMessage, type AssistantMessage } from "../../lib/llm/index.js";
import anthropicPlugin from "../../plugins/provider-anthropic/index.js";
import googlePlugin from "../../plugins/provider-google/index.js";
import openaiPlugin from "../../plugins/provider-openai/index.js";
import { bootKernel, removeDir, tempDir } from "./harness.js";
import { writeModelsJson, type FakeProviderName } from "./server.js";
import { useFakeLlm } from "../helpers/use-fake-llm.js";

const fake = useFakeLlm();
let agentDir: string;
let kernel: Kernel;

beforeAll(async () => {
  agentDir = await tempDir();
  await writeModelsJson(agentDir, fake.url);
  kernel = await bootKernel({ agentDir, plugins: [anthropicPlugin, openaiPlugin, googlePlugin], cli: { model: "fake-anthropic/fake-1" } });
});
afterAll(async () => {
  await removeDir(agentDir);
});

const LONG_ID = `call_abc|fc_${"0123456789".repeat(7)}`;
const turn = (provider: string, api: string, model: string, content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "toolUse"): AssistantMessage => ({
  role: "assistant",
  content,
  api,
  provider,
  model,
  usage: emptyUsage(),
  stopReason,
  timestamp: 2,
});
const result = (toolCallId: string, text: string): AgentMessage => ({
  role: "toolResult",
  toolCallId,
  toolName: "bash",
  content: [{ type: "text", text }],
  isError: false,
  timestamp: 3,
});

/** Claude (signed + redacted thinking), then GPT (reasoning item, call|item ids, one call never answered), then a failed and an aborted turn. */
function history(): AgentMessage[] {
  return [
    { role: "user", content: "start", timestamp: 1 },
    turn("anthropic", "anthropic-messages", "claude-sonnet-4-6", [
      { type: "thinking", thinking: "Claude plans", thinkingSignature: "sig-claude" },
      { type: "thinking", thinking: "[Reasoning redacted]", redacted: true, thinkingSignature: "opaque" },
      { type: "text", text: "Listing" },
      { type: "toolCall", id: "toolu_01A", name: "bash", arguments: { command: "ls" } },
    ]),
    result("toolu_01A", "a.txt"),
    turn("openai", "openai-responses", "gpt-5.4", [
      { type: "thinking", thinking: "GPT reasons", thinkingSignature: '{"type":"reasoning","id":"rs_1","encrypted_content":"enc-gpt"}' },
      { type: "text", text: "Reading", textSignature: '{"v":1,"id":"msg_1"}' },
      { type: "toolCall", id: LONG_ID, name: "bash", arguments: { command: "cat a.txt" } },
      { type: "toolCall", id: "call_def|fc_2", name: "bash", arguments: { command: "pwd" } },
    ]),
    result(LONG_ID, "hello"),
    turn("fake-anthropic", "anthropic-messages", "fake-1", [{ type: "text", text: "FAILED-TURN" }], "error"),
    turn(
      "fake-anthropic",
      "anthropic-messages",
      "fake-1",
      [
        { type: "text", text: "ABORTED-TURN" },
        { type: "toolCall", id: "toolu_gone", name: "bash", arguments: {} },
      ],
      "aborted",
    ),
  ];
}

async function replayTo(provider: FakeProviderName): Promise<any> {
  const agent = kernel.services.get("agent");
  await kernel.commands.invoke("set_model", { provider, modelId: "fake-1" });
  agent.replaceMessages(history());
  fake.requests.length = 0;
  fake.script({ text: "done" });
  await kernel.commands.invoke("prompt", { message: "continue" });
  await agent.waitForIdle();
  expect(agent.getMessages().at(-1)).toMatchObject({ role: "assistant", stopReason: "stop" });
  const body = fake.requests[0]!.body;
  const wire = JSON.stringify(body);
  for (const gone of ["FAILED-TURN", "ABORTED-TURN", "toolu_gone", "sig-claude", "opaque", "enc-gpt", "rs_1", "msg_1", "[Reasoning redacted]"]) expect(wire).not.toContain(gone);
  return body;
}

describe("cross-provider history replay", () => {
  it("to Anthropic: thinking as text, ids fitted to [A-Za-z0-9_-]{1,64}, one result block per call", async () => {
    const { messages } = await replayTo("fake-anthropic");
    expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "user", "assistant", "user", "user"]);
    expect(messages[1].content).toEqual([
      { type: "text", text: "Claude plans" },
      { type: "text", text: "Listing" },
      { type: "tool_use", id: "toolu_01A", name: "bash", input: { command: "ls" } },
    ]);
    expect(messages[3].content.slice(0, 2)).toEqual([
      { type: "text", text: "GPT reasons" },
      { type: "text", text: "Reading" },
    ]);
    const uses = messages[3].content.filter((b: any) => b.type === "tool_use").map((b: any) => b.id);
    for (const id of uses) expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(uses[1]).toBe("call_def_fc_2");
    const results = messages[4].content;
    expect(results.map((b: any) => b.tool_use_id)).toEqual(uses);
    expect(results.map((b: any) => b.is_error)).toEqual([false, true]); // the unanswered call gets a synthetic error result
  });

  it("to OpenAI Chat: call ids without the item part, at most 40 characters, results matched", async () => {
    const { messages } = await replayTo("fake-openai");
    const assistants = messages.filter((m: any) => m.role === "assistant");
    expect(assistants.map((m: any) => m.content)).toEqual(["Claude plansListing", "GPT reasonsReading"]);
    for (const m of assistants) expect(m.reasoning_content).toBeUndefined();
    const ids = assistants.flatMap((m: any) => m.tool_calls.map((c: any) => c.id));
    expect(ids).toEqual(["toolu_01A", "call_abc", "call_def"]);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(40);
    const tools = messages.filter((m: any) => m.role === "tool");
    expect(tools.map((m: any) => m.tool_call_id)).toEqual(ids);
    // Every tool message directly follows its call's assistant message (or a sibling result).
    for (const [i, m] of messages.entries()) if (m.role === "tool") expect(["assistant", "tool"]).toContain(messages[i - 1].role);
  });

  it("to OpenAI Responses (another model): no foreign items or item ids, call_ids paired with outputs", async () => {
    const { input } = await replayTo("fake-responses");
    expect(input.filter((i: any) => i.type === "reasoning")).toEqual([]);
    const calls = input.filter((i: any) => i.type === "function_call");
    expect(calls.map((c: any) => [c.call_id, c.id])).toEqual([
      ["toolu_01A", undefined],
      ["call_abc", undefined],
      ["call_def", undefined],
    ]);
    const outputs = input.filter((i: any) => i.type === "function_call_output");
    expect(outputs.map((o: any) => o.call_id)).toEqual(["toolu_01A", "call_abc", "call_def"]);
    expect(input).toContainEqual({ role: "assistant", content: "GPT reasons" });
  });

  it("to Gemini: thinking as plain text, no foreign signatures, one user turn of responses per step", async () => {
    const { contents } = await replayTo("fake-google");
    expect(contents.map((c: any) => c.role)).toEqual(["user", "model", "user", "model", "user", "user"]);
    expect(contents[1].parts).toEqual([{ text: "Claude plans" }, { text: "Listing" }, { functionCall: { name: "bash", args: { command: "ls" } } }]);
    expect(contents[4].parts.map((p: any) => Object.keys(p.functionResponse.response)[0])).toEqual(["output", "error"]);
  });
});
