/**
 * Base-URL `{VARIABLE}`s: which are missing, how they are filled, how the message names them; and
 * the registry deciding availability and filling a request's address from the same lookup.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { Model } from "../../lib/llm/index.js";
import { fillAddressVariables, missingAddressVariables, needsAddressVariables } from "./address-variables.js";
import { ModelRegistry } from "./registry.js";

const GATEWAY = "https://gateway.test/v1/{ACCOUNT}/{GATEWAY}/compat/{ACCOUNT}";
const from = (values: Record<string, string>) => (name: string) => values[name];

describe("missingAddressVariables", () => {
  it("names each unset or empty variable once, in order", () => {
    expect(missingAddressVariables(GATEWAY, from({}))).toEqual(["ACCOUNT", "GATEWAY"]);
    expect(missingAddressVariables(GATEWAY, from({ ACCOUNT: "", GATEWAY: "g" }))).toEqual(["ACCOUNT"]);
    expect(missingAddressVariables(GATEWAY, from({ ACCOUNT: "a", GATEWAY: "g" }))).toEqual([]);
  });

  it("leaves the adapters' lower-case placeholders and plain URLs alone", () => {
    expect(missingAddressVariables("https://{resource}.openai.azure.com/openai/v1", from({}))).toEqual([]);
    expect(missingAddressVariables("https://api.example.test/v1", from({}))).toEqual([]);
  });
});

describe("fillAddressVariables", () => {
  it("fills every occurrence, URL-encoded", () => {
    expect(fillAddressVariables(GATEWAY, from({ ACCOUNT: "a/b", GATEWAY: "g" }))).toBe("https://gateway.test/v1/a%2Fb/g/compat/a%2Fb");
  });
});

describe("needsAddressVariables", () => {
  it("names one variable, or several, with the address when given", () => {
    expect(needsAddressVariables("cf", ["ACCOUNT"], "https://x/{ACCOUNT}")).toBe("cf needs ACCOUNT for its address (https://x/{ACCOUNT}): set it in the environment.");
    expect(needsAddressVariables("cf", ["A", "B", "C"])).toBe("cf needs A, B and C for its address: set them in the environment.");
  });
});

describe("the registry", () => {
  const dirs: string[] = [];
  afterEach(() => Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true }))));

  const model: Model = {
    id: "m",
    name: "m",
    api: "openai-completions",
    provider: "cf",
    baseUrl: "https://api.test/accounts/{ACCOUNT}/v1",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
  };

  async function registry(env: NodeJS.ProcessEnv, auth?: object): Promise<ModelRegistry> {
    const dir = await mkdtemp(join(tmpdir(), "atomic-address-"));
    dirs.push(dir);
    if (auth) await writeFile(join(dir, "auth.json"), JSON.stringify(auth));
    const r = new ModelRegistry({ env, agentDir: dir });
    await r.loadConfig();
    r.registerProvider({ name: "cf", api: "openai-completions", envKey: "CF_KEY", models: [model] });
    return r;
  }

  it("does not offer a model with a key but no address, and its request fails naming the variable", async () => {
    const r = await registry({ CF_KEY: "k" });
    expect(r.authStatus("cf").configured).toBe(true);
    expect(r.available()).toEqual([]);
    expect(r.isAvailable(model)).toBe(false);
    expect(r.missingAddressVariables(model)).toEqual(["ACCOUNT"]);
    await expect(r.requestCredentials(model, new AbortController().signal)).rejects.toThrow("cf needs ACCOUNT for its address");
  });

  it("offers it, and fills the request's address, from the environment or the stored credential's env", async () => {
    for (const r of [await registry({ CF_KEY: "k", ACCOUNT: "acct" }), await registry({}, { cf: { type: "api_key", key: "k", env: { ACCOUNT: "acct" } } })]) {
      expect(r.available()).toEqual([model]);
      expect(r.isAvailable(model)).toBe(true);
      expect((await r.requestCredentials(model, new AbortController().signal)).baseUrl).toBe("https://api.test/accounts/acct/v1");
    }
  });
});
