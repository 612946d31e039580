/**
 * Swapping providers by configuration alone, over the built CLI: `--list-models` says which
 * providers have a key (and which variable would give one), a local server's models appear once
 * its base URL is set and are served without a key, and `atomic models update` refreshes the
 * catalogs from a public catalog (a loopback server here) into the agent dir, `reset` drops them.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";

const fake = useFakeLlm();
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined, GROQ_API_KEY: undefined, VLLM_BASE_URL: undefined, VLLM_API_KEY: undefined };
const dirs: string[] = [];
const clients: RpcClient[] = [];
let catalogServer: Server;
let catalogUrl: string;
let catalogRequests = 0;

/** A models.dev-shaped catalog with one new Groq model and a new price for a known one. */
const MODELS_DEV = {
  groq: {
    id: "groq",
    env: ["GROQ_API_KEY"],
    models: {
      "openai/gpt-oss-120b": {
        id: "openai/gpt-oss-120b",
        name: "GPT OSS 120B",
        reasoning: true,
        tool_call: true,
        modalities: { input: ["text"], output: ["text"] },
        cost: { input: 0.1, output: 0.5 },
        limit: { context: 131072, output: 65536 },
      },
      "groq/brand-new-70b": {
        id: "groq/brand-new-70b",
        name: "Brand New 70B",
        reasoning: false,
        tool_call: true,
        modalities: { input: ["text"], output: ["text"] },
        cost: { input: 0.2, output: 0.4 },
        limit: { context: 65536, output: 8192 },
      },
    },
  },
};

