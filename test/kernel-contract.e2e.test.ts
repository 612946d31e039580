/**
 * The kernel contract as a client and a user see it through the built CLI: settings written
 * safely, the transport chosen by name, replies that get no response, a project that cannot run
 * or relocate anything by itself.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, RpcClient, tempDir } from "./helpers/rpc-client.js";
import { NODE } from "./helpers/node.js";

const clients: RpcClient[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function start(options: { args?: string[]; settings?: Record<string, unknown>; project?: Record<string, unknown>; env?: Record<string, string> } = {}): RpcClient {
  const agentDir = tempDir("atomic-agent-");
  const cwd = tempDir("atomic-cwd-");
  dirs.push(agentDir, cwd);
  if (options.project) {
    mkdirSync(join(cwd, ".atomic"), { recursive: true });
    writeFileSync(join(cwd, ".atomic", "settings.json"), JSON.stringify(options.project));
  }
  const c = new RpcClient({
    agentDir,
    cwd,
    args: options.args ?? ["--mode", "rpc", "--no-session"],
    ...(options.settings ? { settings: options.settings } : {}),
    env: { ANTHROPIC_API_KEY: "test", OPENAI_API_KEY: "test", ...options.env },
  });
  clients.push(c);
  return c;
}

describe("settings are written safely", () => {
  it("set_thinking_level with an unparsable settings.json fails naming the file and changes nothing", async () => {
    const c = start();
    const before = await c.ok({ type: "get_state" });
    const file = join(c.agentDir, "settings.json");
    writeFileSync(file, '{"defaultProvider": "anthropic",');
    const response = await c.request({ type: "set_thinking_level", level: "high" });
    expect(response).toMatchObject({ success: false, error: expect.stringContaining(`Cannot update ${file}: it is not valid JSON`) });
    expect(readFileSync(file, "utf8")).toBe('{"defaultProvider": "anthropic",');
    expect((await c.ok({ type: "get_state" })).thinkingLevel).toEqual(before.thinkingLevel);
    writeFileSync(file, '{"theme": "dark"}');
    await c.ok({ type: "set_thinking_level", level: "high" });
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ theme: "dark", defaultThinkingLevel: "high" });
  });

  it("a pi settings file with `transport: auto` starts normally", async () => {
    const c = start({ settings: { transport: "auto", theme: "dark" } });
    expect(await c.ok({ type: "get_state" })).toMatchObject({ isStreaming: false });
  });
});

describe("credentials are written safely", () => {
  it("three concurrent `atomic auth set` runs keep all three keys (0600)", async () => {
    const agentDir = tempDir("atomic-agent-");
    dirs.push(agentDir);
    const set = (provider: string, key: string) =>
      new Promise<number | null>((resolve) => {
        const child = spawn(NODE, [CLI, "auth", "set", provider], { env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir }, stdio: ["pipe", "ignore", "pipe"] });
        child.stdin.end(`${key}\n`);
        child.once("exit", resolve);
      });
    expect(await Promise.all([set("anthropic", "key-a"), set("openai", "key-o"), set("google", "key-g")])).toEqual([0, 0, 0]);
    const file = join(agentDir, "auth.json");
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      anthropic: { type: "api_key", key: "key-a" },
      openai: { type: "api_key", key: "key-o" },
      google: { type: "api_key", key: "key-g" },
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe("transports by name", () => {
  it("an unknown --mode is a usage error listing the available transports", async () => {
    const c = start({ args: ["--mode", "telepathy"] });
    expect((await c.exited).code).toBe(2);
    expect(c.stderr).toContain('Unknown mode "telepathy". Available: rpc');
  });

  it("positional arguments in rpc mode are a usage error", async () => {
    const c = start({ args: ["--mode", "rpc", "hello"] });
    expect((await c.exited).code).toBe(2);
    expect(c.stderr).toContain('Unexpected argument "hello"');
  });

  it("settings `mode` picks the transport; a project may not set it unless trusted", async () => {
    const fromUser = start({ args: ["--no-session"], settings: { mode: "telepathy" } });
    expect((await fromUser.exited).code).toBe(2);
    const fromProject = start({ args: ["--no-session"], project: { mode: "./evil.mjs", shellPath: "./evil.sh", sessionDir: "./sessions" } });
    expect(await fromProject.ok({ type: "get_state" })).toMatchObject({ isStreaming: false });
    expect(fromProject.stderr).toContain('Ignored "mode"');
    expect(fromProject.stderr).toContain('Ignored "shellPath"');
    expect(fromProject.stderr).toContain('Ignored "sessionDir"');
  });
});

describe("replies", () => {
  it("extension_ui_response gets no response: an unknown or missing id is one stderr line", async () => {
    const c = start();
    c.send({ type: "extension_ui_response", id: "nobody-asked", value: "x" });
    c.send({ type: "extension_ui_response", value: "x" }, { unchecked: true });
    const state = await c.request({ type: "get_state" });
    expect(c.records.filter((r) => r.type === "response")).toEqual([state]);
    expect(c.stderr).toContain('Ignored extension_ui_response "nobody-asked": no dialog is waiting for it');
    expect(c.stderr).toContain("Ignored extension_ui_response: Invalid id: expected string");
  });
});
