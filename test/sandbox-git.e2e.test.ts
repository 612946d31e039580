/**
 * Git under the sandbox (workspace-write, real bubblewrap, over the built CLI and the fake LLM):
 * a command may commit, but may not leave the user's git anything that runs code on the host
 * later: not by writing the config or hooks, not by moving `.git` aside and putting a copy with
 * its own config in its place, not through a submodule's git dir or its `.git` file, nor through a
 * linked worktree's `.git` file or git dirs. The host's git only reads the config here
 * (`git config --get`), which runs nothing.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { RpcClient } from "./helpers/rpc-client.js";
import { describeWithBwrap, sandboxLayout, type SandboxLayout } from "./helpers/sandbox.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) if (client.child.exitCode === null) await client.close();
});

const IDENTITY = ["-c", "user.name=Test", "-c", "user.email=test@example.com"];

/** Git on the host, as the user, with no system or global config of the machine's. */
function git(dirs: SandboxLayout, cwd: string, args: string[]): { status: number | null; stdout: string } {
  const env = { ...process.env, HOME: dirs.home, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
  const run = spawnSync("git", [...IDENTITY, "-c", "protocol.file.allow=always", ...args], { cwd, env, encoding: "utf8" });
  if (run.error) throw run.error;
  return { status: run.status, stdout: run.stdout };
}

function repo(dirs: SandboxLayout, dir: string): void {
  for (const args of [
    ["init", "-q", "-b", "main", dir],
    ["-C", dir, "commit", "-q", "--allow-empty", "-m", "first"],
  ])
    expect(git(dirs, dirs.root, args).status).toBe(0);
}

async function start(dirs: SandboxLayout): Promise<RpcClient> {
  await writeModelsJson(dirs.agentDir, fake.url);
  const client = new RpcClient({
    agentDir: dirs.agentDir,
    cwd: dirs.workspace,
    args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", "--sandbox", "workspace-write"],
    env: { HOME: dirs.home, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null", ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined },
  });
  clients.push(client);
  return client;
}

type End = { toolCallId: string; isError: boolean; result: { content: { type: string; text?: string }[] } };

/** One model turn running the commands one after the other (each may undo what the one before failed to do). */
async function runCommands(client: RpcClient, commands: Record<string, string>): Promise<Map<string, { isError: boolean; text: string }>> {
  const results = new Map<string, { isError: boolean; text: string }>();
  for (const [id, command] of Object.entries(commands)) {
    fake.script({ toolCalls: [{ id, name: "bash", args: { command } }] }, { text: "done" });
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "try" });
    await client.waitForEvent("agent_settled", 60_000, from);
    const end = client.records.slice(from).find((r) => r.type === "tool_execution_end") as unknown as End;
    results.set(id, { isError: end.isError, text: end.result.content.map((block) => block.text ?? "").join("") });
  }
  return results;
}

const fsmonitor = (dirs: SandboxLayout, gitDir: string) => git(dirs, dirs.root, ["--git-dir", gitDir, "config", "--get", "core.fsmonitor"]).stdout.trim();

