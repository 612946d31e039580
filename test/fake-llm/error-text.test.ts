/**
 * What a failed turn says, over the wire with the real SDKs: the server's message survives
 * when the SDK drops the body, numeric in-stream codes are kept, an unknown finish_reason or
 * a filtered Responses answer is an error, and each server's overflow wording is recognised.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { AssistantMessage, AssistantMessageEvent } from "../../lib/llm/index.js";
import { isContextOverflow, isRetryableError } from "../../lib/provider-kit/index.js";
import { VENDOR_PLUGINS, bootKernel, removeDir, runStream, streamRequest, tempDir } from "./harness.js";
import { writeModelsJson, type FakeProviderName, type FakeReply } from "./server.js";
import { useFakeLlm } from "../helpers/use-fake-llm.js";

const fake = useFakeLlm();
let agentDir: string;
let kernel: Kernel;
beforeAll(async () => {
  agentDir = await tempDir();
  await writeModelsJson(agentDir, fake.url);
  kernel = await bootKernel({ agentDir, plugins: VENDOR_PLUGINS });
});
afterAll(async () => {
  await removeDir(agentDir);
});

/** Streams one reply through `provider`; the reply is answered by request, so tests cannot steal each other's. */
async function failWith(provider: FakeProviderName, reply: FakeReply): Promise<AssistantMessage> {
  const marker = `m${Math.random().toString(36).slice(2)}`;
  fake.setDefault((request) => (JSON.stringify(request.body).includes(marker) ? reply : { text: "unexpected" }));
  const model = kernel.services.get("models").find(provider, "fake-1")!;
  const { final } = await runStream(kernel, streamRequest(model, { prompt: marker }));
  return finalMessage(final);
}

const finalMessage = (event: AssistantMessageEvent): AssistantMessage => (event.type === "done" ? event.message : event.type === "error" ? event.error : event.partial);

describe("error text", () => {
  it("keeps a vLLM-style body the OpenAI SDK reports as '(no body)'", async () => {
    const body = JSON.stringify({
      object: "error",
      message: "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.",
      type: "BadRequestError",
      param: null,
      code: 400,
    });
    const message = await failWith("fake-openai", { status: 400, errorBody: body });
    expect(message.errorMessage).toBe("400 This model's maximum context length is 4096 tokens. However, you requested 5000 tokens.");
    expect(isContextOverflow(message.errorMessage)).toBe(true);
  });

  it("leaves a truly empty 400 as such, and not an overflow from an ordinary server", async () => {
    const message = await failWith("fake-openai", { status: 400, errorBody: "" });
    expect(message.errorMessage).toBe("400 status code (no body)");
    expect(isContextOverflow(message.errorMessage, kernel.services.get("models").find("fake-openai", "fake-1"))).toBe(false);
  });

  it("keeps OpenRouter's numeric in-stream error code, which is retryable", async () => {
    const message = await failWith("fake-openai", { text: "partial", streamErrorBody: { error: { code: 502, message: "Provider returned error" } } });
    expect(message).toMatchObject({ stopReason: "error", errorMessage: "Provider returned error (code 502)" });
    expect(isRetryableError(message.errorMessage)).toBe(true);
    expect(message.content[0]).toMatchObject({ type: "text", text: "partial" });
  });

  it("ends an unknown finish_reason as an error, not a clean stop", async () => {
    const message = await failWith("fake-openai", { text: "cut off", finishReason: "network_error" });
    expect(message).toMatchObject({ stopReason: "error", errorMessage: "Provider finish_reason: network_error" });
    expect(isRetryableError(message.errorMessage)).toBe(true);
  });

  it("maps a Responses answer left incomplete by the content filter to an error", async () => {
    const message = await failWith("fake-responses", { text: "redacted", incompleteReason: "content_filter" });
    expect(message.stopReason).toBe("error");
    expect(message.errorMessage).toMatch(/content_filter/);
    const length = await failWith("fake-responses", { text: "long", incompleteReason: "max_output_tokens" });
    expect(length.stopReason).toBe("length");
  });
});

describe("overflow wording over the wire", () => {
  it.each([
    [
      "fake-openai",
      { status: 400, errorBody: JSON.stringify({ error: { message: "prompt too long; exceeded max context length by 1432 tokens", type: "api_error", param: null, code: null } }) },
      "ollama",
    ],
    [
      "fake-anthropic",
      { status: 413, errorBody: JSON.stringify({ type: "error", error: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." } }) },
      "Anthropic 413",
    ],
    [
      "fake-openai",
      {
        status: 400,
        errorBody: JSON.stringify({
          error: { message: "the request exceeds the available context size, try increasing it", type: "exceed_context_size_error", n_prompt_tokens: 9000, n_ctx: 8192 },
        }),
      },
      "llama.cpp",
    ],
    [
      "fake-google",
      {
        status: 400,
        errorBody: JSON.stringify({
          error: { code: 400, message: "The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).", status: "INVALID_ARGUMENT" },
        }),
      },
      "Gemini",
    ],
  ] as [FakeProviderName, FakeReply, string][])("%s: %j is an overflow (%s)", async (provider, reply) => {
    const message = await failWith(provider, reply);
    expect(message.stopReason).toBe("error");
    expect(isContextOverflow(message.errorMessage)).toBe(true);
    expect(isRetryableError(message.errorMessage)).toBe(false);
  });
});
