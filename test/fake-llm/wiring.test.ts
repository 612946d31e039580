/**
 * models.json wiring end to end: built-in providers re-pointed at the fake by a baseUrl-only
 * block keep their catalog ids and env keys; a custom OpenAI-compatible provider whose apiKey
 * names an environment variable sends that variable's value (and its configured headers).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import anthropicPlugin from "../../plugins/provider-anthropic/index.js";
import catalogPlugin from "../../plugins/provider-catalog/index.js";
import googlePlugin from "../../plugins/provider-google/index.js";
import openaiPlugin from "../../plugins/provider-openai/index.js";
import { bootKernel, removeDir, runStream, streamRequest, tempDir } from "./harness.js";
import { useFakeLlm } from "../helpers/use-fake-llm.js";

const fake = useFakeLlm();
let agentDir: string;
let kernel: Kernel;

beforeAll(async () => {
  agentDir = await tempDir();
  const providers = {
    anthropic: { baseUrl: fake.url },
    openai: { baseUrl: `${fake.url}/v1` },
    google: { baseUrl: `${fake.url}/v1beta` },
    local: { baseUrl: `${fake.url}/v1`, api: "openai-completions", apiKey: "LOCAL_LLM_KEY", headers: { "x-team": "core" }, models: [{ id: "qwen3:8b" }] },
  };
  await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers }));
  const env = { ANTHROPIC_API_KEY: "sk-ant-env", OPENAI_API_KEY: "sk-oai-env", GEMINI_API_KEY: "gem-env", LOCAL_LLM_KEY: "local-secret" };
  kernel = await bootKernel({ agentDir, env, plugins: [catalogPlugin, anthropicPlugin, openaiPlugin, googlePlugin] });
});
afterAll(async () => {
  await removeDir(agentDir);
});

async function call(provider: string, id: string) {
  const model = kernel.services.get("models").find(provider, id);
  expect(model, `${provider}/${id}`).toBeDefined();
  fake.requests.length = 0;
  fake.script({ text: "ok" });
  const { final } = await runStream(kernel, streamRequest(model!, { thinkingLevel: "medium" }));
  expect(final.type).toBe("done");
  return fake.requests[0]!;
}

describe("models.json wiring against the fake server", () => {
  it("re-points the built-in providers, which keep their model ids and env keys", async () => {
    const anthropic = await call("anthropic", "claude-sonnet-4-6");
    expect(anthropic.path).toBe("/v1/messages");
    expect(anthropic.body.model).toBe("claude-sonnet-4-6");
    expect([anthropic.headers["x-api-key"], anthropic.headers.authorization]).toContainEqual(expect.stringMatching(/^(Bearer )?sk-ant-env$/));

    const openai = await call("openai", "gpt-5.4");
    expect(openai.path).toBe("/v1/responses");
    expect(openai.headers.authorization).toBe("Bearer sk-oai-env");
    expect(openai.body).toMatchObject({ model: "gpt-5.4", reasoning: { effort: "medium" } });

    const google = await call("google", "gemini-3.5-flash");
    expect(google.path).toBe("/v1beta/models/gemini-3.5-flash:streamGenerateContent");
    expect(google.headers["x-goog-api-key"]).toBe("gem-env");
    expect(google.body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: "MEDIUM" });
  });

  it("sends a custom completions model's env-var-name key and headers", async () => {
    const local = await call("local", "qwen3:8b");
    expect(local.path).toBe("/v1/chat/completions");
    expect(local.headers.authorization).toBe("Bearer local-secret");
    expect(local.headers["x-team"]).toBe("core");
    expect(local.body.model).toBe("qwen3:8b");
    // pi's defaults for a model declared by id only: no reasoning, so no effort is sent.
    expect(local.body.reasoning_effort).toBeUndefined();
  });
});
