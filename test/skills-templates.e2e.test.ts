/**
 * Skills, prompt templates and extension commands over the built CLI and the loopback fake LLM:
 * what the model receives is the expanded text (templates with quoted arguments, a skill with
 * arguments), an unknown /word is sent as typed, `/skill:` naming no skill is an error, a queued
 * template is stored expanded, the system prompt lists skills, get_commands covers all three
 * sources, and files added while the agent runs are picked up.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson, type RecordedRequest } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";
import { withoutBuiltins } from "./helpers/commands.js";

const PROBE = resolve(import.meta.dirname, "fixtures/extension-commands.ts");
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const fake = useFakeLlm();
const clients: RpcClient[] = [];

afterEach(async () => {
  for (const c of clients.splice(0)) {
    if (c.child.exitCode === null) c.child.kill("SIGKILL");
    await c.exited;
    for (const dir of [c.agentDir, c.cwd]) rmSync(dir, { recursive: true, force: true });
  }
});

function write(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

async function start(setup: (dirs: { agentDir: string; cwd: string }) => void = () => {}, settings: Record<string, unknown> = {}, args = ["--no-session"]): Promise<RpcClient> {
  const agentDir = tempDir();
  const cwd = tempDir("atomic-cwd-");
  await writeModelsJson(agentDir, fake.url);
  setup({ agentDir, cwd });
  const client = new RpcClient({ agentDir, cwd, settings, env: NO_KEYS, args: ["--mode", "rpc", ...args, "--model", "fake-openai/fake-1"] });
  clients.push(client);
  return client;
}

type WireMessage = { role: string; content: string | { type: string; text?: string }[] };
const textOf = (message: WireMessage) => (typeof message.content === "string" ? message.content : message.content.map((part) => part.text ?? "").join(""));
const userTexts = (request: RecordedRequest) => (request.body.messages as WireMessage[]).filter((m) => m.role === "user").map(textOf);
const systemText = (request: RecordedRequest) => textOf((request.body.messages as WireMessage[])[0]!);

async function promptAndSettle(c: RpcClient, message: string): Promise<void> {
  const from = c.records.length;
  const response = await c.request({ type: "prompt", message });
  if (!response.success) throw new Error(`prompt rejected: ${String(response.error)}`);
  await c.waitForEvent("agent_end", 10_000, from);
}

const REVIEW = "---\ndescription: Review a file\n---\nReview $1 with a focus on $2.\nEverything: $ARGUMENTS";
const DEPLOY = "---\nname: deploy\ndescription: Deploy the app to an environment\n---\n# Deploy\n\nRun ./deploy.sh <env>.\n";

describe("input expansion seen by the model", () => {
  it("a template with quoted arguments, a skill with arguments, an unknown /word as typed", async () => {
    let skillPath = "";
    const c = await start(({ agentDir, cwd }) => {
      write(join(cwd, ".atomic", "prompts", "review.md"), REVIEW);
      skillPath = write(join(agentDir, "skills", "deploy", "SKILL.md"), DEPLOY);
    });
    await promptAndSettle(c, "/review src/app.ts \"error handling\" 'and logs'");
    await promptAndSettle(c, "/skill:deploy to staging, then smoke-test");
    await promptAndSettle(c, "/nope is not a command");
    await promptAndSettle(c, "/etc/hosts looks odd");

    expect(fake.requests).toHaveLength(4);
    const sent = userTexts(fake.requests[3]!);
    expect(sent[0]).toBe("Review src/app.ts with a focus on error handling.\nEverything: src/app.ts error handling and logs");
    expect(sent[1]).toBe(
      `<skill name="deploy" location="${skillPath}">\nReferences are relative to ${join(skillPath, "..")}.\n\n# Deploy\n\nRun ./deploy.sh <env>.\n</skill>\n\nto staging, then smoke-test`,
    );
    expect(sent.slice(2)).toEqual(["/nope is not a command", "/etc/hosts looks odd"]);
    expect(c.stderr).not.toMatch(/Skipped|failed/);
  });

  it("the system prompt lists the skills, with the path the model can read", async () => {
    let skillPath = "";
    const c = await start(({ agentDir }) => {
      skillPath = write(join(agentDir, "skills", "deploy", "SKILL.md"), DEPLOY);
      write(join(agentDir, "skills", "hidden", "SKILL.md"), "---\nname: hidden\ndescription: Only by command\ndisable-model-invocation: true\n---\nx");
    });
    await promptAndSettle(c, "hi");
    const system = systemText(fake.requests[0]!);
    expect(system).toContain(
      `<skill>\n    <name>deploy</name>\n    <description>Deploy the app to an environment</description>\n    <location>${skillPath}</location>\n  </skill>`,
    );
    expect(system).not.toContain("hidden");
    expect(system.indexOf("<available_skills>")).toBeLessThan(system.indexOf("Current working directory:"));
  });

  it("a queued template is stored expanded: queue_update shows it, and the next request carries it", async () => {
    const c = await start(({ cwd }) => write(join(cwd, ".atomic", "prompts", "review.md"), REVIEW));
    fake.script({ text: "one two three four five", stall: 2 }, { text: "done" });
    await c.request({ type: "prompt", message: "start" });
    await c.waitForEvent("message_update");
    const expanded = "Review a.ts with a focus on speed.\nEverything: a.ts speed";
    const from = c.records.length;
    expect(await c.request({ type: "follow_up", message: "/review a.ts speed" })).toMatchObject({ success: true });
    expect(c.records.slice(from).find((r) => r.type === "queue_update")).toEqual({ type: "queue_update", steering: [], followUp: [expanded] });
    expect(await c.request({ type: "prompt", message: "/review b.ts size", streamingBehavior: "steer" })).toMatchObject({ success: true });
    await c.request({ type: "abort" });
    await promptAndSettle(c, "next");
    // Queued messages go out in arrival order, before the new prompt.
    expect(userTexts(fake.requests.at(-1)!).slice(1)).toEqual([expanded, "Review b.ts with a focus on size.\nEverything: b.ts size", "next"]);
  });
});

describe("/skill: naming no skill", () => {
  it("is the prompt's, steer's and follow_up's error naming the skill meant; nothing reaches the model or the session", async () => {
    const c = await start(({ agentDir }) => write(join(agentDir, "skills", "brave-search", "SKILL.md"), DEPLOY.replace("name: deploy", "name: brave-search")), {}, []);
    expect(await c.request({ type: "prompt", message: "/skill:brave-serch the web" })).toEqual({
      id: expect.any(String),
      type: "response",
      command: "prompt",
      success: false,
      error: 'Unknown skill "brave-serch". Did you mean "brave-search"?',
    });
    const available = 'Unknown skill "nosuch". Available skills: brave-search.';
    expect(await c.request({ type: "steer", message: "/skill:nosuch" })).toMatchObject({ command: "steer", success: false, error: available });
    expect(await c.request({ type: "follow_up", message: "/skill:nosuch" })).toMatchObject({ command: "follow_up", success: false, error: available });
    expect(await c.request({ type: "get_messages" })).toMatchObject({ success: true, data: { messages: [] } });
    expect(fake.requests).toHaveLength(0);

    // Only a prompt that starts with /skill: invokes one.
    await promptAndSettle(c, "what would /skill:nosuch do?");
    expect(userTexts(fake.requests[0]!)).toEqual(["what would /skill:nosuch do?"]);
    const { sessionFile } = (await c.request({ type: "get_state" })).data as { sessionFile: string };
    expect(readFileSync(sessionFile, "utf8")).not.toMatch(/brave-serch|"\/skill:nosuch"/);
  });

  it("without skills, the error says none is loaded, or that --no-skills turned them off", async () => {
    const none = await start();
    expect(await none.request({ type: "prompt", message: "/skill:nosuch" })).toMatchObject({
      success: false,
      error: 'Unknown skill "nosuch". No skills are loaded (see get_commands).',
    });
    const off = await start(({ agentDir }) => write(join(agentDir, "skills", "deploy", "SKILL.md"), DEPLOY), {}, ["--no-session", "--no-skills"]);
    expect(await off.request({ type: "prompt", message: "/skill:deploy" })).toMatchObject({
      success: false,
      error: 'Unknown skill "deploy". Skills are off for this run (--no-skills): only --skill paths load.',
    });
    expect(fake.requests).toHaveLength(0);
  });

  it("print mode exits non-zero with the error on stderr, sending nothing", async () => {
    const agentDir = tempDir();
    const cwd = tempDir("atomic-cwd-");
    await writeModelsJson(agentDir, fake.url);
    const run = await runCli(["-p", "/skill:nosuch", "--no-session", "--model", "fake-openai/fake-1"], { agentDir, cwd, env: NO_KEYS });
    expect(run.stderr).toContain('Unknown skill "nosuch". No skills are loaded (see get_commands).');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(fake.requests).toHaveLength(0);
    rmSync(agentDir, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  });
});

describe("get_commands and extension commands", () => {
  it("lists all three sources; an extension command runs during streaming and cannot be queued", async () => {
    let template = "";
    let skill = "";
    const c = await start(
      ({ agentDir, cwd }) => {
        template = write(join(cwd, ".atomic", "prompts", "fix-tests.md"), "---\ndescription: Fix failing tests\n---\nFix the tests");
        skill = write(join(agentDir, "skills", "brave-search", "SKILL.md"), "---\nname: brave-search\ndescription: Web search via Brave API\n---\nSearch.");
      },
      { plugins: [PROBE] },
    );
    expect({ commands: withoutBuiltins((await c.ok({ type: "get_commands" })).commands) }).toEqual({
      commands: [
        // A plugin's provider gives no sourceInfo: derived (no location: named for this run).
        {
          name: "hello",
          description: "Say hello",
          source: "extension",
          path: "/extensions/probe.ts",
          sourceInfo: { path: "/extensions/probe.ts", source: "local", scope: "temporary", origin: "top-level" },
        },
        { name: "boom", source: "extension", path: "/extensions/probe.ts", sourceInfo: { path: "/extensions/probe.ts", source: "local", scope: "temporary", origin: "top-level" } },
        {
          name: "fix-tests",
          description: "Fix failing tests",
          source: "prompt",
          location: "project",
          path: template,
          sourceInfo: { path: template, source: "auto", scope: "project", origin: "top-level" },
        },
        {
          name: "skill:brave-search",
          description: "Web search via Brave API",
          source: "skill",
          location: "user",
          path: skill,
          sourceInfo: { path: skill, source: "auto", scope: "user", origin: "top-level" },
        },
      ],
    });

    fake.script({ text: "streaming slowly", stall: 2 });
    await c.request({ type: "prompt", message: "start" });
    await c.waitForEvent("message_update");
    expect(await c.request({ type: "prompt", message: "/hello there" })).toMatchObject({ success: true });
    const refusal = 'Extension command "/hello" cannot be queued. Use prompt() or execute the command when not streaming.';
    expect(await c.request({ type: "steer", message: "/hello" })).toMatchObject({ success: false, error: refusal });
    expect(await c.request({ type: "follow_up", message: "/hello x" })).toMatchObject({ success: false, error: refusal });
    const from = c.records.length;
    expect(await c.request({ type: "prompt", message: "/boom" })).toMatchObject({ success: true });
    expect(c.records.slice(from).find((r) => r.type === "extension_error")).toEqual({
      type: "extension_error",
      extensionPath: "/extensions/probe.ts",
      event: "command",
      error: "the command failed",
    });
    expect(await c.ok({ type: "extension_commands_log" })).toEqual({ calls: [{ args: "there", via: "prompt", streaming: true }] });
    expect((await c.ok({ type: "get_state" })).pendingMessageCount).toBe(0);
    await c.request({ type: "abort" });
    expect(fake.requests).toHaveLength(1);
  });
});

describe("changes on disk and bad files", () => {
  it("a template and a skill added while the agent runs are used without a restart", async () => {
    let agentDir = "";
    let cwd = "";
    const c = await start((dirs) => ({ agentDir, cwd } = dirs));
    expect(withoutBuiltins((await c.ok({ type: "get_commands" })).commands)).toEqual([]);
    await promptAndSettle(c, "/late one");
    write(join(cwd, ".atomic", "prompts", "late.md"), "Late template got $1");
    write(join(agentDir, "skills", "new-skill", "SKILL.md"), "---\nname: new-skill\ndescription: Added later\n---\nNew.");
    expect(withoutBuiltins((await c.ok({ type: "get_commands" })).commands).map((e: { name: string }) => e.name)).toEqual(["late", "skill:new-skill"]);
    await promptAndSettle(c, "/late two");
    expect(userTexts(fake.requests[1]!)).toEqual(["/late one", "Late template got two"]);
    expect(systemText(fake.requests[1]!)).toContain("<name>new-skill</name>");
    expect(systemText(fake.requests[0]!)).not.toContain("available_skills");
  });

  it("bad files are reported once each on stderr and skipped; the agent keeps serving", async () => {
    let cwd = "";
    const c = await start((dirs) => {
      cwd = dirs.cwd;
      write(join(cwd, ".atomic", "prompts", "huge.md"), "x".repeat(1024 * 1024));
      write(join(cwd, ".atomic", "prompts", "ok.md"), "fine $1");
      write(join(cwd, ".atomic", "skills", "binary", "SKILL.md"), "\u0000ELF");
      write(join(cwd, ".atomic", "skills", "nofm", "SKILL.md"), "No frontmatter here");
    });
    for (let i = 0; i < 3; i++) await c.ok({ type: "get_commands" });
    await promptAndSettle(c, "/ok yes");
    expect(withoutBuiltins((await c.ok({ type: "get_commands" })).commands).map((e: { name: string }) => e.name)).toEqual(["ok"]);
    const lines = c.stderr.split("\n").filter((line) => line.includes("Skipped"));
    expect(lines.sort()).toEqual(
      [
        `[atomic] warning: Skipped prompt template ${join(cwd, ".atomic", "prompts", "huge.md")}: too large (1048576 bytes; the limit is 262144)`,
        `[atomic] warning: Skipped skill ${join(cwd, ".atomic", "skills", "binary", "SKILL.md")}: a binary file (it contains NUL bytes)`,
        `[atomic] warning: Skipped skill ${join(cwd, ".atomic", "skills", "nofm", "SKILL.md")}: no frontmatter (it must start with a --- block holding name and description)`,
      ].sort(),
    );
    expect(userTexts(fake.requests[0]!)).toEqual(["fine yes"]);
  });
});
