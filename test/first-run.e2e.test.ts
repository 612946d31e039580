/**
 * The first ten minutes, over the built CLI: what a person trying Atomic in a terminal meets. A
 * bare `atomic` on a terminal says what it waits for; a prompt as an argument gets the `-p`
 * command; piping a report into `head` ends quietly; `auth set` and `config --help` say what they
 * need; print mode names what Atomic has (`--model`, not pi's `/model` or RPC's `set_model`),
 * shows each retry on stderr and the server a connection error was about; a misspelt model gets
 * the model meant.
 */
import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { NODE } from "./helpers/node.js";
import { CLI, tempDir } from "./helpers/rpc-client.js";
import { runCli } from "./helpers/run-cli.js";

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const hasPython = spawnSync("python3", ["--version"]).status === 0;
const folders = () => ({ agentDir: tempDir("atomic-agent-"), cwd: tempDir("atomic-cwd-"), env: NO_KEYS });

/** Runs the CLI on a pseudo-terminal (python3's pty): what it printed before input, then after Ctrl-D, and its exit code. */
function onTerminal(args: string[], agentDir: string): Promise<{ before: string; code: number }> {
  const script = `
import json, os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], sys.argv[1:])
out = b""
deadline = time.time() + 15
while b"Ctrl-D" not in out and time.time() < deadline:
    if select.select([fd], [], [], 0.2)[0]:
        try:
            out += os.read(fd, 4096)
        except OSError:
            break
os.write(fd, b"\\x04")
while True:
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        break
    if not chunk:
        break
_, status = os.waitpid(pid, 0)
print(json.dumps({"before": out.decode("utf-8", "replace"), "code": os.waitstatus_to_exitcode(status)}))
`;
  return new Promise((resolve, reject) => {
    const child = spawn("python3", ["-c", script, NODE, CLI, ...args], { env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir }, stdio: ["ignore", "pipe", "inherit"] });
    let stdout = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.once("error", reject);
    child.once("close", () => resolve(JSON.parse(stdout) as { before: string; code: number }));
  });
}

/** Runs the CLI and closes the read end of its stdout after the first chunk, as `| head -1` does. */
function readFirstChunkOnly(args: string[], agentDir: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(NODE, [CLI, ...args], { env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once("data", () => child.stdout.destroy());
    child.once("close", (code) => resolve({ code, stderr }));
  });
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("a person at a terminal", () => {
  it.skipIf(!hasPython)(
    "a bare `atomic` says what it is waiting for and how to get an answer, then ends on Ctrl-D",
    async () => {
      const run = await onTerminal([], tempDir("atomic-agent-"));
      expect(run.before).toContain("atomic: serving --mode rpc: JSON lines on stdin/stdout (the RPC protocol). Waiting for input on this terminal; Ctrl-D ends it.");
      expect(run.before).toContain('For one answer: atomic -p "your prompt"');
      expect(run.code).toBe(0);
    },
    30_000,
  );

  it("from a pipe it stays silent (a program is driving it)", async () => {
    const run = await runCli(["--mode", "rpc"], folders());
    expect(run).toMatchObject({ code: 0, stdout: "", stderr: "" });
  });

  it("a report read by `head` ends quietly, without an EPIPE stack", async () => {
    for (const args of [["schema"], ["--list-models"], ["--help"]]) {
      const run = await readFirstChunkOnly(args, tempDir("atomic-agent-"));
      expect(run.stderr, args.join(" ")).toBe("");
      expect(run.code, args.join(" ")).toBe(0);
    }
  });

  it("`atomic auth set` without a provider says what is missing; `atomic config --help` prints help", async () => {
    const set = await runCli(["auth", "set"], folders());
    expect(set.code).toBe(2);
    expect(set.stderr).toMatch(/^atomic auth set needs a provider name, for example: atomic auth set anthropic\. Known providers: anthropic, openai, google\b[^\n]*\.\nUsage:/);
    const unknown = await runCli(["auth", "frob"], folders());
    expect(unknown.stderr).toMatch(/^Unknown auth command: frob\. The commands are set, clear and list\./);
    for (const flag of ["--help", "-h"]) {
      const help = await runCli(["config", flag], folders());
      expect(help).toMatchObject({ code: 0, stderr: "" });
      expect(help.stdout).toMatch(/^Usage: atomic config \[options\]\n/);
      expect(help.stdout).not.toContain("Agent dir:");
    }
  });
});

describe("print mode names what Atomic has", () => {
  it("no model: how to pass one and where keys come from, never set_model or /model", async () => {
    const run = await runCli(["-p", "hi"], folders());
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "atomic: No model selected. Pass --model <provider/id> (atomic --list-models shows them). No provider has an API key: set ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or run `atomic auth set <provider>`; `--provider replay --model demo` runs the offline demo.\n",
    );
  });

  it("an unsupported saved default: the settings to fix or the flag to pass; RPC keeps the protocol's exact text", async () => {
    const settings = { defaultProvider: "gone", defaultModel: "m" };
    const print = await runCli(["-p", "hi"], { ...folders(), settings });
    // The startup warning names the provider (what `atomic config` reports), then the prompt's error.
    expect(print.stderr).toBe(
      '[atomic] warning: Saved default model gone/m uses provider "gone", which is not available in this build. Update defaultProvider/defaultModel in settings.json, or choose another model.\n' +
        "atomic: Configured default model is unavailable or unsupported. Update defaultProvider/defaultModel in settings.json, or pass --model <provider/id>.\n",
    );
    const rpc = await runCli(["--mode", "rpc"], { ...folders(), settings, input: '{"id":"p","type":"prompt","message":"hi"}\n{"id":"s","type":"get_state"}\n' });
    const [prompt, state] = rpc.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, any>);
    expect(prompt!.error).toBe("Configured default model is unavailable or unsupported. Update defaultProvider/defaultModel or use /model.");
    expect(state!.data.modelFallbackMessage).not.toContain("/model");
  });

  it("each retry is a line on stderr, and the connection error names the server", async () => {
    const { agentDir, cwd } = folders();
    const url = `http://127.0.0.1:${await closedPort()}`;
    await writeModelsJson(agentDir, url);
    const run = await runCli(["-p", "--model", "fake-openai/fake-1", "--no-session", "hi"], {
      agentDir,
      cwd,
      env: NO_KEYS,
      settings: { retry: { maxRetries: 2, baseDelayMs: 10 } },
      timeoutMs: 30_000,
    });
    expect(run.code).toBe(1);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    // The server is named: by the provider's own error text, or else by print mode (`server: <url>`).
    const host = url.replace("http://", "");
    expect(lines[0]).toMatch(/^atomic: .*; retrying in 10ms \(attempt 1 of 2\)$/);
    expect(lines[1]).toMatch(/; retrying in 20ms \(attempt 2 of 2\)$/);
    for (const line of lines) expect(line).toContain(host);
  }, 40_000);
});

describe("model names", () => {
  it("a misspelt --model or --list-models pattern suggests the model meant", async () => {
    const model = await runCli(["--mode", "rpc", "--model", "sonet"], folders());
    expect(model.code).toBe(2);
    expect(model.stderr).toMatch(/^atomic: No model matches --model "sonet"\. Closest: anthropic\/claude-sonnet-[\w.-]+(, [\w-]+\/claude-sonnet-[\w.-]+)*\. /);
    const list = await runCli(["--list-models", "sonet"], folders());
    expect(list.code).toBe(1);
    expect(list.stderr).toMatch(/^atomic: No models match "sonet"\. Closest: anthropic\/claude-sonnet-/);
  });
});
