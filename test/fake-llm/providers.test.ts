/**
 * Every built-in provider of the catalog, over real HTTP through its official SDK to the
 * loopback fake: the provider's default model (and its other APIs' models) with nothing but its
 * key in the environment, the base URL re-pointed by models.json (Azure: by its variable). Each
 * case checks the request (path, auth header, the thinking and token-limit fields the provider's
 * compat asks for), the streamed answer, the usage and cost at the catalog's prices, and an HTTP
 * error as a retryable error event.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { AssistantMessage, Model, ThinkingLevel } from "../../lib/llm/index.js";
import { isRetryableError } from "../../lib/provider-kit/index.js";
import { useFakeLlm } from "../helpers/use-fake-llm.js";
import { BASH_TOOL, VENDOR_PLUGINS, bootKernel, removeDir, runStream, streamRequest, tempDir } from "./harness.js";
import type { RecordedRequest } from "./server.js";
import { BASE_PATHS, CASES, CODEX_TOKEN, KEYS } from "./provider-cases.js";

const fake = useFakeLlm();
let agentDir: string;
let kernel: Kernel;

beforeAll(async () => {
  agentDir = await tempDir();
  const providers: Record<string, unknown> = Object.fromEntries(Object.entries(BASE_PATHS).map(([name, path]) => [name, { baseUrl: `${fake.url}${path}` }]));
  // Models of a second API keep that API's own path (OpenRouter's and Fireworks' Anthropic endpoints).
  (providers.openrouter as Record<string, unknown>).modelOverrides = { "anthropic/claude-sonnet-5.5": { baseUrl: `${fake.url}/api` } };
  (providers.fireworks as Record<string, unknown>).modelOverrides = { "accounts/fireworks/models/minimax-m3": { baseUrl: `${fake.url}/inference` } };
  await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers }));
  await writeFile(join(agentDir, "auth.json"), JSON.stringify({ "openai-codex": { type: "api_key", key: CODEX_TOKEN } }));
  const env = { ...KEYS, AZURE_OPENAI_BASE_URL: `${fake.url}/openai/v1`, AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-6.2-sol=team-sol" };
  kernel = await bootKernel({ agentDir, env, plugins: VENDOR_PLUGINS });
});
afterAll(() => removeDir(agentDir));

function model(provider: string, id?: string): Model {
  const models = kernel.services.get("models");
  const found = id ? models.find(provider, id) : models.all().find((m) => m.provider === provider);
  if (!found) throw new Error(`no model ${provider}/${id ?? "(default)"}`);
  return found;
}

async function call(target: Model, thinkingLevel: ThinkingLevel = "high"): Promise<{ request: RecordedRequest; message: AssistantMessage }> {
  fake.requests.length = 0;
  fake.script({ thinking: target.reasoning ? "Thinking it over" : undefined, text: "Hello from the fake", usage: { input: 10_000, output: 10_000 } });
  const { final } = await runStream(kernel, streamRequest(target, { thinkingLevel, tools: [BASH_TOOL] }));
  expect(final.type, final.type === "error" ? final.error.errorMessage : "").toBe("done");
  const message = final.type === "done" ? final.message : final.partial;
  return { request: fake.requests[0]!, message };
}

describe("built-in providers over HTTP (official SDKs, loopback fake)", () => {
  it("covers every built-in provider that has shipped models", () => {
    const covered = new Set(CASES.map((c) => c.provider));
    const shipped = new Set(
      kernel.services
        .get("models")
        .all()
        .map((m) => m.provider),
    );
    expect([...shipped].filter((provider) => !covered.has(provider))).toEqual([]);
  });

  it.each(CASES.map((c) => [`${c.provider}${c.id ? ` ${c.id}` : ""}`, c] as const))("%s: request, auth, stream, usage and cost", async (_name, c) => {
    const target = model(c.provider, c.id);
    const { request, message } = await call(target);
    expect(request.method).toBe("POST");
    if (typeof c.path === "string") expect(request.path).toEqual(c.path);
    else expect(request.path).toMatch(c.path);
    c.auth(request);
    c.body?.(request.body, request);
    expect(message.content.filter((block) => block.type === "text")).toEqual([expect.objectContaining({ text: "Hello from the fake" })]);
    if (target.reasoning) expect(message.content[0]).toMatchObject({ type: "thinking", thinking: "Thinking it over" });
    // Ten thousand tokens each way (below every price tier): the catalog's price per million / 100.
    expect(message.usage).toMatchObject({ input: 10_000, output: 10_000 });
    expect(message.usage.cost.input).toBeCloseTo(target.cost.input / 100, 9);
    expect(message.usage.cost.output).toBeCloseTo(target.cost.output / 100, 9);
    expect(message).toMatchObject({ provider: c.provider, model: target.id, api: target.api, stopReason: "stop" });
  });

  it.each(CASES.map((c) => [`${c.provider}${c.id ? ` ${c.id}` : ""}`, c] as const))("%s: an HTTP 429 is a retryable error event", async (_name, c) => {
    fake.requests.length = 0;
    fake.script({ status: 429 });
    const { final } = await runStream(kernel, streamRequest(model(c.provider, c.id)));
    expect(final.type).toBe("error");
    const message = final.type === "error" ? final.error : final.partial;
    expect(message.errorMessage).toMatch(/429/);
    expect(isRetryableError(message.errorMessage)).toBe(true);
    expect(fake.requests).toHaveLength(1);
  });

  it("sends pi's `max` where the API has it (GPT-6.2 Sol, Claude Opus 5.5, DeepSeek)", async () => {
    expect((await call(model("openai"), "max")).request.body.reasoning).toEqual({ effort: "max", summary: "auto" });
    expect((await call(model("anthropic"), "max")).request.body.output_config).toEqual({ effort: "max" });
    expect((await call(model("deepseek"), "max")).request.body.reasoning_effort).toBe("max");
  });

  it("Mistral gets nine-character tool-call ids, also for another model's earlier calls", async () => {
    fake.requests.length = 0;
    fake.script({ text: "ok" });
    const foreign = {
      role: "assistant" as const,
      content: [{ type: "toolCall" as const, id: "call_abc|fc_0123456789abcdef", name: "bash", arguments: { command: "ls" } }],
      api: "openai-responses",
      provider: "openai",
      model: "gpt-6.2-sol",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "toolUse" as const,
      timestamp: 1,
    };
    const messages = [
      { role: "user" as const, content: "list", timestamp: 0 },
      foreign,
      {
        role: "toolResult" as const,
        toolCallId: "call_abc|fc_0123456789abcdef",
        toolName: "bash",
        content: [{ type: "text" as const, text: "a.txt" }],
        isError: false,
        timestamp: 2,
      },
    ];
    await runStream(kernel, streamRequest(model("mistral"), { messages, tools: [BASH_TOOL] }));
    const sent = fake.requests[0]!.body.messages as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string; name?: string }[];
    const id = sent.find((m) => m.role === "assistant")!.tool_calls![0]!.id;
    expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(sent.find((m) => m.role === "tool")).toMatchObject({ tool_call_id: id, name: "bash" });
  });
});
