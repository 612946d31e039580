/**
 * Rate limits over the wire: a 429's `retry-after-ms` / `retry-after` header and Gemini's
 * RetryInfo set the retry delay (reported in auto_retry_start.delayMs); a delay above
 * `retry.provider.maxRetryDelayMs` fails at once; Gemini's per-minute quota is retried, its
 * daily quota and OpenAI's insufficient_quota are final. Real SDKs, one fake server per test.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { AssistantMessage } from "../../lib/llm/index.js";
import type { OutEvent } from "../../kernel/index.js";
import retryPlugin from "../../plugins/retry/index.js";
import { VENDOR_PLUGINS, bootKernel, removeDir, tempDir } from "./harness.js";
import { geminiQuotaErrorBody } from "./render-google.js";
import { startFakeLlm, writeModelsJson, type FakeLlm, type FakeProviderName, type FakeReply } from "./server.js";

let fake: FakeLlm | undefined;
let agentDir: string | undefined;
afterEach(async () => {
  await fake?.close();
  if (agentDir) await removeDir(agentDir);
  fake = agentDir = undefined;
});

async function promptThrough(provider: FakeProviderName, replies: FakeReply[], maxRetryDelayMs = 5000) {
  fake = await startFakeLlm();
  agentDir = await tempDir();
  await writeModelsJson(agentDir, fake.url);
  const kernel: Kernel = await bootKernel({
    agentDir,
    plugins: [...VENDOR_PLUGINS, retryPlugin],
    cli: { model: `${provider}/fake-1` },
    settings: { retry: { baseDelayMs: 1, provider: { maxRetryDelayMs } } } as never,
  });
  const events: OutEvent[] = [];
  kernel.events.subscribe((event) => void events.push(event));
  fake.script(...replies);
  await kernel.commands.invoke("prompt", { message: "hi" });
  await kernel.services.get("agent").waitForIdle();
  const retries = events.filter((e) => e.type === "auto_retry_start" || e.type === "auto_retry_end") as Record<string, unknown>[];
  const last = kernel.services
    .get("agent")
    .getMessages()
    .filter((m) => m.role === "assistant")
    .at(-1) as AssistantMessage;
  return { retries, last, requests: fake.requests.length };
}

describe("rate limits", () => {
  it("waits the retry-after-ms an Anthropic 429 asks for", async () => {
    const { retries, last, requests } = await promptThrough("fake-anthropic", [{ status: 429, headers: { "retry-after-ms": "150" } }, { text: "back" }]);
    expect(retries).toEqual([
      expect.objectContaining({ type: "auto_retry_start", attempt: 1, delayMs: 150, errorMessage: expect.stringMatching(/^429 .*rate_limit_error/) }),
      { type: "auto_retry_end", success: true, attempt: 1 },
    ]);
    expect(last).toMatchObject({ stopReason: "stop" });
    expect(requests).toBe(2);
  });

  it("waits the retry-after seconds an OpenAI 429 asks for", async () => {
    const { retries, requests } = await promptThrough("fake-responses", [{ status: 429, headers: { "retry-after": "1" } }, { text: "back" }]);
    expect(retries[0]).toMatchObject({ type: "auto_retry_start", delayMs: 1000 });
    expect(requests).toBe(2);
  });

  it("retries Gemini's per-minute quota after its RetryInfo delay", async () => {
    const { retries, last } = await promptThrough("fake-google", [{ status: 429, errorBody: geminiQuotaErrorBody("minute", 1) }, { text: "back" }]);
    expect(retries[0]).toMatchObject({ type: "auto_retry_start", delayMs: 1000, errorMessage: expect.stringContaining("RESOURCE_EXHAUSTED") });
    expect(retries.at(-1)).toEqual({ type: "auto_retry_end", success: true, attempt: 1 });
    expect(last.stopReason).toBe("stop");
  });

  it("keeps Gemini's daily quota and OpenAI's insufficient_quota final", async () => {
    const daily = await promptThrough("fake-google", [{ status: 429, errorBody: geminiQuotaErrorBody("day", 20) }]);
    expect(daily.retries).toEqual([]);
    expect(daily.last.errorMessage).toContain("PerDay");
    expect(daily.requests).toBe(1);
    await fake?.close();
    const insufficient =
      '{"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","param":null,"code":"insufficient_quota"}}';
    const openai = await promptThrough("fake-openai", [{ status: 429, errorBody: insufficient }]);
    expect(openai.retries).toEqual([]);
    expect(openai.last.errorMessage).toMatch(/^429 You exceeded your current quota/);
  });

  it("fails at once, with the server's message, when the asked delay is above maxRetryDelayMs", async () => {
    const { retries, last, requests } = await promptThrough(
      "fake-anthropic",
      [{ status: 429, headers: { "retry-after": "3600" }, errorMessage: "Number of requests has exceeded your rate limit" }],
      2000,
    );
    expect(retries).toEqual([]);
    expect(last.errorMessage).toMatch(/^429 .*Number of requests has exceeded your rate limit/);
    expect(requests).toBe(1);
  });
});
