/**
 * Address variables over the built CLI: a model whose base URL names a `{VARIABLE}` set nowhere
 * (Cloudflare's `{CLOUDFLARE_ACCOUNT_ID}`) is not available even with its key, since every request
 * to it would fail. `get_available_models` leaves it out, a prompt to it is refused naming the
 * variable, and `--list-models` and `atomic config` name it. The variable counts from the
 * environment, from the provider's auth.json entry (`env`), and not at all once models.json gives
 * an address without it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { stderrContains } from "./helpers/extension-agent.js";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";

const WORKERS = "cloudflare-workers-ai";
const GATEWAY = "cloudflare-ai-gateway";
const WORKERS_MODEL = `${WORKERS}/@cf/moonshotai/kimi-k2.7-code`;
/** Every variable these tests decide, explicitly: the machine's own environment never leaks in. */
const UNSET = { CLOUDFLARE_API_KEY: undefined, CLOUDFLARE_ACCOUNT_ID: undefined, CLOUDFLARE_GATEWAY_ID: undefined };

const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

function agentDirWith(files: { auth?: unknown; models?: unknown } = {}): string {
  const agentDir = tempDir("atomic-agent-");
  if (files.auth) writeFileSync(join(agentDir, "auth.json"), JSON.stringify(files.auth), { mode: 0o600 });
  if (files.models) writeFileSync(join(agentDir, "models.json"), JSON.stringify(files.models));
  return agentDir;
}

function start(env: Record<string, string>, options: { agentDir?: string; args?: string[] } = {}): RpcClient {
  const client = new RpcClient({ agentDir: options.agentDir ?? agentDirWith(), args: ["--mode", "rpc", "--no-session", ...(options.args ?? [])], env: { ...UNSET, ...env } });
  clients.push(client);
  return client;
}

/** How many models of each Cloudflare provider `get_available_models` lists. */
async function availableCloudflare(client: RpcClient): Promise<Record<string, number>> {
  const { models } = (await client.ok({ type: "get_available_models" })) as { models: { provider: string }[] };
  const count = (provider: string) => models.filter((model) => model.provider === provider).length;
  return { [WORKERS]: count(WORKERS), [GATEWAY]: count(GATEWAY) };
}

describe("get_available_models and address variables", () => {
  it("leaves out a model whose address variable is unset, though its key is set", async () => {
    expect(await availableCloudflare(start({ CLOUDFLARE_API_KEY: "cf-key" }))).toEqual({ [WORKERS]: 0, [GATEWAY]: 0 });
  });

  it("lists it once the variable is set; the gateway still needs its own", async () => {
    const listed = await availableCloudflare(start({ CLOUDFLARE_API_KEY: "cf-key", CLOUDFLARE_ACCOUNT_ID: "acct-1" }));
    expect(listed[WORKERS]).toBeGreaterThan(0);
    expect(listed[GATEWAY]).toBe(0);
    const both = await availableCloudflare(start({ CLOUDFLARE_API_KEY: "cf-key", CLOUDFLARE_ACCOUNT_ID: "acct-1", CLOUDFLARE_GATEWAY_ID: "gw-1" }));
    expect(both[GATEWAY]).toBeGreaterThan(0);
  });

  it("takes the variable from the provider's auth.json entry, as requests do", async () => {
    const agentDir = agentDirWith({ auth: { [WORKERS]: { type: "api_key", key: "cf-key", env: { CLOUDFLARE_ACCOUNT_ID: "acct-1" } } } });
    const listed = await availableCloudflare(start({}, { agentDir }));
    expect(listed[WORKERS]).toBeGreaterThan(0);
  });

  it("needs no variable when models.json gives an address without one", async () => {
    const agentDir = agentDirWith({ models: { providers: { [WORKERS]: { baseUrl: "http://127.0.0.1:9/v1" } } } });
    const listed = await availableCloudflare(start({ CLOUDFLARE_API_KEY: "cf-key" }, { agentDir }));
    expect(listed[WORKERS]).toBeGreaterThan(0);
  });
});

