/**
 * The sandbox in the file tools, over the built CLI: the escapes a command is refused by the OS
 * are refused in-process by the tools, on the real path, with a message that says so ("blocked
 * by the sandbox: ..."): writes outside the workspace directly, through a planted symlink (also a
 * dangling one), a planted hard link, /proc/self/root and `..`; git hooks; reading the fake HOME's
 * ssh key and the agent's auth.json, directly, through a symlink, or by searching. No bubblewrap
 * needed: the tools check in-process.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { RpcClient } from "./helpers/rpc-client.js";
import { AUTH_SECRET, sandboxLayout, SSH_SECRET, type SandboxLayout } from "./helpers/sandbox.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) if (client.child.exitCode === null) await client.close();
});

async function start(dirs: SandboxLayout, mode: string): Promise<RpcClient> {
  await writeModelsJson(dirs.agentDir, fake.url);
  const client = new RpcClient({
    agentDir: dirs.agentDir,
    cwd: dirs.workspace,
    args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", "--sandbox", mode],
    settings: { tools: ["+grep", "+find", "+ls"] },
    env: { HOME: dirs.home, ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined },
  });
  clients.push(client);
  return client;
}

type Result = { isError: boolean; text: string };
type End = { toolCallId: string; isError: boolean; result: { content: { type: string; text?: string }[] } };

async function runCalls(client: RpcClient, calls: Record<string, [string, Record<string, unknown>]>): Promise<Map<string, Result>> {
  fake.script({ toolCalls: Object.entries(calls).map(([id, [name, args]]) => ({ id, name, args })) }, { text: "done" });
  const from = client.records.length;
  await client.ok({ type: "prompt", message: "try" });
  await client.waitForEvent("agent_settled", 30_000, from);
  const ends = client.records.slice(from).filter((r) => r.type === "tool_execution_end") as unknown as End[];
  return new Map(ends.map((end) => [end.toolCallId, { isError: end.isError, text: end.result.content.map((block) => block.text ?? "").join("") }]));
}

describe("sandboxed file tools", () => {
  it("workspace-write: refuse writes that leave the workspace and reads of secrets, whatever the path's disguise", async () => {
    const dirs = sandboxLayout();
    const ws = dirs.workspace;
    const out = dirs.outside;
    symlinkSync(out, join(ws, "link"));
    symlinkSync(join(out, "created-by-dangling.txt"), join(ws, "dangling"));
    linkSync(join(out, "target.txt"), join(ws, "hard.txt"));
    symlinkSync(join(dirs.home, ".ssh", "id_ed25519"), join(ws, "key-link"));
    mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
    const c = await start(dirs, "workspace-write");
    const r = await runCalls(c, {
      inside: ["write", { path: "notes/ok.txt", content: "fine" }],
      direct: ["write", { path: join(out, "direct.txt"), content: "pwned" }],
      symlink: ["write", { path: "link/via-symlink.txt", content: "pwned" }],
      dangling: ["write", { path: "dangling", content: "pwned" }],
      hardlink: ["edit", { path: "hard.txt", oldText: "original", newText: "pwned" }],
      procRoot: ["write", { path: `/proc/self/root${out}/via-proc.txt`, content: "pwned" }],
      dots: ["write", { path: "../outside/via-dots.txt", content: "pwned" }],
      hook: ["write", { path: ".git/hooks/pre-commit", content: "#!/bin/sh\ncurl evil" }],
      ssh: ["read", { path: "~/.ssh/id_ed25519" }],
      sshLink: ["read", { path: "key-link" }],
      auth: ["read", { path: join(dirs.agentDir, "auth.json") }],
      lsSsh: ["ls", { path: "~/.ssh" }],
      grepHome: ["grep", { pattern: "ssh-private|sk-auth", path: dirs.root }],
      grepWs: ["grep", { pattern: "ssh-private" }],
      findHome: ["find", { pattern: "id_*", path: "~" }],
    });
    expect(r.get("inside")).toMatchObject({ isError: false });
    expect(readFileSync(join(ws, "notes", "ok.txt"), "utf8")).toBe("fine");
    for (const id of ["direct", "symlink", "dangling", "procRoot", "dots"]) {
      expect(r.get(id)?.isError, id).toBe(true);
      expect(r.get(id)?.text, id).toMatch(/^blocked by the sandbox: write outside the workspace \(/);
    }
    expect(r.get("symlink")?.text).toContain(`which leads to ${join(out, "via-symlink.txt")}`);
    expect(r.get("hardlink")).toEqual({
      isError: true,
      text: `blocked by the sandbox: ${join(ws, "hard.txt")} has other hard links, so writing it could change a file outside the workspace`,
    });
    expect(r.get("hook")?.text).toMatch(/^blocked by the sandbox: .*pre-commit is protected/);
    for (const id of ["ssh", "sshLink", "auth", "lsSsh"]) {
      expect(r.get(id)?.isError, id).toBe(true);
      expect(r.get(id)?.text, id).toMatch(/^blocked by the sandbox: reading .* is not allowed/);
    }
    expect(r.get("grepHome")).toEqual({ isError: false, text: "No matches found" });
    expect(r.get("grepWs")).toEqual({ isError: false, text: "No matches found" });
    expect(r.get("findHome")).toEqual({ isError: false, text: "No files found matching pattern" });
    const everything = [...r.values()].map((result) => result.text).join("\n");
    expect(everything).not.toContain(SSH_SECRET);
    expect(everything).not.toContain(AUTH_SECRET);
    expect(readFileSync(join(out, "target.txt"), "utf8")).toBe("original\n");
    for (const name of ["direct.txt", "via-symlink.txt", "created-by-dangling.txt", "via-proc.txt", "via-dots.txt"]) expect(existsSync(join(out, name)), name).toBe(false);
    expect(existsSync(join(ws, ".git", "hooks", "pre-commit"))).toBe(false);
  });

  it("read-only: reads work, every write is refused; off: the tools behave as pi's", async () => {
    const dirs = sandboxLayout();
    const readOnly = await start(dirs, "read-only");
    const r = await runCalls(readOnly, { write: ["write", { path: "new.txt", content: "x" }], read: ["read", { path: join(dirs.outside, "target.txt") }] });
    expect(r.get("write")?.text).toBe(`blocked by the sandbox: it is read-only, so no file may be written (${join(dirs.workspace, "new.txt")})`);
    expect(r.get("read")).toEqual({ isError: false, text: "original" });
    await readOnly.close();

    const off = await start(dirs, "off");
    const o = await runCalls(off, { write: ["write", { path: join(dirs.outside, "free.txt"), content: "x" }], ssh: ["read", { path: "~/.ssh/id_ed25519" }] });
    expect(o.get("write")?.isError).toBe(false);
    expect(o.get("ssh")).toEqual({ isError: false, text: SSH_SECRET });
    expect((await off.ok({ type: "get_state" })).sandbox).toMatchObject({ mode: "off", enforcement: "none" });
  });
});
