/**
 * Provider specifics on the loopback fake, through the official SDKs over real HTTP (issue 36):
 * Bedrock's region when AWS_REGION is unset (D5), `xiaomi/<id>` resolving to Xiaomi (D7),
 * Mistral's host-root base URL, thinking chunks and cache key (D9), OpenCode's session header,
 * Copilot's initiator and vision headers, and a Cloudflare address variable that is not set.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { LlmMessage, Model } from "../../lib/llm/index.js";
import { resolveModelPattern } from "../../plugins/models/resolve.js";
import { useFakeLlm } from "../helpers/use-fake-llm.js";
import { TINY_PNG, VENDOR_PLUGINS, bootKernel, removeDir, runStream, streamRequest, tempDir } from "./harness.js";

const fake = useFakeLlm();
let agentDir: string;
let kernel: Kernel;

beforeAll(async () => {
  agentDir = await tempDir();
  const at = (path = "") => ({ baseUrl: `${fake.url}${path}` });
  const providers = {
    "amazon-bedrock": at(),
    mistral: at(),
    opencode: at("/v1"),
    "github-copilot": at(),
    "cloudflare-workers-ai": { baseUrl: `${fake.url}/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1` },
  };
  await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers }));
  // AWS keys and no region: each model's own region decides.
  const env = {
    AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
    AWS_SECRET_ACCESS_KEY: "secret",
    MISTRAL_API_KEY: "mis",
    OPENCODE_API_KEY: "oc",
    COPILOT_GITHUB_TOKEN: "gh",
    CLOUDFLARE_API_KEY: "cf",
    AZURE_OPENAI_API_KEY: "az",
    XIAOMI_API_KEY: "xm",
    OPENROUTER_API_KEY: "or",
  };
  kernel = await bootKernel({ agentDir, env, plugins: VENDOR_PLUGINS });
});
afterAll(() => removeDir(agentDir));

const models = () => kernel.services.get("models");
const find = (provider: string, id: string): Model => {
  const model = models().find(provider, id);
  if (!model) throw new Error(`no ${provider}/${id}`);
  return model;
};

async function send(model: Model, options: Parameters<typeof streamRequest>[1] = {}) {
  fake.requests.length = 0;
  fake.script({ text: "ok", thinking: model.reasoning ? "Let me see" : undefined });
  const { final } = await runStream(kernel, streamRequest(model, options));
  return { final, request: fake.requests[0] };
}

const credentialRegion = (authorization: unknown) => /Credential=[^/]+\/\d{8}\/([a-z0-9-]+)\/bedrock\//.exec(String(authorization))?.[1];

describe("Amazon Bedrock without AWS_REGION (D5)", () => {
  it.each([
    ["eu.anthropic.claude-sonnet-5-5", "eu-central-1"],
    ["apac.anthropic.claude-sonnet-4-20250514-v1:0", "ap-northeast-1"],
    ["eu.amazon.nova-2-lite-v1:0", "eu-central-1"],
    ["us.anthropic.claude-opus-5-5", "us-east-1"],
  ])("%s is signed for %s", async (id, region) => {
    const { final, request } = await send(find("amazon-bedrock", id));
    expect(final.type, final.type === "error" ? final.error.errorMessage : "").toBe("done");
    expect(credentialRegion(request!.headers.authorization)).toBe(region);
  });
});

describe("xiaomi/<id> names Xiaomi (D7)", () => {
  it("a Xiaomi model by provider/id, never OpenRouter's xiaomi/<id> of the same name", () => {
    expect(resolveModelPattern(models(), undefined, "xiaomi/mimo-v2.6-pro")?.model).toMatchObject({ provider: "xiaomi", id: "mimo-v2.6-pro" });
    // OpenRouter lists xiaomi/mimo-v2.5; Xiaomi does not: Xiaomi's default settings under that id, said so.
    const unknown = resolveModelPattern(models(), undefined, "xiaomi/mimo-v2.5");
    expect(unknown?.model).toMatchObject({ provider: "xiaomi", id: "mimo-v2.5" });
    expect(unknown?.warning).toContain("not in the xiaomi catalog");
    expect(resolveModelPattern(models(), undefined, "openrouter/xiaomi/mimo-v2.5")?.model.provider).toBe("openrouter");
  });
});

describe("Mistral's own endpoint (D9)", () => {
  it("the base URL is the host root: <baseUrl>/v1/chat/completions; thinking chunks stream; the session is the cache key", async () => {
    const model = find("mistral", "magistral-medium-latest");
    fake.requests.length = 0;
    // Mistral streams thinking as content chunks.
    fake.script({ thinking: "Let me see", thinkingChunks: true, text: "ok" });
    const request = streamRequest(model, { thinkingLevel: "high" });
    request.options.sessionId = "sess-1";
    const { final } = await runStream(kernel, request);
    expect(final.type, final.type === "error" ? final.error.errorMessage : "").toBe("done");
    if (final.type === "done") expect(final.message.content.map((block) => block.type)).toEqual(["thinking", "text"]);
    const sent = fake.requests[0]!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.body).toMatchObject({ model: "magistral-medium-latest", reasoning_effort: "high", prompt_cache_key: "sess-1", max_tokens: expect.any(Number) });
    expect(sent.body.stream_options).toBeUndefined();
    expect(sent.headers["x-affinity"]).toBe("sess-1");
  });
});

describe("request headers from the catalog's compat", () => {
  it("OpenCode: the session id in x-opencode-session", async () => {
    const request = streamRequest(find("opencode", "kimi-k2.7-code"));
    request.options.sessionId = "sess-oc";
    fake.requests.length = 0;
    fake.script({ text: "ok" });
    await runStream(kernel, request);
    expect(fake.requests[0]!.headers["x-opencode-session"]).toBe("sess-oc");
  });

  it("Copilot: X-Initiator agent after a tool result, Copilot-Vision-Request with an image", async () => {
    const messages: LlmMessage[] = [
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image", data: TINY_PNG, mimeType: "image/png" },
        ],
        timestamp: 1,
      },
      {
        role: "assistant",
        content: [{ type: "toolCall", id: "call_1", name: "bash", arguments: {} }],
        api: "openai-responses",
        provider: "github-copilot",
        model: "gpt-6.1-sol",
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: "toolUse",
        timestamp: 1,
      },
      { role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text: "done" }], isError: false, timestamp: 1 },
    ];
    const { request } = await send(find("github-copilot", "gpt-6.1-sol"), { messages });
    expect(request!.headers).toMatchObject({ "x-initiator": "agent", "openai-intent": "conversation-edits", "copilot-vision-request": "true" });
  });

  it("a Chat Completions model whose base URL is still a template (Azure's {resource}) fails, saying what to set", async () => {
    const { final, request } = await send(find("azure", "deepseek-v4-pro"));
    expect(request).toBeUndefined();
    expect(final.type === "error" && final.error.errorMessage).toContain(
      "azure/deepseek-v4-pro has no address: its base URL https://{resource}.openai.azure.com/openai/v1 names {resource}",
    );
  });

  it("Cloudflare: an address variable that is not set fails the request, naming it", async () => {
    const { final, request } = await send(find("cloudflare-workers-ai", "@cf/moonshotai/kimi-k2.7-code"));
    expect(request).toBeUndefined();
    expect(final.type === "error" && final.error.errorMessage).toContain("cloudflare-workers-ai needs CLOUDFLARE_ACCOUNT_ID");
  });
});
