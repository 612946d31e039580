import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage, type LlmMessage, type ThinkingLevel } from "../../lib/llm/index.js";
import { BASH_TOOL, TINY_PNG, runStream, streamRequest } from "../../test/fake-llm/harness.js";
import { describeProviderConformance, useProviderKernel } from "../../test/fake-llm/provider-suite.js";
import openaiPlugin from "./index.js";

describeProviderConformance({
  provider: "fake-responses",
  plugin: openaiPlugin,
  hasImage: (request) => request.body.input[0].content.some((p: any) => p.type === "input_image" && p.image_url === `data:image/png;base64,${TINY_PNG}`),
  overflowMessage: "Your input exceeds the context window of this model. Please adjust your input and try again.",
  framesThroughFirstDelta: 5,
  streamsArgumentFragments: true,
});

describe("openai responses request and replay", () => {
  const ctx = useProviderKernel("fake-responses", openaiPlugin);

  it("posts a stateless request with instructions, tools and reasoning", async () => {
    ctx.fake.script({ text: "ok" });
    await runStream(ctx.kernel, { ...streamRequest(ctx.model, { tools: [BASH_TOOL], systemPrompt: "Be brief.", thinkingLevel: "high" }) });
    const request = ctx.fake.requests[0]!;
    expect(request.path).toBe("/v1/responses");
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.body).toMatchObject({
      model: "fake-1",
      stream: true,
      store: false,
      instructions: "Be brief.",
      reasoning: { effort: "high", summary: "auto" },
      include: ["reasoning.encrypted_content"],
    });
    expect(request.body.tools).toEqual([{ type: "function", name: "bash", description: BASH_TOOL.description, parameters: BASH_TOOL.parameters, strict: false }]);
  });

  it("returns call_id|item_id tool ids and replays reasoning, message ids, calls and outputs", async () => {
    ctx.fake.script({ thinking: "Plan it", text: "Running", toolCalls: [{ name: "bash", args: { command: "ls" } }] }, { text: "done" });
    const first = await runStream(ctx.kernel, streamRequest(ctx.model, { tools: [BASH_TOOL], thinkingLevel: "medium" }));
    const assistant = (first.final as { message: AssistantMessage }).message;
    const call = assistant.content.find((b) => b.type === "toolCall");
    expect(call?.type === "toolCall" && call.id).toBe("call_fake_1_0|fc_fake_1_0");
    const messages: LlmMessage[] = [
      { role: "user", content: "go", timestamp: 1 },
      assistant,
      { role: "toolResult", toolCallId: "call_fake_1_0|fc_fake_1_0", toolName: "bash", content: [{ type: "text", text: "a.txt" }], isError: false, timestamp: 2 },
    ];
    await runStream(ctx.kernel, streamRequest(ctx.model, { messages, tools: [BASH_TOOL], thinkingLevel: "medium" }));
    const input = ctx.fake.requests[1]!.body.input;
    expect(input[1]).toMatchObject({ type: "reasoning", id: "rs_fake_1", encrypted_content: "enc_1" });
    expect(input[2]).toMatchObject({ type: "message", role: "assistant", id: "msg_fake_1", content: [{ type: "output_text", text: "Running" }] });
    expect(input[3]).toEqual({ type: "function_call", call_id: "call_fake_1_0", id: "fc_fake_1_0", name: "bash", arguments: '{"command":"ls"}' });
    expect(input[4]).toEqual({ type: "function_call_output", call_id: "call_fake_1_0", output: "a.txt" });
  });

  it("stores a message's phase with its text and sends it back on replay", async () => {
    ctx.fake.script({ text: "Looking around first", phase: "commentary", toolCalls: [{ name: "bash", args: { command: "ls" } }] }, { text: "done" });
    const first = await runStream(ctx.kernel, streamRequest(ctx.model, { tools: [BASH_TOOL] }));
    const assistant = (first.final as { message: AssistantMessage }).message;
    expect(JSON.parse((assistant.content[0] as { textSignature: string }).textSignature)).toEqual({ v: 1, id: "msg_fake_1", phase: "commentary" });
    const messages: LlmMessage[] = [
      { role: "user", content: "go", timestamp: 1 },
      assistant,
      { role: "toolResult", toolCallId: "call_fake_1_0|fc_fake_1_0", toolName: "bash", content: [{ type: "text", text: "a.txt" }], isError: false, timestamp: 2 },
    ];
    await runStream(ctx.kernel, streamRequest(ctx.model, { messages, tools: [BASH_TOOL] }));
    expect(ctx.fake.requests[1]!.body.input[1]).toMatchObject({ type: "message", role: "assistant", id: "msg_fake_1", phase: "commentary" });
  });

  it("sends effort none for thinking off only where the model accepts it", async () => {
    ctx.fake.script({ text: "a" }, { text: "b" }, { text: "c" });
    await runStream(ctx.kernel, streamRequest(ctx.model, { thinkingLevel: "off" }));
    expect(ctx.fake.requests[0]!.body.reasoning).toBeUndefined();
    const gpt51 = { ...ctx.model, compat: { supportsReasoningNone: true }, thinkingLevels: ["off", "low", "medium", "high"] as ThinkingLevel[] };
    await runStream(ctx.kernel, streamRequest(gpt51, { thinkingLevel: "off" }));
    expect(ctx.fake.requests[1]!.body.reasoning).toEqual({ effort: "none" });
    expect(ctx.fake.requests[1]!.body.include).toBeUndefined();
    // A level the model lacks is clamped: xhigh -> high.
    await runStream(ctx.kernel, streamRequest(gpt51, { thinkingLevel: "xhigh" }));
    expect(ctx.fake.requests[2]!.body.reasoning).toEqual({ effort: "high", summary: "auto" });
  });

  it("sends tool-result images in a user message right after the outputs", async () => {
    ctx.fake.script({ text: "seen" });
    const messages: LlmMessage[] = [
      { role: "user", content: "shot", timestamp: 1 },
      {
        role: "assistant",
        content: [{ type: "toolCall", id: "call_a|fc_a", name: "shot", arguments: {} }],
        api: ctx.model.api,
        provider: ctx.model.provider,
        model: ctx.model.id,
        usage: emptyUsage(),
        stopReason: "toolUse",
        timestamp: 2,
      },
      { role: "toolResult", toolCallId: "call_a|fc_a", toolName: "shot", content: [{ type: "image", data: TINY_PNG, mimeType: "image/png" }], isError: false, timestamp: 3 },
    ];
    await runStream(ctx.kernel, streamRequest(ctx.model, { messages }));
    const input = ctx.fake.requests[0]!.body.input;
    expect(input[2]).toEqual({ type: "function_call_output", call_id: "call_a", output: "(see attached image)" });
    expect(input[3]).toMatchObject({ role: "user", content: [{ type: "input_text" }, { type: "input_image", image_url: `data:image/png;base64,${TINY_PNG}` }] });
  });

  it("maps incomplete to length and failed to an error", async () => {
    ctx.fake.script({ text: "cut", stop: "length" }, { text: "x", stop: "error" });
    const cut = await runStream(ctx.kernel, streamRequest(ctx.model));
    expect(cut.final.type === "done" && cut.final.reason).toBe("length");
    const failed = await runStream(ctx.kernel, streamRequest(ctx.model));
    expect(failed.final.type === "error" && failed.final.error.errorMessage).toBe("server_error: The response failed");
  });
});