beforeAll(async () => {
  catalogServer = createServer((req, res) => {
    catalogRequests++;
    if (req.url === "/api.json") res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(MODELS_DEV));
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => catalogServer.listen(0, "127.0.0.1", resolve));
  catalogUrl = `http://127.0.0.1:${(catalogServer.address() as AddressInfo).port}/api.json`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => catalogServer.close(() => resolve()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
afterEach(async () => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) await c.close();
});

function folders(): { agentDir: string; cwd: string } {
  const agentDir = tempDir("atomic-agent-");
  const cwd = tempDir("atomic-cwd-");
  dirs.push(agentDir, cwd);
  return { agentDir, cwd };
}

describe("--list-models and keys", () => {
  it("shows each provider's models with the key's source, or the variable that would give one", async () => {
    const { agentDir, cwd } = folders();
    const run = await runCli(["--list-models", "groq"], { agentDir, cwd, env: { ...NO_KEYS, GROQ_API_KEY: "gsk" } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^groq +openai\/gpt-oss-120b +131\.1K +65\.5K +yes +no +env GROQ_API_KEY$/m);
    const without = await runCli(["--list-models", "cerebras"], { agentDir, cwd, env: NO_KEYS });
    expect(without.stdout).toMatch(/^cerebras +gpt-oss-120b .* none \(CEREBRAS_API_KEY\)$/m);
    const bedrock = await runCli(["--list-models", "amazon-bedrock/us.anthropic.claude-opus-5-5"], { agentDir, cwd, env: { ...NO_KEYS, AWS_PROFILE: "work" } });
    expect(bedrock.stdout).toMatch(/^amazon-bedrock +us\.anthropic\.claude-opus-5-5 +1M +128K +yes +yes +env AWS_PROFILE$/m);
  });

  it("starts with --provider and a key in the environment, nothing else", async () => {
    const { agentDir, cwd } = folders();
    const client = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--no-session", "--provider", "groq"], env: { ...NO_KEYS, GROQ_API_KEY: "gsk" } });
    clients.push(client);
    const state = (await client.request({ type: "get_state" })) as unknown as { data: { model: { provider: string; id: string; contextWindow: number } } };
    expect(state.data.model).toMatchObject({ provider: "groq", id: "openai/gpt-oss-120b", contextWindow: 131072 });
  });
});

describe("local servers", () => {
  it("lists the models a server reports once its base URL is set, and streams them without a key", async () => {
    const { agentDir, cwd } = folders();
    fake.listModels([
      { id: "qwen3:8b", object: "model", max_model_len: 32768 },
      { id: "llama3.2:3b", object: "model" },
    ]);
    const env = { ...NO_KEYS, VLLM_BASE_URL: fake.url };
    const listed = await runCli(["--list-models", "vllm"], { agentDir, cwd, env });
    expect(listed.stdout.split("\n")).toEqual([
      "provider  model        context  max-out  thinking  images  credentials",
      "vllm      qwen3:8b     32.8K    16.4K    no        no      not needed",
      "vllm      llama3.2:3b  128K     16.4K    no        no      not needed",
      "",
    ]);
    const client = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--no-session", "--model", "vllm/qwen3:8b"], env });
    clients.push(client);
    fake.requests.length = 0;
    fake.script({ text: "local answer" });
    expect(await client.request({ type: "prompt", message: "hi" })).toMatchObject({ success: true });
    await client.waitForEvent("agent_end");
    const request = fake.requests.find((r) => r.format === "openai-chat")!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.body).toMatchObject({ model: "qwen3:8b", max_tokens: expect.any(Number) });
    expect(request.body.tools[0].function.strict).toBeUndefined();
    // A local server without a key gets no Authorization header.
    expect(request.headers.authorization).toBeUndefined();
    fake.listModels(undefined);
  });

  it("says why when the server named on the command line does not answer", async () => {
    const { agentDir, cwd } = folders();
    const run = await runCli(["--mode", "rpc", "--model", "ollama/qwen3:8b"], { agentDir, cwd, env: { ...NO_KEYS, OLLAMA_BASE_URL: "http://127.0.0.1:9/v1" } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Ollama: cannot list the models at http:\/\/127\.0\.0\.1:9\/v1\/models \(.+\)\. Is the server running\? Set OLLAMA_BASE_URL/);
  });
});

describe("cloud routes through the built CLI (the bundled SDKs, Bedrock's loaded from node_modules)", () => {
  const ROUTES = [
    {
      model: "amazon-bedrock/us.anthropic.claude-opus-5-5",
      env: { AWS_ACCESS_KEY_ID: "AKIDEXAMPLE", AWS_SECRET_ACCESS_KEY: "secret", AWS_REGION: "us-east-2" },
      path: "/model/us.anthropic.claude-opus-5-5/invoke-with-response-stream",
      auth: /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-2\/bedrock\//,
    },
    { model: "azure/gpt-6.2-sol", env: { AZURE_OPENAI_API_KEY: "az-key" }, path: "/openai/v1/responses", auth: undefined },
    {
      model: "google-vertex/gemini-4-argon",
      env: { GOOGLE_CLOUD_API_KEY: "gcp-key" },
      path: "/v1beta1/publishers/google/models/gemini-4-argon:streamGenerateContent",
      auth: undefined,
    },
  ];
  it.each(ROUTES.map((r) => [r.model, r] as const))("%s answers a prompt", async (_name, route) => {
    const { agentDir, cwd } = folders();
    const { writeFileSync } = await import("node:fs");
    writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { "amazon-bedrock": { baseUrl: fake.url }, "google-vertex": { baseUrl: fake.url } } }));
    const client = new RpcClient({
      agentDir,
      cwd,
      args: ["--mode", "rpc", "--no-session", "--model", route.model],
      env: { ...NO_KEYS, AZURE_OPENAI_BASE_URL: `${fake.url}/openai/v1`, ...route.env },
    });
    clients.push(client);
    fake.requests.length = 0;
    fake.script({ text: "cloud answer" });
    expect(await client.request({ type: "prompt", message: "hi" })).toMatchObject({ success: true });
    const end = await client.waitForEvent("agent_end");
    const messages = (end as unknown as { messages: { role: string; content: { text?: string }[]; errorMessage?: string }[] }).messages;
    const answer = messages.filter((m) => m.role === "assistant").at(-1)!;
    expect(answer.errorMessage).toBeUndefined();
    expect(answer.content).toEqual([expect.objectContaining({ text: "cloud answer" })]);
    expect(fake.requests[0]!.path).toBe(route.path);
    if (route.auth) expect(String(fake.requests[0]!.headers.authorization)).toMatch(route.auth);
  });
});

