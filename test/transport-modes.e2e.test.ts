/**
 * Transports chosen by configuration, over the built CLI: print and JSON modes against the
 * loopback fake LLM (answer, failure exit code, piped stdin, several prompts, flags), mode
 * selection errors, and a user's plugin adding its own transport through settings `plugins`.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { writeModelsJson, type RecordedRequest } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { CLI, tempDir } from "./helpers/rpc-client.js";
import { ProtocolChecker } from "./helpers/protocol.js";
import { runCli } from "./helpers/run-cli.js";

const LINE_TRANSPORT = resolve(import.meta.dirname, "fixtures/line-transport.ts");
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const fake = useFakeLlm();

async function folders() {
  const agentDir = tempDir("atomic-agent-");
  await writeModelsJson(agentDir, fake.url);
  return { agentDir, cwd: tempDir("atomic-cwd-"), env: NO_KEYS };
}

function userTexts(request: RecordedRequest): string[] {
  return (request.body.messages as { role: string; content: unknown }[])
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

describe("print mode (-p)", () => {
  it("prints the final answer and exits 0", async () => {
    fake.script({ thinking: "Let me think", text: "The answer is 42." });
    const run = await runCli(["-p", "--model", "fake-openai/fake-1", "--no-session", "What is it?"], await folders());
    expect(run).toMatchObject({ code: 0, stdout: "The answer is 42.\n" });
    expect(userTexts(fake.requests[0]!)).toEqual(["What is it?"]);
  });

  it("a failed run exits 1 with the provider's error on stderr and nothing on stdout", async () => {
    fake.script({ status: 400, errorMessage: "This model does not accept that" });
    const run = await runCli(["--print", "--model", "fake-anthropic/fake-1", "--no-session", "hi"], await folders());
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("This model does not accept that");
  });

  it("a refused prompt (no model) exits 1 with the reason", async () => {
    // No models.json and no keys: no provider has credentials.
    const run = await runCli(["-p", "--no-session", "hi"], { agentDir: tempDir("atomic-agent-"), cwd: tempDir("atomic-cwd-"), env: NO_KEYS });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/atomic: No model selected\./);
  });

  it("piped stdin goes before the first prompt; later prompts follow in order, each after the agent settled", async () => {
    fake.script({ text: "first" }, { text: "second" });
    const run = await runCli(["-p", "--model", "fake-openai/fake-1", "--no-session", "Summarise it.", "Now shorter."], { ...(await folders()), input: "line one\nline two\n" });
    expect(run).toMatchObject({ code: 0, stdout: "second\n" });
    expect(fake.requests).toHaveLength(2);
    expect(userTexts(fake.requests[1]!)).toEqual(["line one\nline two\n\nSummarise it.", "Now shorter."]);
  });

  it("stdin alone is the prompt; no prompt and nothing piped is a usage error (exit 2)", async () => {
    fake.script({ text: "from stdin" });
    expect(await runCli(["-p", "--model", "fake-openai/fake-1", "--no-session"], { ...(await folders()), input: "question on stdin" })).toMatchObject({
      code: 0,
      stdout: "from stdin\n",
    });
    const run = await runCli(["-p", "--model", "fake-openai/fake-1", "--no-session"], await folders());
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('atomic -p needs a prompt: give it as an argument (atomic -p "your prompt") or pipe it on stdin');
  });

  it("a prompt an extension command handles (no run, so nothing settles) goes on to the next prompt", async () => {
    const extension = join(tempDir("atomic-ext-"), "note.js");
    writeFileSync(extension, `export default function (pi) { pi.registerCommand("note", { handler: async () => undefined }); }\n`);
    fake.script({ text: "after the command" });
    const run = await runCli(["-p", "--model", "fake-openai/fake-1", "--no-session", "-e", extension, "/note", "then this"], { ...(await folders()), timeoutMs: 15_000 });
    expect(run).toMatchObject({ code: 0, stdout: "after the command\n" });
    expect(fake.requests).toHaveLength(1);
  });

  it("honours --session-dir: the session is written there", async () => {
    fake.script({ text: "saved" });
    const sessionDir = tempDir("atomic-sessions-");
    const run = await runCli(["-p", "--model", "fake-openai/fake-1", "--session-dir", sessionDir, "keep this"], await folders());
    expect(run.code).toBe(0);
    const files = readdirSync(sessionDir);
    expect(files).toHaveLength(1);
    expect(readFileSync(join(sessionDir, files[0]!), "utf8")).toContain("keep this");
  });
});

describe("JSON mode (--mode json)", () => {
  it("writes the session header first, then every event in RPC's shapes, and exits once settled", async () => {
    fake.script({ toolCalls: [{ name: "bash", args: { command: "echo from-tool" } }] }, { text: "Done." });
    const sessionDir = tempDir("atomic-sessions-");
    const run = await runCli(["--mode", "json", "--model", "fake-openai/fake-1", "--session-dir", sessionDir, "run it"], await folders());
    expect(run.code).toBe(0);
    const records = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    const [header, ...events] = records;
    const stored = readFileSync(join(sessionDir, readdirSync(sessionDir)[0]!), "utf8").split("\n")[0]!;
    expect(header).toEqual(JSON.parse(stored));
    expect(header).toMatchObject({ type: "session", version: expect.any(Number), id: expect.any(String), cwd: expect.any(String) });
    const types = events.map((e) => e.type);
    expect(types[0]).toBe("agent_start");
    expect(types.slice(-2)).toEqual(["agent_end", "agent_settled"]);
    expect(types).toEqual(expect.arrayContaining(["message_update", "tool_execution_start", "tool_execution_end", "turn_end"]));
    const checker = new ProtocolChecker(CLI, []);
    expect(events.map((event) => checker.checkIncoming(event)).filter(Boolean)).toEqual([]);
  });

  it("a failed run still writes its events, then exits 1 with the error on stderr", async () => {
    fake.script({ status: 400, errorMessage: "Nope" });
    const run = await runCli(["--mode", "json", "--model", "fake-openai/fake-1", "--no-session", "hi"], await folders());
    expect(run.code).toBe(1);
    expect(
      run.stdout
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as { type: string }).type)
        .slice(-2),
    ).toEqual(["agent_end", "agent_settled"]);
    expect(run.stderr).toContain("Nope");
  });
});

describe("choosing a transport", () => {
  it("an unknown mode is a usage error listing the available ones (exit 2), from the flag or from settings", async () => {
    const byFlag = await runCli(["--mode", "telepathy"], await folders());
    expect(byFlag.code).toBe(2);
    expect(byFlag.stderr).toContain('atomic: Unknown mode "telepathy". Available: rpc, print, json, acp');
    expect(byFlag.stderr).not.toMatch(/\n\s+at /);
    const bySettings = await runCli([], { ...(await folders()), settings: { mode: "telepathy" } });
    expect(bySettings.code).toBe(2);
    expect(bySettings.stderr).toContain('Unknown mode "telepathy"');
  });

  it("positional arguments in rpc or acp mode are a usage error that shows the -p command", async () => {
    for (const mode of ["rpc", "acp"]) {
      const run = await runCli(["--mode", mode, "hello"], await folders());
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(
        `atomic: Unexpected argument "hello": --mode ${mode} reads commands on stdin, not prompts as arguments. To answer it and exit, use print mode: atomic -p hello\n`,
      );
    }
    const bare = await runCli(["do X", "now"], await folders());
    expect(bare).toMatchObject({ code: 2, stdout: "" });
    expect(bare.stderr).toContain('use print mode: atomic -p "do X" now\n');
    const quoted = await runCli(["it's $5"], await folders());
    expect(quoted.stderr).toContain(`atomic -p 'it'\\''s $5'`);
    // A slip of a subcommand's name is most likely that subcommand; "help" is --help.
    expect(await runCli(["confg"], await folders())).toMatchObject({
      code: 2,
      stderr: 'atomic: Unexpected argument "confg": did you mean atomic config? For a prompt, use print mode: atomic -p confg\n',
    });
    expect((await runCli(["instal", "npm:foo"], await folders())).stderr).toContain("did you mean atomic install? For a prompt, use print mode: atomic -p instal npm:foo\n");
    expect((await runCli(["help"], await folders())).stderr).toBe('atomic: Unexpected argument "help": for the modes, flags and subcommands, run atomic --help\n');
  });

  it("a user's plugin adds a transport under its own name, chosen by --mode or settings `mode`", async () => {
    const base = await folders();
    const settings = { plugins: [LINE_TRANSPORT] };
    expect(await runCli(["--mode", "lines"], { ...base, settings, input: "get_state\nno_such\n" })).toMatchObject({ code: 0, stdout: "get_state ok\nno_such error\n" });
    expect(await runCli([], { ...base, settings: { ...settings, mode: "lines" }, input: "get_commands\n" })).toMatchObject({ code: 0, stdout: "get_commands ok\n" });
    const unknown = await runCli(["--mode", "line"], { ...base, settings });
    expect(unknown.stderr).toContain("Available: rpc, print, json, acp, serve, lines");
  });
});
