/**
 * Credentials on the wire, through the real SDKs and the fake server: auth.json keys given as
 * `!command` or an env-var name, header values from env-var names, `authHeader`, a base URL
 * whose query holds a key (sent, never listed), a custom provider without a key, and a failing
 * key command whose text stays out of the error.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { AssistantMessage, Model } from "../../lib/llm/index.js";
import { VENDOR_PLUGINS, bootKernel, removeDir, runStream, streamRequest, tempDir } from "../../test/fake-llm/harness.js";
import { startFakeLlm, type FakeLlm, type RecordedRequest } from "../../test/fake-llm/server.js";

let fake: FakeLlm;
let agentDir: string;
let kernel: Kernel;
const warnings: string[] = [];
const MODEL = [{ id: "m1", reasoning: false, input: ["text"] }];

beforeAll(async () => {
  fake = await startFakeLlm();
  agentDir = await tempDir();
  const at = (path: string) => `${fake.url}${path}`;
  const providers = {
    "cmd-key": { baseUrl: at("/v1"), api: "openai-completions", apiKey: "placeholder", models: MODEL },
    "env-key": { baseUrl: at("/v1"), api: "openai-completions", apiKey: "placeholder", models: MODEL },
    headers: {
      baseUrl: at("/v1"),
      api: "openai-completions",
      apiKey: "k",
      headers: { "X-Team": "TEAM_NAME", "X-Token": "!printf header-from-cmd", "X-Plain": "core" },
      models: MODEL,
    },
    bearer: { baseUrl: at("/v1beta"), api: "google-generative-ai", apiKey: "goog-key", authHeader: true, models: MODEL },
    gateway: { baseUrl: at("/v1?key=s3cret-in-url"), api: "openai-completions", apiKey: "k", models: MODEL },
    keyless: { baseUrl: at("/v1"), api: "openai-completions", models: MODEL },
    "broken-cmd": { baseUrl: at("/v1"), api: "openai-completions", apiKey: "!echo do-not-leak; exit 7", models: MODEL },
  };
  await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers }));
  await writeFile(
    join(agentDir, "auth.json"),
    JSON.stringify({ "cmd-key": { type: "api_key", key: "!printf stored-cmd-key" }, "env-key": { type: "api_key", key: "TEAM_SECRET" } }),
    { mode: 0o600 },
  );
  const log = { debug() {}, info() {}, error() {}, warn: (m: string) => void warnings.push(m) };
  kernel = await bootKernel({ agentDir, plugins: VENDOR_PLUGINS, env: { TEAM_SECRET: "key-from-env", TEAM_NAME: "core-team" }, log });
});
afterAll(async () => {
  await fake.close();
  await removeDir(agentDir);
});

const find = (provider: string): Model => kernel.services.get("models").find(provider, "m1")!;

async function send(provider: string): Promise<{ request?: RecordedRequest; message: AssistantMessage }> {
  const marker = `m${Math.random().toString(36).slice(2)}`;
  const { final } = await runStream(kernel, streamRequest(find(provider), { prompt: marker }));
  const message = (final.type === "done" ? final.message : final.type === "error" ? final.error : final.partial) as AssistantMessage;
  return { request: fake.requests.find((r) => JSON.stringify(r.body).includes(marker)), message };
}

describe("credentials on the wire", () => {
  it("runs an auth.json !command key and reads an auth.json env-var name", async () => {
    expect((await send("cmd-key")).request!.headers.authorization).toBe("Bearer stored-cmd-key");
    expect((await send("env-key")).request!.headers.authorization).toBe("Bearer key-from-env");
  });

  it("resolves header values given as env-var names or !command, keeps other literals", async () => {
    const { headers } = (await send("headers")).request!;
    expect(headers["x-team"]).toBe("core-team");
    expect(headers["x-token"]).toBe("header-from-cmd");
    expect(headers["x-plain"]).toBe("core");
  });

  it("adds Authorization: Bearer for a provider with authHeader", async () => {
    const { headers } = (await send("bearer")).request!;
    expect(headers.authorization).toBe("Bearer goog-key");
    expect(headers["x-goog-api-key"]).toBe("goog-key");
  });

  it("sends a base URL's query secret but lists the URL redacted", async () => {
    const { request } = await send("gateway");
    expect(request!.path).toBe("/v1/chat/completions");
    expect(request!.query).toEqual({ key: "s3cret-in-url" });
    const listed = (await kernel.commands.invoke("get_available_models", {})) as { models: Model[] };
    const gateway = listed.models.find((m) => m.provider === "gateway")!;
    expect(gateway.baseUrl).toBe(`${fake.url}/v1?key=***`);
    expect(JSON.stringify(listed)).not.toContain("s3cret-in-url");
  });

  it("names the provider and the file when a custom provider has no key", () => {
    expect(warnings.filter((w) => w.includes('"keyless"'))).toEqual([expect.stringContaining(join(agentDir, "models.json"))]);
    expect(warnings.find((w) => w.includes('"keyless"'))).toContain("providers.keyless.apiKey");
    expect(
      kernel.services
        .get("models")
        .available()
        .some((m) => m.provider === "keyless"),
    ).toBe(false);
  });

  it("keeps a failing key command's text and output out of the error", async () => {
    const { request, message } = await send("broken-cmd");
    expect(request).toBeUndefined();
    expect(message.errorMessage).toBe("Command for the models.json key of provider broken-cmd failed (exit 7)");
    expect(JSON.stringify(message)).not.toContain("do-not-leak");
  });
});
