import { readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtinProviders, removeDir, tempDir } from "../../test/fake-llm/harness.js";
import { runAuthCommand } from "./auth-cli.js";
import { AuthStore } from "./auth-store.js";

import { ModelRegistry } from "./registry.js";

let agentDir: string;
beforeEach(async () => {
  agentDir = await tempDir();
});
afterEach(() => removeDir(agentDir));

async function registry(env: NodeJS.ProcessEnv, modelsJson?: unknown): Promise<ModelRegistry> {
  if (modelsJson) await writeFile(join(agentDir, "models.json"), JSON.stringify(modelsJson));
  const r = new ModelRegistry({ env, agentDir });
  await r.loadConfig();
  for (const provider of await builtinProviders()) r.registerProvider(provider);
  r.registerCustomProviders();
  return r;
}

describe("credentials", () => {
  it("writes auth.json with mode 0600 and reads it back", async () => {
    await new AuthStore(agentDir).set("anthropic", "sk-stored");
    const file = join(agentDir, "auth.json");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ anthropic: { type: "api_key", key: "sk-stored" } });
  });

  it("looks keys up in auth.json, then the environment, then models.json", async () => {
    const modelsJson = { providers: { anthropic: { apiKey: "sk-models-json" } } };
    let r = await registry({}, modelsJson);
    expect(await r.apiKey("anthropic")).toBe("sk-models-json");
    expect(r.authStatus("anthropic")).toEqual({ configured: true, source: "models_json", label: "models.json" });

    r = await registry({ ANTHROPIC_API_KEY: "sk-env" }, modelsJson);
    expect(await r.apiKey("anthropic")).toBe("sk-env");
    expect(r.authStatus("anthropic")).toEqual({ configured: true, source: "environment", label: "ANTHROPIC_API_KEY" });

    await r.storeApiKey("anthropic", "sk-stored");
    expect(await r.apiKey("anthropic")).toBe("sk-stored");
    expect(r.authStatus("anthropic")).toEqual({ configured: true, source: "stored", label: "auth.json" });
  });

  it("makes a provider's models available only with auth", async () => {
    const r = await registry({ GEMINI_API_KEY: "g" });
    expect(new Set(r.available().map((m) => m.provider))).toEqual(new Set(["google"]));
    expect(r.authStatus("openai")).toEqual({ configured: false });
  });

  it("reports an env var named in models.json as environment auth", async () => {
    const r = await registry({ TEAM_KEY: "t" }, { providers: { openai: { apiKey: "TEAM_KEY" } } });
    expect(r.authStatus("openai")).toEqual({ configured: true, source: "environment", label: "TEAM_KEY" });
    expect(await r.apiKey("openai")).toBe("t");
  });

  it("a provider's own key (registerProvider) comes after models.json: a literal, or an env var it names", async () => {
    const r = await registry({ PROXY_KEY: "p" }, { providers: { proxied: { apiKey: "sk-file" } } });
    const model = { ...(await builtinProviders())[0]!.models[0]!, provider: "own" };
    r.registerProvider({ name: "own", api: model.api, models: [model], apiKey: "sk-own" });
    expect(await r.apiKey("own")).toBe("sk-own");
    expect(r.authStatus("own")).toEqual({ configured: true, source: "provider", label: "registered by the provider" });
    r.registerProvider({ name: "proxied", api: model.api, models: [{ ...model, provider: "proxied" }], apiKey: "sk-own" });
    expect(await r.apiKey("proxied")).toBe("sk-file");
    r.registerProvider({ name: "byenv", api: model.api, models: [{ ...model, provider: "byenv" }], apiKey: "PROXY_KEY", authHeader: true });
    expect(await r.apiKey("byenv")).toBe("p");
    expect(r.authStatus("byenv")).toEqual({ configured: true, source: "environment", label: "PROXY_KEY" });
    expect((await r.requestCredentials({ ...model, provider: "byenv" }, new AbortController().signal)).headers).toEqual({ Authorization: "Bearer p" });
    expect((await r.requestCredentials({ ...model, provider: "own" }, new AbortController().signal)).headers).toEqual({});
  });

  it("removes only the stored credential", async () => {
    const r = await registry({ OPENAI_API_KEY: "sk-env" });
    await r.storeApiKey("openai", "sk-stored");
    expect(await r.removeStoredKey("openai")).toBe(true);
    expect(await r.removeStoredKey("openai")).toBe(false);
    expect(r.authStatus("openai")).toEqual({ configured: true, source: "environment", label: "OPENAI_API_KEY" });
  });
});

