/**
 * Settings and auth files kept in a dotfiles repository and linked into the agent dir stay
 * linked (issue 26, item 4): what Atomic writes goes through the link to the target, which
 * keeps its mode. Before, the write replaced the link with a regular file (0644 for settings).
 */
import { spawn } from "node:child_process";
import { chmodSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, RpcClient, tempDir } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

/** An agent dir whose `name` links to `<dotfiles>/atomic/<name>`, holding `content` with `mode`. */
function linked(name: string, content: object, mode: number): { agentDir: string; target: string } {
  const root = tempDir("atomic-home-");
  const agentDir = join(root, "agent");
  const target = join(root, "dotfiles", "atomic", name);
  mkdirSync(agentDir);
  mkdirSync(join(root, "dotfiles", "atomic"), { recursive: true });
  writeFileSync(target, JSON.stringify(content));
  chmodSync(target, mode);
  symlinkSync(`../dotfiles/atomic/${name}`, join(agentDir, name));
  return { agentDir, target };
}

describe("symlinked settings and auth files", () => {
  it("a preference saved over RPC goes to the settings file's target, which keeps its mode", async () => {
    const { agentDir, target } = linked("settings.json", { defaultThinkingLevel: "low" }, 0o640);
    const c = new RpcClient({ agentDir });
    clients.push(c);
    await c.ok({ type: "set_auto_retry", enabled: false });
    expect(lstatSync(join(agentDir, "settings.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ defaultThinkingLevel: "low", retry: { enabled: false } });
    expect(statSync(target).mode & 0o777).toBe(0o640);
  });

  it("`atomic auth set` stores the key in the auth file's target, 0600", async () => {
    const { agentDir, target } = linked("auth.json", { openai: { type: "api_key", key: "sk-old" } }, 0o600);
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [CLI, "auth", "set", "anthropic"], { env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir }, stdio: ["pipe", "ignore", "pipe"] });
      child.stdin.end("sk-ant-new\n");
      child.once("exit", resolve);
    });
    expect(code).toBe(0);
    expect(lstatSync(join(agentDir, "auth.json")).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual({ openai: { type: "api_key", key: "sk-old" }, anthropic: { type: "api_key", key: "sk-ant-new" } });
    expect(statSync(target).mode & 0o777).toBe(0o600);
  });
});
