/**
 * Configuration files a new user gets wrong, over the built CLI: every problem startup warns
 * about is one `atomic config` lists (and exits 1 for), with the file, the key path, what was
 * expected and the key or value meant; a models.json `api` no provider serves, at `atomic config`
 * and at the first prompt; VS Code's `servers` key in mcp.json; `atomic mcp test` against an
 * address nothing answers; settings.json with comments and trailing commas, as models.json;
 * where the usage goes when a subcommand is missing; settings that stop a start only once boot is
 * over (a mode naming no transport, a serve.listen entry that is no listener URL), a bound written
 * as the schema has it, an auth.json others may read, serve.allowOrigins entries that are no
 * origins, and an auth.json login without its tokens.
 */
import { chmodSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "./helpers/mcp.js";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";

const DEMO = ["--provider", "replay", "--model", "demo"];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const clients: RpcClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

function folders(files: { mcp?: unknown; models?: unknown; settings?: unknown; projectMcp?: unknown; auth?: unknown } = {}) {
  const agentDir = tempDir("atomic-agent-");
  const cwd = realpathSync(tempDir("atomic-cwd-"));
  const write = (path: string, value: unknown) => {
    mkdirSync(join(path, ".."), { recursive: true });
    writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  };
  if (files.mcp !== undefined) write(join(agentDir, "mcp.json"), files.mcp);
  if (files.models !== undefined) write(join(agentDir, "models.json"), files.models);
  if (files.settings !== undefined) write(join(agentDir, "settings.json"), files.settings);
  if (files.projectMcp !== undefined) write(join(cwd, ".atomic", "mcp.json"), files.projectMcp);
  if (files.auth !== undefined) writeFileSync(join(agentDir, "auth.json"), JSON.stringify(files.auth), { mode: 0o600 });
  return { agentDir, cwd, mcp: join(agentDir, "mcp.json"), models: join(agentDir, "models.json"), auth: join(agentDir, "auth.json") };
}

const LOCAL_QWEN = { providers: { local: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completion", apiKey: "none", models: [{ id: "qwen" }] } } };

describe("atomic config lists what startup warns about", () => {
  it("an mcp.json entry that is skipped, with the key meant; an mcp.json that is not JSON, placed by line and column", async () => {
    const skipped = folders({ mcp: { mcpServers: { a: { comand: "cat" }, b: { command: "cat", arg: ["-n"] } } } });
    const run = await runCli(["config", ...DEMO], { agentDir: skipped.agentDir, cwd: skipped.cwd, env: NO_KEYS });
    expect(run.stdout).toContain(
      `Problems (2)\n  - mcp: ${skipped.mcp}: Invalid mcpServers.a: expected "command" (a stdio server) or "url" (an HTTP server); found "comand": did you mean "command"? (entry skipped)\n` +
        `  - mcp: ${skipped.mcp}: Invalid mcpServers.b.arg: unknown key (did you mean "args"?) (entry skipped)\n`,
    );
    expect(run.code).toBe(1);

    const broken = folders({ mcp: '{\n  "mcpServers": {\n' });
    const second = await runCli(["config", ...DEMO], { agentDir: broken.agentDir, cwd: broken.cwd, env: NO_KEYS });
    expect(second.stdout).toMatch(new RegExp(`  - mcp: ${broken.mcp.replace(/[.]/g, "\\.")}: not valid JSON \\(.+ at line 3, column 1\\) \\(no server is read from the file\\)\n`));
    expect(second.code).toBe(1);
  });

  it("with --no-mcp, mcp.json is not read: a note says MCP is off, its problems are none of this run's", async () => {
    const { agentDir, cwd } = folders({ mcp: { mcpServers: { a: { comand: "cat" } } } });
    const run = await runCli(["config", "--no-mcp", ...DEMO], { agentDir, cwd, env: NO_KEYS });
    expect(run.stdout).toContain("Notes\n  - MCP is off for this run (--no-mcp): mcp.json is not read\n");
    expect(run.stdout).not.toContain("comand");
    expect(run.stdout).toContain("Problems: none\n");
    expect(run.code).toBe(0);
  });

  it("a models.json api no provider serves: atomic config names the key, the APIs there are and the one meant; the prompt's error names models.json", async () => {
    const { agentDir, cwd, models } = folders({ models: LOCAL_QWEN });
    const run = await runCli(["config"], { agentDir, cwd, env: NO_KEYS });
    expect(run.stdout).toMatch(
      new RegExp(
        `  - Invalid models file ${models.replace(/[.]/g, "\\.")}: Invalid providers\\.local\\.api: "openai-completion" is no API a provider serves; expected one of [a-z, -]*openai-completions, openai-responses[a-z, -]*\\. Did you mean "openai-completions"\\?\n`,
      ),
    );
    expect(run.code).toBe(1);

    const client = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--provider", "local", "--model", "qwen", "--no-session"], env: NO_KEYS });
    clients.push(client);
    await client.ok({ type: "prompt", message: "hi" });
    const end = (await client.waitFor((record) => record.type === "message_end" && (record.message as { role: string }).role === "assistant")).message as { errorMessage: string };
    expect(end.errorMessage).toMatch(
      new RegExp(
        `^No provider is registered for API "openai-completion" \\(model local/qwen, from providers\\.local\\.api in ${models.replace(/[.]/g, "\\.")}\\)\\. Registered APIs: .*openai-completions, .*\\. Did you mean "openai-completions"\\?$`,
      ),
    );
  });

  it('a models.json key that is a slip of a known one: "provider" for "providers" at startup, "baseURL" for "baseUrl" at atomic config', async () => {
    const top = folders({ models: { provider: { local: {} } } });
    const run = await runCli(["config", ...DEMO], { agentDir: top.agentDir, cwd: top.cwd, env: NO_KEYS });
    expect(run.stdout).toContain(`Invalid providers: expected an object of providers (the file has "provider": did you mean "providers"?)`);
    expect(run.code).toBe(1);
    const key = folders({ models: { providers: { openai: { baseURL: "http://127.0.0.1:9/v1" } } } });
    const second = await runCli(["config", ...DEMO], { agentDir: key.agentDir, cwd: key.cwd, env: NO_KEYS });
    expect(second.stdout).toContain(`  - Unknown key "providers.openai.baseURL" in ${key.models} (did you mean "baseUrl"?): Atomic does not read it, ignored\n`);
    expect(second.code).toBe(1);
  });
});

describe("VS Code's mcp.json (servers)", () => {
  it("is named at startup, by atomic mcp list and by atomic config, with the key Atomic reads", async () => {
    const { agentDir, cwd, mcp } = folders({ mcp: { servers: { files: { type: "stdio", command: "cat" } } } });
    const expected = `${mcp}: "servers" is VS Code's key; Atomic reads "mcpServers" (its entries have the same shape: type, command, args, env, url, headers): rename the key (no server is read from the file)`;
    const list = await runCli(["mcp", "list"], { agentDir, cwd });
    expect(list.stdout).toContain(`No MCP servers configured.`);
    expect(list.stdout).toContain(`\nProblems:\n  ${expected}\n`);
    expect(list.code).toBe(1);
    const config = await runCli(["config", ...DEMO], { agentDir, cwd, env: NO_KEYS });
    expect(config.stdout).toContain(`  - mcp: ${expected}\n`);
    expect(config.code).toBe(1);
    const client = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", ...DEMO, "--no-session"] });
    clients.push(client);
    expect(await client.ok({ type: "get_mcp_servers" })).toMatchObject({ servers: [], errors: [expect.stringContaining('"servers" is VS Code\'s key')] });
    expect(client.stderr).toContain(`mcp: ${expected}\n`);
  });
});

describe("atomic mcp test of an HTTP server nothing answers", () => {
  it("names the address and the cause: a refused connection, a port fetch will not use", async () => {
    const port = await freePort();
    const { agentDir, cwd } = folders({ mcp: { mcpServers: { files: { url: `http://127.0.0.1:${port}/mcp` }, old: { url: "http://127.0.0.1:9/sse", type: "sse" } } } });
    const run = await runCli(["mcp", "test"], { agentDir, cwd });
    expect(run.stdout).toContain(`files: failed: cannot reach http://127.0.0.1:${port}/mcp (connect ECONNREFUSED 127.0.0.1:${port})\n`);
    expect(run.stdout).toContain("old: failed: cannot reach http://127.0.0.1:9/sse (bad port: fetch refuses to connect to this port; serve the MCP server on another one)\n");
    expect(run.code).toBe(1);
  });
});

describe("settings.json with // comments and trailing commas, as models.json", () => {
  it("is read by startup, atomic config, atomic mcp (trust) and atomic list alike", async () => {
    const cwd = realpathSync(tempDir("atomic-cwd-"));
    const settings = `{\n  // my defaults\n  "defaultThinkingLevel": "high",\n  "trustedProjects": [${JSON.stringify(cwd)},],\n}\n`;
    const { agentDir } = folders({ settings });
    mkdirSync(join(cwd, ".atomic"));
    writeFileSync(join(cwd, ".atomic", "mcp.json"), '{ "mcpServers": { "p": { "command": "cat" }, }, }');
    const config = await runCli(["config", ...DEMO], { agentDir, cwd, env: NO_KEYS });
    expect(config.stdout).toMatch(/^ {2}defaultThinkingLevel +user +agent$/m);
    expect(config.stdout).toContain("(project trusted)");
    expect(config.stdout.endsWith("\nProblems: none\n")).toBe(true);
    expect(config.code).toBe(0);
    const list = await runCli(["mcp", "list"], { agentDir, cwd });
    expect(list.stdout).toMatch(/^p {2}stdio {2}enabled {2}codemode {2}project {2}cat$/m);
    expect(list.code).toBe(0);
    const packages = await runCli(["list"], { agentDir, cwd });
    expect(packages.stderr).toBe("");
    expect(packages.code).toBe(0);
  });
});

describe("a subcommand without its command", () => {
  it.each(["models", "auth", "mcp"])("atomic %s: the usage on stderr, exit 2; --help: on stdout, exit 0", async (command) => {
    const { agentDir, cwd } = folders();
    const bare = await runCli([command], { agentDir, cwd });
    expect(bare).toMatchObject({ code: 2, stdout: "" });
    expect(bare.stderr).toMatch(/^Usage:\n/);
    const help = await runCli([command, "--help"], { agentDir, cwd });
    expect(help).toMatchObject({ code: 0, stderr: "", stdout: bare.stderr });
  });
});

describe("atomic config lists what stops a start, or leaves credentials open", () => {
  it("a mode setting naming no transport, and a serve.listen entry that is no listener URL, are problems: each stops a start", async () => {
    const { agentDir, cwd } = folders({ settings: { mode: "telepathy", serve: { listen: ["8080", "wss://127.0.0.1:1"] } } });
    const user = join(agentDir, "settings.json");
    const run = await runCli(["config"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`  - Invalid settings file ${user}: Invalid serve.listen.0: expected stdio, unix:PATH or ws://HOST:PORT (did you mean ws://127.0.0.1:8080?)\n`);
    expect(run.stdout).toContain(`  - Invalid settings file ${user}: Invalid serve.listen.1: expected ws://HOST:PORT: atomic serve speaks no TLS itself`);
    // Without the listen entries, the mode is what stops startup: named with the file it comes from.
    const modeOnly = folders({ settings: { mode: "telepathy" } });
    const report = await runCli(["config"], { agentDir: modeOnly.agentDir, cwd: modeOnly.cwd, env: NO_KEYS });
    const named = `Unknown mode "telepathy" (the mode setting in ${join(modeOnly.agentDir, "settings.json")}). Available: rpc, print, json, acp, serve`;
    expect(report.stdout).toContain(`Problems (1)\n  - ${named}\n`);
    expect(report.code).toBe(1);
    const start = await runCli([], { agentDir: modeOnly.agentDir, cwd: modeOnly.cwd, env: NO_KEYS });
    expect(start.code).toBe(2);
    expect(start.stderr).toContain(`atomic: ${named}`);
    // The flag wins over the setting: then there is nothing to report.
    expect((await runCli(["config", "--mode", "rpc"], { agentDir: modeOnly.agentDir, cwd: modeOnly.cwd, env: NO_KEYS })).stdout).toContain("Problems: none\n");
  });

  it("a bound is written as the schema has it: 0 where more than 0 is expected is not told 'a value >= 0'", async () => {
    const { agentDir, cwd } = folders({ settings: { serve: { maxAgents: 0 }, retry: { maxRetries: -1 } } });
    const user = join(agentDir, "settings.json");
    const run = await runCli(["config"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`  - Invalid settings file ${user}: Invalid serve.maxAgents: expected a value > 0\n`);
    expect(run.stdout).toContain(`  - Invalid settings file ${user}: Invalid retry.maxRetries: expected a value >= 0\n`);
  });

  it("an auth.json others than its owner can read is a problem saying how to close it", async () => {
    const { agentDir, cwd } = folders();
    const auth = join(agentDir, "auth.json");
    writeFileSync(auth, JSON.stringify({ anthropic: { type: "api_key", key: "sk-stored-777" } }), { mode: 0o600 });
    chmodSync(auth, 0o644);
    const run = await runCli(["config"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`Problems (1)\n  - ${auth} holds credentials and is readable by group and others (mode 0644): chmod 600 ${auth}\n`);
    chmodSync(auth, 0o600);
    expect((await runCli(["config"], { agentDir, cwd, env: NO_KEYS })).stdout).toContain("Problems: none\n");
  });

  it("serve.allowOrigins entries that are no origins (a host alone, a path, a wildcard, null) are problems naming the entry and the origin meant; each stops a start", async () => {
    const { agentDir, cwd } = folders({ settings: { serve: { allowOrigins: ["example.com", "http://example.com/path", "*", "null", "https://ok.example"] } } });
    const user = join(agentDir, "settings.json");
    const run = await runCli(["config"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(1);
    const invalid = `  - Invalid settings file ${user}: Invalid serve.allowOrigins.`;
    expect(run.stdout).toContain(`${invalid}0: expected an origin such as https://app.example.com (did you mean https://example.com?)\n`);
    expect(run.stdout).toContain(`${invalid}1: expected an origin such as https://app.example.com (did you mean http://example.com?)\n`);
    expect(run.stdout).toContain(`${invalid}2: expected an origin such as https://app.example.com (wildcards are not supported: list each origin)\n`);
    expect(run.stdout).toContain(`${invalid}3: expected an origin such as https://app.example.com ("null", the origin of local files`);
    expect(run.stdout).not.toContain("serve.allowOrigins.4");
    const serve = await runCli(["serve", "--listen", "ws://127.0.0.1:0"], { agentDir, cwd, env: NO_KEYS });
    expect(serve.code).toBe(1);
    expect(serve.stderr).toContain("Invalid serve.allowOrigins.0: expected an origin such as https://app.example.com");
  });

  it("an OAuth entry of auth.json without its tokens is a problem naming the file, the provider and the fields; a prompt with it says so, not 'no API key'", async () => {
    const { agentDir, cwd, auth } = folders({ auth: { anthropic: { type: "oauth" }, "openai-codex": { type: "oauth", access: "a", refresh: "r", expires: "soon" } } });
    const run = await runCli(["config"], { agentDir, cwd, env: NO_KEYS });
    expect(run.code).toBe(1);
    const anthropic = `Incomplete login in ${auth}: the "anthropic" entry is of type "oauth" but "refresh" is missing, "access" is missing, "expires" is missing, so it is not used: log in again (atomic login anthropic) or remove it (atomic logout anthropic)`;
    expect(run.stdout).toContain(`  - ${anthropic}\n`);
    expect(run.stdout).toContain(`  - Incomplete login in ${auth}: the "openai-codex" entry is of type "oauth" but "expires" is not a number, so it is not used`);
    const prompt = await runCli(["-p", "hi", "--no-session", "--provider", "anthropic", "--model", "claude-sonnet-5-5"], { agentDir, cwd, env: NO_KEYS });
    expect(prompt.code).toBe(1);
    expect(prompt.stderr).toContain(`atomic: ${anthropic}\n`);
    expect(prompt.stderr).not.toContain("No API key");
    // A key in the environment is used as before: the entry stays a problem for atomic config only.
    expect((await runCli(["config"], { agentDir, cwd, env: { ...NO_KEYS, ANTHROPIC_API_KEY: "sk-env" } })).stdout).toContain(anthropic);
  });
});
