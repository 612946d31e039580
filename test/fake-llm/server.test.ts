import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { removeDir, tempDir } from "./harness.js";
import { startFakeLlm, wireFormatOf, writeModelsJson, type FakeLlm } from "./server.js";

let fake: FakeLlm;
beforeAll(async () => {
  fake = await startFakeLlm();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
});

const post = (path: string, body: unknown = { model: "m" }, signal?: AbortSignal) =>
  fetch(`${fake.url}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-test": "1" }, body: JSON.stringify(body), ...(signal ? { signal } : {}) });

describe("fake LLM server", () => {
  it("routes each real endpoint to its wire format", () => {
    expect(wireFormatOf("/v1/messages")).toBe("anthropic");
    expect(wireFormatOf("/v1/chat/completions")).toBe("openai-chat");
    expect(wireFormatOf("/v1/responses")).toBe("openai-responses");
    expect(wireFormatOf("/v1beta/models/gemini-2.5-pro:streamGenerateContent")).toBe("google");
    expect(wireFormatOf("/nope")).toBe("unknown");
  });

  it("pops scripted replies in order, then serves the default, and records requests", async () => {
    fake.script({ text: "first" }, (request) => ({ text: `echo ${request.body.model}` }));
    fake.setDefault({ text: "fallback" });
    const bodies = [
      await (await post("/v1/chat/completions")).text(),
      await (await post("/v1/chat/completions", { model: "x" })).text(),
      await (await post("/v1/chat/completions")).text(),
    ];
    expect(bodies[0]).toContain('"content":"first"');
    expect(bodies[1]).toContain('"content":"echo "');
    expect(bodies[1]).toContain('"content":"x"');
    expect(bodies[2]).toContain('"content":"fallback"');
    expect(fake.pending()).toBe(0);
    expect(fake.requests.map((r) => [r.method, r.path, r.format, r.headers["x-test"], r.completed])).toEqual([
      ["POST", "/v1/chat/completions", "openai-chat", "1", true],
      ["POST", "/v1/chat/completions", "openai-chat", "1", true],
      ["POST", "/v1/chat/completions", "openai-chat", "1", true],
    ]);
    fake.setDefault({ text: "ok" });
  });

  it("speaks Anthropic SSE with named events, OpenAI chat with usage and [DONE], Responses and Gemini", async () => {
    const anthropic = await (await post("/v1/messages")).text();
    expect(anthropic).toMatch(/^event: message_start\ndata: /);
    expect(anthropic).toContain("event: message_stop");
    const chat = await (await post("/v1/chat/completions")).text();
    expect(chat).toContain('"usage":{"prompt_tokens":10');
    expect(chat.trimEnd().endsWith("data: [DONE]")).toBe(true);
    const responses = await (await post("/v1/responses")).text();
    expect(responses).toContain("event: response.completed");
    const gemini = await (await post("/v1beta/models/g-1:streamGenerateContent?alt=sse", {})).text();
    expect(gemini).toContain('"finishReason":"STOP"');
    expect(gemini).toContain('"modelVersion":"g-1"');
    expect(fake.requests.at(-1)!.query).toEqual({ alt: "sse" });
  });

  it("answers errors with the provider's error body and status", async () => {
    fake.script({ status: 429 }, { status: 400, errorBody: "plain" });
    const limited = await post("/v1/messages");
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    const raw = await post("/v1/messages");
    expect(await raw.text()).toBe("plain");
    expect((await post("/unknown")).status).toBe(404);
  });

  it("stalls mid-stream and reports the client's disconnect", async () => {
    fake.script({ text: "a b c d", stall: 2 });
    const controller = new AbortController();
    const response = await post("/v1/chat/completions", { model: "m" }, controller.signal);
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await fake.waitForDisconnect(0);
    expect(fake.requests[0]).toMatchObject({ disconnected: true, completed: false });
  });

  it("writes a models.json with the four fake providers", async () => {
    const dir = await tempDir();
    await writeModelsJson(dir, fake.url);
    const { providers } = JSON.parse(await readFile(join(dir, "models.json"), "utf8"));
    expect(Object.keys(providers)).toEqual(["fake-anthropic", "fake-openai", "fake-responses", "fake-google"]);
    expect(providers["fake-google"]).toMatchObject({
      baseUrl: `${fake.url}/v1beta`,
      api: "google-generative-ai",
      apiKey: "test-key",
      models: [{ id: "fake-1", reasoning: true, input: ["text", "image"] }],
    });
    await removeDir(dir);
  });
});