describe("atomic models update", () => {
  it("refreshes a provider's catalog into the agent dir (new models, new prices, curated limits kept); reset goes back", async () => {
    const { agentDir, cwd } = folders();
    const update = await runCli(["models", "update", "groq", "--from", catalogUrl], { agentDir, cwd, env: NO_KEYS });
    expect(update.stderr).toBe("");
    expect(update.code).toBe(0);
    expect(update.stdout).toMatch(/^groq: 8 models, 1 added \(groq\/brand-new-70b\), 1 repriced$/m);
    const file = join(agentDir, "catalog", "groq.json");
    const written = JSON.parse(readFileSync(file, "utf8"));
    expect(written.source.from).toContain(`models.dev (${catalogUrl})`);
    expect(written.models.find((m: { id: string }) => m.id === "openai/gpt-oss-120b")).toMatchObject({
      cost: { input: 0.1, output: 0.5 },
      contextWindow: 131072,
      thinkingLevels: ["low", "medium", "high"],
    });

    const listed = await runCli(["--list-models", "groq"], { agentDir, cwd, env: NO_KEYS });
    expect(listed.stdout).toMatch(/^groq +groq\/brand-new-70b +65\.5K +8\.2K +no +no +none \(GROQ_API_KEY\)$/m);

    const reset = await runCli(["models", "reset", "groq"], { agentDir, cwd, env: NO_KEYS });
    expect(reset.code).toBe(0);
    expect(reset.stdout).toBe(`Removed the refreshed catalog of groq from ${join(agentDir, "catalog")}: the shipped data is used.\n`);
    expect(existsSync(file)).toBe(false);
    // Nothing is left to remove, and it says so rather than reporting removals.
    for (const args of [
      ["models", "reset", "groq"],
      ["models", "reset"],
    ]) {
      const again = await runCli(args, { agentDir, cwd, env: NO_KEYS });
      expect(again.code).toBe(0);
      expect(again.stdout).toBe(`No refreshed catalog of ${args[2] ?? "any provider"} in ${join(agentDir, "catalog")}: nothing to remove, the shipped data is in use.\n`);
    }
    const after = await runCli(["--list-models", "brand-new"], { agentDir, cwd, env: NO_KEYS });
    expect(after.code).toBe(1);
  });

  it("without network changes nothing and says so; a bad provider or option is a usage error", async () => {
    const { agentDir, cwd } = folders();
    const offline = await runCli(["models", "update", "--from", "http://127.0.0.1:9/api.json"], { agentDir, cwd, env: NO_KEYS });
    expect(offline.code).toBe(1);
    expect(offline.stderr).toMatch(/^Cannot read the catalog at http:\/\/127\.0\.0\.1:9\/api\.json: .+\. Nothing changed: the catalog in use stays\.\n$/);
    expect(existsSync(join(agentDir, "catalog"))).toBe(false);
    const unknown = await runCli(["models", "update", "grok"], { agentDir, cwd, env: NO_KEYS });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^Unknown provider: grok\. Did you mean "xai"\? Built-in providers: anthropic, openai, google, /);
    const slip = await runCli(["models", "update", "anthropc"], { agentDir, cwd, env: NO_KEYS });
    expect(slip).toMatchObject({ code: 2, stderr: expect.stringMatching(/^Unknown provider: anthropc\. Did you mean "anthropic"\? Built-in providers: /) });
    const before = catalogRequests;
    const option = await runCli(["models", "update", "--offline"], { agentDir, cwd, env: NO_KEYS });
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^Unknown option: --offline\n/);
    expect(catalogRequests).toBe(before);
  });

  it("a broken refreshed file is reported and the shipped data used", async () => {
    const { agentDir, cwd } = folders();
    const { mkdirSync, writeFileSync } = await import("node:fs");
    mkdirSync(join(agentDir, "catalog"));
    writeFileSync(join(agentDir, "catalog", "groq.json"), '{"provider":"groq","models":"nope"}');
    const run = await runCli(["--list-models", "groq"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/Invalid catalog file .*groq\.json: .* \(shipped data used\)/);
    expect(run.stdout).toMatch(/^groq +openai\/gpt-oss-120b /m);
  });
});