describe("atomic auth", () => {
  function io(stdinText = "") {
    const stdin = new PassThrough();
    stdin.end(stdinText);
    let out = "";
    let err = "";
    const stdout = new PassThrough().on("data", (c) => (out += c));
    const stderr = new PassThrough().on("data", (c) => (err += c));
    return { agentDir, stdin, stdout, stderr, env: { OPENAI_API_KEY: "x" }, text: () => ({ out, err }) };
  }

  it("set reads the key from stdin and stores it 0600; list and clear never print it", async () => {
    const set = io("sk-secret-123\n");
    expect(await runAuthCommand(["set", "anthropic"], set)).toBe(0);
    expect(set.text().out).not.toContain("sk-secret-123");
    expect((await stat(join(agentDir, "auth.json"))).mode & 0o777).toBe(0o600);
    expect(new AuthStore(agentDir)).toBeDefined();

    const list = io();
    expect(await runAuthCommand(["auth", "list"], list)).toBe(0);
    expect(list.text().out).toContain("anthropic: auth.json");
    expect(list.text().out).toContain("openai: environment (OPENAI_API_KEY)");
    expect(list.text().out).toContain("google: not configured");
    expect(list.text().out).not.toContain("sk-secret-123");

    const clear = io();
    expect(await runAuthCommand(["clear", "anthropic"], clear)).toBe(0);
    expect(JSON.parse(await readFile(join(agentDir, "auth.json"), "utf8"))).toEqual({});
  });

  it("refuses a key on the command line, empty stdin and unknown actions", async () => {
    const argv = io();
    expect(await runAuthCommand(["set", "anthropic", "sk-in-argv"], argv)).toBe(2);
    expect(argv.text().err).toContain("stdin");
    const empty = io("\n");
    expect(await runAuthCommand(["set", "anthropic"], empty)).toBe(1);
    expect(await runAuthCommand(["bogus"], io())).toBe(2);
    expect(await runAuthCommand(["set", "../etc"], io("k"))).toBe(1);
  });

  it("set refuses a provider it does not know, listing the known ones, unless --force", async () => {
    await writeFile(
      join(agentDir, "models.json"),
      JSON.stringify({ providers: { local: { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completions", models: [{ id: "m" }] } } }),
    );
    const typo = io("k\n");
    expect(await runAuthCommand(["set", "antropic"], typo)).toBe(2);
    expect(typo.text().err).toMatch(
      /^Unknown provider "antropic"\. Did you mean "anthropic"\? Known providers: anthropic, openai, google, openrouter, .*, lmstudio, local\. For a provider a plugin of yours registers, pass --force\.\n$/,
    );
    expect(await runAuthCommand(["set", "local"], io("k-local\n"))).toBe(0);
    expect(await runAuthCommand(["set", "--force", "my-gateway"], io("k-gw\n"))).toBe(0);
    expect(await runAuthCommand(["set", "my-gateway"], io("k-gw2\n"))).toBe(0); // stored before: known now
    expect(Object.keys(JSON.parse(await readFile(join(agentDir, "auth.json"), "utf8")))).toEqual(["local", "my-gateway"]);
  });

  it("list names every source of each provider's key in lookup order, models.json included, never a key", async () => {
    await writeFile(
      join(agentDir, "models.json"),
      JSON.stringify({
        providers: {
          local: { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completions", apiKey: "sk-literal-999", models: [{ id: "m" }] },
          gw: { baseUrl: "http://127.0.0.1:2/v1", api: "openai-completions", apiKey: "$GW_KEY", models: [{ id: "m" }] },
          vault: { baseUrl: "http://127.0.0.1:3/v1", api: "openai-completions", apiKey: "!pass show x", models: [{ id: "m" }] },
          openai: { apiKey: "OPENAI_API_KEY" },
        },
      }),
    );
    await runAuthCommand(["set", "local"], io("sk-stored-111\n"));
    const list = io();
    expect(await runAuthCommand(["list"], list)).toBe(0);
    const out = list.text().out;
    expect(out).toContain("local: auth.json, models.json (a literal key)\n");
    expect(out).toContain("gw: models.json (environment variable GW_KEY, not set)\n");
    expect(out).toContain("vault: models.json (a command)\n");
    expect(out).toContain("openai: environment (OPENAI_API_KEY), models.json (environment variable OPENAI_API_KEY)\n");
    expect(out).toContain("anthropic: not configured\n");
    expect(out).not.toMatch(/sk-literal-999|sk-stored-111|pass show/);
  });

  it("list reports a models.json that fails validation on stderr", async () => {
    await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers: { bad: { models: [{ id: 7 }] } } }));
    const list = io();
    expect(await runAuthCommand(["list"], list)).toBe(0);
    expect(list.text().err).toMatch(/^Invalid models file .*models\.json: Invalid providers\.bad\.models\.0\.id: expected string \(entry skipped\)\n$/);
  });
});

describe("a broken auth.json", () => {
  it("is reported and never overwritten", async () => {
    const file = join(agentDir, "auth.json");
    await writeFile(file, "{ broken");
    const warnings: string[] = [];
    const r = new ModelRegistry({ env: {}, agentDir, warn: (m) => warnings.push(m) });
    await r.loadConfig();
    expect(warnings[0]).toMatch(/Invalid JSON in .*auth\.json/);
    await expect(r.storeApiKey("openai", "k")).rejects.toThrow(/it is not valid JSON .*fix or remove it first/);
    let err = "";
    const stdin = new PassThrough();
    stdin.end("k\n");
    const code = await runAuthCommand(["set", "openai"], { agentDir, stdin, stdout: new PassThrough(), stderr: new PassThrough().on("data", (c) => (err += c)) });
    expect(code).toBe(1);
    expect(err).toMatch(/it is not valid JSON .*fix or remove it first/);
    expect(await readFile(file, "utf8")).toBe("{ broken");
  });
});
