import { describe, expect, it } from "vitest";
import type { AssistantMessage, LlmMessage } from "../../lib/llm/index.js";
import { BASH_TOOL, TINY_PNG, runStream, streamRequest } from "../../test/fake-llm/harness.js";
import { describeProviderConformance, useProviderKernel } from "../../test/fake-llm/provider-suite.js";
import { isRetryableError } from "../../lib/provider-kit/index.js";
import { buildChatRequest } from "./completions-request.js";
import openaiPlugin from "./index.js";

const DATA_URL = `data:image/png;base64,${TINY_PNG}`;

describeProviderConformance({
  provider: "fake-openai",
  plugin: openaiPlugin,
  hasImage: (request) => request.body.messages.some((m: any) => Array.isArray(m.content) && m.content.some((p: any) => p.type === "image_url" && p.image_url.url === DATA_URL)),
  overflowMessage: "This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens. Please reduce the length of the messages.",
  framesThroughFirstDelta: 2,
  streamsArgumentFragments: true,
});

describe("openai chat completions request and replay", () => {
  const ctx = useProviderKernel("fake-openai", openaiPlugin);

  it("posts to /chat/completions with bearer auth, usage streaming and function tools", async () => {
    ctx.fake.script({ text: "ok" });
    await runStream(ctx.kernel, streamRequest(ctx.model, { tools: [BASH_TOOL], systemPrompt: "Be brief.", thinkingLevel: "high" }));
    const request = ctx.fake.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.headers.authorization).toBe("Bearer test-key");
    expect(request.body).toMatchObject({ model: "fake-1", stream: true, stream_options: { include_usage: true }, reasoning_effort: "high" });
    // A non-OpenAI server gets the classic system role.
    expect(request.body.messages[0]).toEqual({ role: "system", content: "Be brief." });
    expect(request.body.tools).toEqual([{ type: "function", function: { name: "bash", description: BASH_TOOL.description, parameters: BASH_TOOL.parameters, strict: false } }]);
  });

  it("sends no reasoning effort when thinking is off", async () => {
    ctx.fake.script({ text: "ok" });
    await runStream(ctx.kernel, streamRequest(ctx.model, { thinkingLevel: "off" }));
    expect(ctx.fake.requests[0]!.body.reasoning_effort).toBeUndefined();
  });

  it("replays reasoning under its field, tool calls, and tool results with images", async () => {
    ctx.fake.script({ thinking: "Consider", text: "Checking", toolCalls: [{ name: "bash", args: { command: "ls" } }] }, { text: "done" });
    const first = await runStream(ctx.kernel, streamRequest(ctx.model, { tools: [BASH_TOOL], thinkingLevel: "medium" }));
    const assistant = (first.final as { message: AssistantMessage }).message;
    expect(assistant.content[0]).toMatchObject({ type: "thinking", thinking: "Consider", thinkingSignature: "reasoning_content" });
    const call = assistant.content.find((b) => b.type === "toolCall")!;
    const messages: LlmMessage[] = [
      { role: "user", content: "go", timestamp: 1 },
      assistant,
      {
        role: "toolResult",
        toolCallId: call.type === "toolCall" ? call.id : "",
        toolName: "bash",
        content: [
          { type: "text", text: "file.txt" },
          { type: "image", data: TINY_PNG, mimeType: "image/png" },
        ],
        isError: false,
        timestamp: 2,
      },
    ];
    await runStream(ctx.kernel, streamRequest(ctx.model, { messages, tools: [BASH_TOOL] }));
    const sent = ctx.fake.requests[1]!.body.messages;
    expect(sent[2]).toMatchObject({
      role: "assistant",
      content: "Checking",
      reasoning_content: "Consider",
      tool_calls: [{ type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
    });
    expect(sent[3]).toEqual({ role: "tool", tool_call_id: sent[2].tool_calls[0].id, content: "file.txt" });
    expect(sent[4].role).toBe("user");
    expect(sent[4].content[1]).toEqual({ type: "image_url", image_url: { url: DATA_URL } });
  });

  it("uses the developer role for OpenAI reasoning models unless compat says otherwise", () => {
    const system = (model: Partial<typeof ctx.model>) => buildChatRequest(streamRequest({ ...ctx.model, ...model }, { systemPrompt: "S" })).messages as { role: string }[];
    expect(system({ baseUrl: "https://api.openai.com/v1" })[0]!.role).toBe("developer");
    expect(system({ baseUrl: "https://api.openai.com/v1", reasoning: false })[0]!.role).toBe("system");
    expect(system({ baseUrl: "https://api.openai.com/v1", compat: { supportsDeveloperRole: false } })[0]!.role).toBe("system");
    expect(system({ compat: { supportsDeveloperRole: true } })[0]!.role).toBe("developer");
  });

  it("gives every streamed tool call an id when the server sends none", async () => {
    ctx.fake.script({
      toolCalls: [
        { id: "", name: "bash", args: { command: "a" } },
        { id: "", name: "bash", args: { command: "b" } },
      ],
    });
    const { final } = await runStream(ctx.kernel, streamRequest(ctx.model, { tools: [BASH_TOOL] }));
    const ids = (final as { message: AssistantMessage }).message.content.map((b) => (b.type === "toolCall" ? b.id : ""));
    expect(ids).toHaveLength(2);
    for (const id of ids) expect(id).toMatch(/^call_[a-z0-9]+_\d$/);
    expect(new Set(ids).size).toBe(2);
  });

  it("keeps an in-stream error's type, so a transient one is retried", async () => {
    ctx.fake.script({ text: "Partial", streamError: "An error occurred while processing your request." });
    const { final } = await runStream(ctx.kernel, streamRequest(ctx.model));
    const message = final.type === "error" ? final.error.errorMessage : undefined;
    expect(message).toBe("An error occurred while processing your request. (server_error)");
    expect(isRetryableError(message)).toBe(true);
  });

  it("maps content_filter to an error and length to length", async () => {
    ctx.fake.script({ text: "no", stop: "error" }, { text: "cut", stop: "length" });
    const filtered = await runStream(ctx.kernel, streamRequest(ctx.model));
    expect(filtered.final.type === "error" && filtered.final.error.errorMessage).toMatch(/content_filter/);
    const cut = await runStream(ctx.kernel, streamRequest(ctx.model));
    expect(cut.final.type === "done" && cut.final.reason).toBe("length");
  });
});
