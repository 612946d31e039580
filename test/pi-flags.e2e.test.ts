/**
 * pi 1.6's command line over the built CLI, so a wrapper written for pi starts Atomic: its
 * terminal-UI options are accepted and ignored with one stderr line; the tool selection flags,
 * `--session-id`, `--fork`, `--skill`, `--prompt-template` and `--no-context-files` work, each
 * checked where it lands (the fake LLM's request, get_state, get_entries, get_commands).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { withoutBuiltins } from "./helpers/commands.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const MODEL = ["--model", "fake-openai/fake-1"];

afterEach(async () => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) await c.close();
});

async function agentDirWithModels(): Promise<string> {
  const agentDir = tempDir("atomic-agent-");
  await writeModelsJson(agentDir, fake.url);
  return agentDir;
}

async function start(args: string[], options: { agentDir?: string; cwd?: string; settings?: Record<string, unknown> } = {}): Promise<RpcClient> {
  const agentDir = options.agentDir ?? (await agentDirWithModels());
  const client = new RpcClient({
    agentDir,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    args: ["--mode", "rpc", ...args],
    env: NO_KEYS,
    ...(options.settings ? { settings: options.settings } : {}),
  });
  clients.push(client);
  return client;
}

/** One prompt to the end of its run; the request the fake LLM received. */
async function promptOnce(c: RpcClient, message = "hi"): Promise<Record<string, any>> {
  fake.script({ text: "ok" });
  const from = c.records.length;
  expect(await c.request({ type: "prompt", message })).toMatchObject({ success: true, data: { disposition: "started" } });
  await c.waitForEvent("agent_settled", 10_000, from);
  return fake.requests.at(-1)!.body as Record<string, any>;
}

const toolNames = (body: Record<string, any>) => ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);

describe("pi's terminal-UI options", () => {
  it("are accepted and ignored with one stderr line, so pi wrappers (pi-acp passes --no-themes) start Atomic", async () => {
    const c = await start(["--no-session", ...MODEL, "--no-themes", "--theme", "./themes/dark.json", "--use-theme", "dark", "--tui-mode", "regular"]);
    expect(await c.ok({ type: "get_state" })).toMatchObject({ model: { id: "fake-1" } });
    const notice = "ignoring --no-themes, --theme, --use-theme, --tui-mode: pi's terminal-UI options have no effect in Atomic, which has no terminal UI";
    expect(c.stderr.split("\n").filter((line) => line.includes("terminal-UI"))).toEqual([`[atomic] warning: ${notice}`]);
  });
});

describe("tool selection (pi 1.6)", () => {
  it("offers pi's four tools by default; --tools names or +/- changes, --exclude-tools, --no-builtin-tools and the tools setting choose others", async () => {
    expect(toolNames(await promptOnce(await start(["--no-session", ...MODEL])))).toEqual(["read", "edit", "write", "bash"]);
    expect(toolNames(await promptOnce(await start(["--no-session", ...MODEL, "-t", "+grep,-write"])))).toEqual(["read", "edit", "grep", "bash"]);
    expect(toolNames(await promptOnce(await start(["--no-session", ...MODEL, "--tools", "read,*s", "--exclude-tools", "l*"])))).toEqual(["read"]);
    expect(toolNames(await promptOnce(await start(["--no-session", ...MODEL, "-xt", "bash,edit"])))).toEqual(["read", "write"]);
    expect(toolNames(await promptOnce(await start(["--no-session", ...MODEL, "--no-builtin-tools"])))).toEqual([]);
    expect(toolNames(await promptOnce(await start(["--no-session", ...MODEL], { settings: { tools: ["read", "grep", "find", "ls"] } })))).toEqual(["read", "grep", "find", "ls"]);
  });

  it("a --tools list mixing names with +/- entries exits 2 saying so", async () => {
    const agentDir = await agentDirWithModels();
    const run = await runCli(["--mode", "rpc", ...MODEL, "--tools", "read,+grep"], { agentDir, cwd: tempDir("atomic-cwd-"), env: NO_KEYS });
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toBe("atomic: --tools mixes tool names with +name/-name entries: use names (the whole selection) or +name/-name (changes to the defaults), not both\n");
  });
});

