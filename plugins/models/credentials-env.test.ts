/**
 * A call's own variables (pi 1.6's `env` request option, which typed-model calls take): read
 * before the environment and a provider's auth.json `env`, for its key variable, a key given as
 * an env-var name and its address placeholders; the registry's own reading is unchanged.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import { bootKernel, removeDir, tempDir } from "../../test/fake-llm/harness.js";

let agentDir: string;
let kernel: Kernel;
const MODEL = [{ id: "m1", reasoning: false, input: ["text"] }];

beforeAll(async () => {
  agentDir = await tempDir();
  const providers = {
    placed: { baseUrl: "http://127.0.0.1:9/{ACCOUNT_ID}/v1", api: "openai-completions", apiKey: "PLACED_KEY", models: MODEL },
    stored: { baseUrl: "http://127.0.0.1:9/{ACCOUNT_ID}/v1", api: "openai-completions", apiKey: "k", models: MODEL },
  };
  await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers }));
  await writeFile(join(agentDir, "auth.json"), JSON.stringify({ stored: { type: "api_key", key: "stored-key", env: { ACCOUNT_ID: "from-auth" } } }), { mode: 0o600 });
  kernel = await bootKernel({ agentDir, env: { ACCOUNT_ID: "from-process" } });
});
afterAll(async () => {
  await removeDir(agentDir);
});

describe("credentials through a call's env", () => {
  it("a key given as an env-var name and the address are read from the call's variables first", async () => {
    const models = kernel.services.get("models");
    const model = models.find("placed", "m1")!;
    const signal = new AbortController().signal;
    // Unset, the name is taken as the key itself (as pi does), and the address as the environment fills it.
    expect(await models.requestCredentials!(model, signal)).toMatchObject({ apiKey: "PLACED_KEY", baseUrl: "http://127.0.0.1:9/from-process/v1" });
    const view = models.withEnv!({ PLACED_KEY: "key-from-call", ACCOUNT_ID: "acct-call" });
    expect(view.authStatus("placed")).toMatchObject({ configured: true, label: "PLACED_KEY" });
    expect(await view.requestCredentials(model, signal)).toMatchObject({ apiKey: "key-from-call", baseUrl: "http://127.0.0.1:9/acct-call/v1" });
  });

  it("the call's variable wins over auth.json's env and the environment's", async () => {
    const models = kernel.services.get("models");
    const model = models.find("stored", "m1")!;
    const signal = new AbortController().signal;
    expect((await models.requestCredentials!(model, signal)).baseUrl).toBe("http://127.0.0.1:9/from-auth/v1");
    expect((await models.withEnv!({ ACCOUNT_ID: "acct-call" }).requestCredentials(model, signal)).baseUrl).toBe("http://127.0.0.1:9/acct-call/v1");
    expect(models.withEnv!({}).missingAddressVariables(model)).toEqual([]);
  });
});