describe("what names a missing address variable", () => {
  it("a prompt to such a model is refused before it starts, naming the variable", async () => {
    const client = start({ CLOUDFLARE_API_KEY: "cf-key" }, { args: ["--model", WORKERS_MODEL] });
    const response = await client.request({ type: "prompt", message: "hi" });
    expect(response.success).toBe(false);
    expect(response.error).toBe(`${WORKERS} needs CLOUDFLARE_ACCOUNT_ID for its address: set it in the environment.`);
    expect(client.records.some((record) => record.type === "agent_start")).toBe(false);
  });

  it("a saved default of such a model is said to be unavailable at startup, naming the variable", async () => {
    const [provider, ...id] = WORKERS_MODEL.split("/");
    const agentDir = agentDirWith();
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProvider: provider, defaultModel: id.join("/") }));
    const client = start({ CLOUDFLARE_API_KEY: "cf-key" }, { agentDir });
    await stderrContains(
      client,
      `The default model ${WORKERS_MODEL} (settings defaultProvider/defaultModel) is unavailable. ${WORKERS} needs CLOUDFLARE_ACCOUNT_ID for its address: set it in the environment.`,
    );
  });

  it("--list-models and atomic config name it next to the key; config notes it, a problem only as the default", async () => {
    const agentDir = agentDirWith();
    const cwd = tempDir("atomic-cwd-");
    const env = { ...UNSET, CLOUDFLARE_API_KEY: "cf-key" };
    const list = await runCli(["--list-models", WORKERS_MODEL], { cwd, agentDir, env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("env CLOUDFLARE_API_KEY; needs CLOUDFLARE_ACCOUNT_ID");
    const config = await runCli(["config"], { cwd, agentDir, env });
    expect(config.stdout).toMatch(new RegExp(`${WORKERS} +env CLOUDFLARE_API_KEY; needs CLOUDFLARE_ACCOUNT_ID +\\d+ models`));
    expect(config.stdout).toContain(`- ${WORKERS} needs CLOUDFLARE_ACCOUNT_ID for its address: set it in the environment. Its models are unavailable until then`);
    expect(config.stdout).toContain(`- ${GATEWAY} needs CLOUDFLARE_ACCOUNT_ID and CLOUDFLARE_GATEWAY_ID for its address`);
    // The key may be set for other tools: nothing fails at startup, so nothing to fix.
    const notes = config.stdout.slice(config.stdout.indexOf("\nNotes\n"), config.stdout.indexOf("\nProblems"));
    expect(notes).toContain(`- ${WORKERS} needs CLOUDFLARE_ACCOUNT_ID for its address`);
    expect(config.stdout).toContain("Problems: none");
    expect(config.code, config.stdout).toBe(0);
    // As the saved default it is what startup uses: a problem.
    const [provider, ...id] = WORKERS_MODEL.split("/");
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ defaultProvider: provider, defaultModel: id.join("/") }));
    const asDefault = await runCli(["config"], { cwd, agentDir, env });
    const problems = asDefault.stdout.slice(asDefault.stdout.indexOf("\nProblems ("));
    expect(problems).toContain(`The default model ${WORKERS_MODEL} (settings defaultProvider/defaultModel) is unavailable. ${WORKERS} needs CLOUDFLARE_ACCOUNT_ID`);
    expect(asDefault.code).toBe(1);
  });

  it("config reports no such problem once the variables are set", async () => {
    const env = { ...UNSET, CLOUDFLARE_API_KEY: "cf-key", CLOUDFLARE_ACCOUNT_ID: "acct-1", CLOUDFLARE_GATEWAY_ID: "gw-1" };
    const config = await runCli(["config"], { cwd: tempDir("atomic-cwd-"), agentDir: agentDirWith(), env });
    expect(config.stdout).toMatch(new RegExp(`${WORKERS} +env CLOUDFLARE_API_KEY +\\d+ models`));
    expect(config.stdout).not.toContain("for its address");
  });
});