describeWithBwrap("git under the sandbox (workspace-write)", () => {
  it("cannot swap .git for a copy whose config runs code on the host", async () => {
    const dirs = sandboxLayout();
    repo(dirs, dirs.workspace);
    const c = await start(dirs);
    const results = await runCommands(c, {
      config: 'git config core.fsmonitor "touch PWNED1"',
      rename: 'mv .git .git-old && mkdir .git && cp -a .git-old/. .git/ && git config core.fsmonitor "touch PWNED2"',
    });
    for (const id of ["config", "rename"]) expect(results.get(id)?.isError, id).toBe(true);
    expect(results.get("config")?.text).toContain("Device or resource busy");
    expect(results.get("rename")?.text).toMatch(/cannot move '\.git' to '\.git-old': Device or resource busy/);
    expect(results.get("rename")?.text).toContain(
      "blocked by the sandbox: git's hooks, config and .git files, .atomic and the agent's folder stay read-only, and a git dir cannot be moved or replaced",
    );
    expect(existsSync(join(dirs.workspace, ".git-old"))).toBe(false);
    expect(fsmonitor(dirs, join(dirs.workspace, ".git"))).toBe("");
    expect(git(dirs, dirs.workspace, ["log", "--format=%s"]).stdout).toBe("first\n");
  });

  it("still commits: the index, objects and refs stay writable", async () => {
    const dirs = sandboxLayout();
    repo(dirs, dirs.workspace);
    const c = await start(dirs);
    const results = await runCommands(c, {
      commit: `echo hello > hello.txt && git add hello.txt && git ${IDENTITY.join(" ")} commit -q -m "from the sandbox" && git log --format=%s`,
      branch: "git switch -q -c topic && git branch --show-current",
    });
    expect(results.get("commit")).toEqual({ isError: false, text: "from the sandbox\nfirst\n" });
    expect(results.get("branch")).toEqual({ isError: false, text: "topic\n" });
    expect(git(dirs, dirs.workspace, ["log", "main", "--format=%s"]).stdout).toBe("from the sandbox\nfirst\n");
  });

  it("a submodule's git dir and its .git file are protected the same way", async () => {
    const dirs = sandboxLayout();
    const library = join(dirs.outside, "library");
    repo(dirs, library);
    repo(dirs, dirs.workspace);
    expect(git(dirs, dirs.workspace, ["submodule", "add", "-q", library, "lib"]).status).toBe(0);
    const moduleDir = join(dirs.workspace, ".git", "modules", "lib");
    const dotGitFile = readFileSync(join(dirs.workspace, "lib", ".git"), "utf8");
    const c = await start(dirs);
    const results = await runCommands(c, {
      config: 'git -C lib config core.fsmonitor "touch PWNED1"',
      hook: "printf '#!/bin/sh\\ntouch PWNED2\\n' > .git/modules/lib/hooks/post-checkout",
      rename: 'mv .git/modules/lib .git/modules/lib-old && cp -a .git/modules/lib-old .git/modules/lib && git -C lib config core.fsmonitor "touch PWNED3"',
      redirect: `cp -a .git/modules/lib evil && git config --file evil/config core.fsmonitor "touch PWNED4" && echo "gitdir: ${dirs.workspace}/evil" > lib/.git`,
    });
    for (const id of ["config", "hook", "rename", "redirect"]) expect(results.get(id)?.isError, id).toBe(true);
    expect(results.get("config")?.text).toContain("Device or resource busy");
    expect(results.get("hook")?.text).toContain("Read-only file system");
    expect(results.get("rename")?.text).toContain("cannot move '.git/modules/lib' to '.git/modules/lib-old': Device or resource busy");
    expect(results.get("redirect")?.text).toMatch(/lib\/\.git: Read-only file system/);
    expect(fsmonitor(dirs, moduleDir)).toBe("");
    expect(existsSync(join(moduleDir, "hooks", "post-checkout"))).toBe(false);
    expect(readFileSync(join(dirs.workspace, "lib", ".git"), "utf8")).toBe(dotGitFile);
  });

  it("a linked worktree of a repository outside: its .git file and the git dirs it leads to stay read-only", async () => {
    const dirs = sandboxLayout();
    const main = join(dirs.outside, "main");
    repo(dirs, main);
    expect(git(dirs, main, ["worktree", "add", "-q", "-b", "topic", dirs.workspace]).status).toBe(0);
    const dotGitFile = readFileSync(join(dirs.workspace, ".git"), "utf8");
    const c = await start(dirs);
    const results = await runCommands(c, {
      gitDir: `touch ${main}/.git/worktrees/ws/planted`,
      common: `touch ${main}/.git/planted`,
      redirect: 'echo "gitdir: /nowhere" > .git',
      inside: "echo fine > notes.txt && git status --short",
    });
    for (const id of ["gitDir", "common", "redirect"]) expect(results.get(id)?.text, id).toContain("Read-only file system");
    expect(results.get("inside")).toEqual({ isError: false, text: "?? notes.txt\n" });
    expect(readFileSync(join(dirs.workspace, ".git"), "utf8")).toBe(dotGitFile);
    expect(existsSync(join(main, ".git", "planted"))).toBe(false);
  });
});