describe("--session-id and --fork", () => {
  it("--session-id names a new session (its file carries the id), then reopens that session of this folder", async () => {
    const agentDir = await agentDirWithModels();
    const cwd = tempDir("atomic-cwd-");
    const first = await start([...MODEL, "--session-id", "review.2026-1"], { agentDir, cwd });
    expect(await first.ok({ type: "get_state" })).toMatchObject({ sessionId: "review.2026-1", messageCount: 0 });
    expect(first.stderr).toContain('No session of this folder has the id "review.2026-1": starting a new session with it.');
    await promptOnce(first);
    const file = (await first.ok({ type: "get_state" })).sessionFile as string;
    expect(file.endsWith("_review.2026-1.jsonl")).toBe(true);
    await first.close();

    const again = await start([...MODEL, "--session-id", "review.2026-1"], { agentDir, cwd });
    expect(await again.ok({ type: "get_state" })).toMatchObject({ sessionId: "review.2026-1", sessionFile: file, messageCount: 2 });
  });

  it("--session-id checks the id, and neither flag goes with --session, --continue or --resume (nor --fork with --no-session)", async () => {
    const agentDir = await agentDirWithModels();
    const cwd = tempDir("atomic-cwd-");
    const usage = async (args: string[], message: string) =>
      expect(await runCli(["--mode", "rpc", ...MODEL, ...args], { agentDir, cwd, env: NO_KEYS })).toMatchObject({ code: 2, stdout: "", stderr: `atomic: ${message}\n` });
    await usage(["--session-id", "two words"], 'Invalid --session-id "two words": use letters, digits, ".", "_" and "-", starting and ending with a letter or digit');
    await usage(["--session-id", "a", "--continue"], "Options --session-id and --continue cannot be used together");
    await usage(["--fork", "x.jsonl", "--no-session"], "Options --fork and --no-session cannot be used together");
    await usage(["--fork", "x.jsonl", "--resume"], "Options --fork and --resume cannot be used together");
    await usage(["--fork", "missing.jsonl"], `Session file not found: ${join(cwd, "missing.jsonl")} (--fork)`);
  });

  it("--fork copies every entry of a session into a new session of this folder whose parent it is; with --session-id it gets that id", async () => {
    const agentDir = await agentDirWithModels();
    const source = await start([...MODEL], { agentDir });
    await promptOnce(source, "remember the number 7");
    const { sessionFile, sessionId } = await source.ok({ type: "get_state" });
    const { entries } = await source.ok({ type: "get_entries" });
    await source.close();

    const cwd = tempDir("atomic-cwd-");
    const fork = await start([...MODEL, "--fork", sessionFile, "--session-id", "forked-1"], { agentDir, cwd });
    const state = await fork.ok({ type: "get_state" });
    expect(state).toMatchObject({ sessionId: "forked-1", messageCount: 2 });
    expect(state.sessionFile).not.toBe(sessionFile);
    expect((await fork.ok({ type: "get_entries" })).entries).toEqual(entries);
    const body = await promptOnce(fork, "which number?");
    expect(JSON.stringify(body.messages)).toContain("remember the number 7");
    const header = JSON.parse(readFileSync(state.sessionFile, "utf8").split("\n")[0]!);
    expect(header).toMatchObject({ type: "session", id: "forked-1", cwd, parentSession: sessionFile });
    expect(header.id).not.toBe(sessionId);
    // The source is untouched.
    expect(readFileSync(sessionFile, "utf8").split("\n").filter(Boolean)).toHaveLength(1 + entries.length);
  });
});

describe("--skill, --prompt-template, --no-context-files", () => {
  it("--skill and --prompt-template load paths for this run (sourceInfo: cli, temporary), also with --no-skills / -np", async () => {
    const agentDir = await agentDirWithModels();
    const extra = tempDir("atomic-resources-");
    mkdirSync(join(extra, "lint"), { recursive: true });
    writeFileSync(join(extra, "lint", "SKILL.md"), "---\nname: lint\ndescription: Lint the project\n---\nRun the linter.\n");
    writeFileSync(join(extra, "review.md"), "---\ndescription: Review a change\n---\nReview $1 carefully.\n");
    mkdirSync(join(agentDir, "skills", "user-skill"), { recursive: true });
    writeFileSync(join(agentDir, "skills", "user-skill", "SKILL.md"), "---\nname: user-skill\ndescription: From the agent dir\n---\nBody.\n");
    mkdirSync(join(agentDir, "prompts"), { recursive: true });
    writeFileSync(join(agentDir, "prompts", "user-prompt.md"), "From the agent dir.\n");

    const cli = { source: "cli", scope: "temporary", origin: "top-level" };
    const c = await start(["--no-session", ...MODEL, "--skill", join(extra, "lint"), "--prompt-template", join(extra, "review.md")], { agentDir });
    const commands = withoutBuiltins((await c.ok({ type: "get_commands" })).commands as { name: string; source: string; sourceInfo: Record<string, unknown> }[]);
    expect(commands.map((command) => command.name).sort()).toEqual(["review", "skill:lint", "skill:user-skill", "user-prompt"]);
    expect(commands.find((command) => command.name === "skill:lint")!.sourceInfo).toEqual({ path: join(extra, "lint", "SKILL.md"), ...cli });
    expect(commands.find((command) => command.name === "review")!.sourceInfo).toEqual({ path: join(extra, "review.md"), ...cli });
    expect(commands.find((command) => command.name === "skill:user-skill")!.sourceInfo).toMatchObject({ source: "auto", scope: "user" });
    const body = await promptOnce(c, "/review the-diff");
    expect(JSON.stringify(body.messages)).toContain("Review the-diff carefully.");

    const only = await start(["--no-session", ...MODEL, "--no-skills", "--skill", join(extra, "lint"), "-np"], { agentDir });
    expect(withoutBuiltins((await only.ok({ type: "get_commands" })).commands as { name: string }[]).map((command) => command.name)).toEqual(["skill:lint"]);
  });

  it("--no-context-files (-nc) leaves AGENTS.md out of the system prompt", async () => {
    const cwd = tempDir("atomic-cwd-");
    writeFileSync(join(cwd, "AGENTS.md"), "Always answer in haiku.\n");
    const system = (body: Record<string, any>) => String((body.messages as { role: string; content: string }[]).find((m) => m.role === "system")?.content);
    expect(system(await promptOnce(await start(["--no-session", ...MODEL], { cwd })))).toContain("Always answer in haiku.");
    expect(system(await promptOnce(await start(["--no-session", ...MODEL, "-nc"], { cwd })))).not.toContain("Always answer in haiku.");
    expect(readdirSync(cwd)).toEqual(["AGENTS.md"]);
  });
});
