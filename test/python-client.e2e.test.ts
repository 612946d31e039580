/**
 * The dependency-free Python client in docs/examples runs against the built CLI and the
 * loopback fake LLM (when python3 exists): it streams the answer, waits for `agent_settled`, and
 * splits records on LF only, so a U+2028 inside the answer survives. It answers an extension's
 * dialogs with their own ids, and cancels them when nobody handles them. A failure (an agent that
 * cannot start or dies mid-run, a refused prompt, a failed run) ends main() at once with the
 * agent's words on stderr and exit 1, never a traceback or a null answer.
 */
import { execFile, spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { CLI, textTurn, toolTurn, writeCassette } from "./helpers/rpc-client.js";
import { ServerProcess } from "./helpers/server.js";
import { tempDir } from "./helpers/temp.js";
import { NODE } from "./helpers/node.js";

const EXAMPLE = resolve(import.meta.dirname, "../docs/examples/atomic_client.py");
const UI_PROBE = resolve(import.meta.dirname, "fixtures/extensions/ui-probe.ts");
const CRASH_TOOL = resolve(import.meta.dirname, "fixtures/extensions/crash-tool.ts");
const NO_KEYS = { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GEMINI_API_KEY: "" };

/** Runs the example's main() with these arguments (after `--`: the agent's); resolves however it exits. */
async function runExample(prompt: string, agentArgs: string[], agentDir: string): Promise<{ code: number; stdout: string; stderr: string }> {
  // Under a minute: a client that waits for its 60 s request timeout fails here rather than passing late.
  const options = {
    cwd: tempDir("atomic-cwd-"),
    env: { ...process.env, ...NO_KEYS, ATOMIC_CODING_AGENT_DIR: agentDir, ATOMIC_CMD: `"${NODE}" "${CLI}"` },
    encoding: "utf8" as const,
    timeout: 30_000,
  };
  try {
    const { stdout, stderr } = await promisify(execFile)("python3", [EXAMPLE, prompt, "--", ...agentArgs], options);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** Drives the client's class: each /ask-* command's dialog, answered by a handler or by the default (cancel). */
const DIALOG_DRIVER = `
import json, sys
sys.path.insert(0, sys.argv[1])
from atomic_client import AtomicClient
answers = {"select": {"value": "b"}, "confirm": {"confirmed": True}, "input": {"value": "Ada"}}
seen = []
def on_dialog(request):
    seen.append({"method": request["method"], "id": request["id"]})
    return answers.get(request["method"])
outcomes = {}
for handler in (on_dialog, None):
    client = AtomicClient(extra_args=sys.argv[2:], on_dialog=handler)
    notes = []
    for command in ("/ask-select", "/ask-confirm", "/ask-input", "/ask-editor"):
        response = client.request({"type": "prompt", "message": command})
        assert response["success"], response
        while True:
            event = client.events.get(timeout=20)
            if event.get("type") == "extension_ui_request" and event.get("method") == "notify":
                notes.append(event["message"])
                break
    client.close()
    outcomes["handled" if handler else "default"] = notes
print(json.dumps({"outcomes": outcomes, "seen": seen}))
`;
/**
 * connect() to a server: open an agent, stream a prompt, cut the connection mid-answer (as a
 * network would), and read on: the reconnected client must have every event once, as a client
 * that attaches later with a full replay sees them.
 */
const SERVER_DRIVER = `
import json, socket, sys
sys.path.insert(0, sys.argv[1])
from atomic_client import connect
server = connect(sys.argv[2])
agent = server.open_agent(name="py")
assert agent.request({"type": "prompt", "message": "stream"})["success"]
seen = []
while True:
    event = agent.events.get(timeout=30)
    seen.append(event)
    if event["type"] == "message_update" and len(seen) > 5 and not getattr(server, "cut", False):
        server.cut = True
        server._sock.shutdown(socket.SHUT_RDWR)  # the connection drops
    if event["type"] == "agent_settled":
        break
listed = server.list_agents()
later = connect(sys.argv[2])
replay = later.attach(agent.agent, after=0)
everything = []
while not everything or everything[-1]["type"] != "agent_settled":
    everything.append(replay.events.get(timeout=30))
print(json.dumps({"seen": seen, "all": everything, "listed": listed, "agent": agent.agent}))
server.close()
later.close()
`;
const hasPython = spawnSync("python3", ["--version"]).status === 0;
const fake = useFakeLlm();

describe.skipIf(!hasPython)("the Python client example", () => {
  it("streams two prompts' answers and reads the last one back exactly", async () => {
    const agentDir = tempDir("atomic-agent-");
    await writeModelsJson(agentDir, fake.url);
    fake.script({ text: "First answer." }, { text: "Second\u2028answer with a line separator." });
    // Asynchronously: the fake LLM answers from this very process.
    const { stdout: output } = await promisify(execFile)("python3", [EXAMPLE, "one", "two", "--", "--model", "fake-openai/fake-1", "--no-session"], {
      cwd: tempDir("atomic-cwd-"),
      env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir, ATOMIC_CMD: `"${NODE}" "${CLI}"`, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GEMINI_API_KEY: "" },
      encoding: "utf8",
      timeout: 60_000,
    });
    const lines = output.trimEnd().split("\n");
    expect(lines.slice(0, 2)).toEqual(["First answer.", "Second\u2028answer with a line separator."]);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ text: "Second\u2028answer with a line separator." });
    expect(fake.requests).toHaveLength(2);
  });

  it("main() puts each reply of a run on its own line and shows the notify an extension command sends after its dialog", async () => {
    const agentDir = tempDir("atomic-agent-");
    await writeModelsJson(agentDir, fake.url);
    fake.script({ text: "Let me look.", toolCalls: [{ name: "ls", args: {} }] }, { text: "Done looking." });
    const { stdout, stderr } = await promisify(execFile)(
      "python3",
      [EXAMPLE, "look around", "/ask-confirm", "--", "--model", "fake-openai/fake-1", "--no-session", "-e", UI_PROBE],
      {
        cwd: tempDir("atomic-cwd-"),
        env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir, ATOMIC_CMD: `"${NODE}" "${CLI}"`, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GEMINI_API_KEY: "" },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    // Not a terminal: the dialog is cancelled (confirm=false), and the notify that reports it is shown.
    expect(stdout.split("\n").slice(0, 2)).toEqual(["Let me look.", "Done looking."]);
    expect(JSON.parse(stdout.trimEnd().split("\n").at(-1)!)).toEqual({ text: "Done looking." });
    expect(stderr).toContain("[info] confirm=false\n");
  });

  it("main() fails at once with the agent's words and exit 1: a bad flag, a failed run, a refused prompt, an agent that dies", async () => {
    const agentDir = tempDir("atomic-agent-");
    const badFlag = await runExample("hi", ["--mdoel", "x"], agentDir);
    expect(badFlag).toEqual({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(/^atomic_client: the agent exited with code 2\. Stderr:\n.*Unknown option: --mdoel \(did you mean --model\?\)/),
    });
    const failedRun = await runExample("hi", ["--provider", "replay", "--model", "nope", "--no-session"], agentDir);
    expect(failedRun.code).toBe(1);
    expect(failedRun.stdout).toBe("");
    expect(failedRun.stderr).toMatch(/^atomic_client: No cassette for replay model "nope"/m);
    const noKey = await runExample("hi", ["--model", "anthropic/claude-sonnet-4-5", "--no-session"], agentDir);
    expect(noKey).toEqual({ code: 1, stdout: "", stderr: expect.stringMatching(/^atomic_client: No API key found for anthropic\. Set ANTHROPIC_API_KEY/) });
    writeCassette(agentDir, "crash", [toolTurn("c1", "crash", { how: "exit" })]);
    const died = await runExample("crash please", ["--provider", "replay", "--model", "crash", "--no-session", "-e", CRASH_TOOL], agentDir);
    expect(died.code).toBe(1);
    expect(died.stderr).toMatch(/^atomic_client: the agent exited with code 1\. Stderr:\n[\s\S]*crash: the tool ends the agent \(exit\)$/m);
    for (const run of [badFlag, failedRun, noKey, died]) expect(run.stderr).not.toContain("Traceback");
  });

  it("connect(): opens an agent of atomic serve, and after a dropped connection resumes with every event once", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "slow", [textTurn("word ".repeat(120), 120)], { eventDelayMs: 10 });
    const server = await ServerProcess.start({ agentDir, args: ["--provider", "replay", "--model", "slow"] });
    const { stdout } = await promisify(execFile)("python3", ["-c", SERVER_DRIVER, resolve(EXAMPLE, ".."), server.socket], { encoding: "utf8", timeout: 60_000 });
    const { seen, all, listed, agent } = JSON.parse(stdout) as { seen: { type: string }[]; all: { type: string }[]; listed: unknown[]; agent: string };
    expect(listed).toEqual([expect.objectContaining({ agent, name: "py", status: "idle" })]);
    // What the reconnected client saw is the tail of everything, with nothing missing or repeated.
    expect(seen.length).toBeGreaterThan(100);
    expect(all.slice(-seen.length)).toEqual(seen);
    expect(seen.filter((event) => event.type === "agent_start")).toHaveLength(1);
    expect(server.stderr).not.toContain("Traceback");
    await server.stop();
  });

  it("answers an extension's dialogs under their own ids; without a handler it cancels them", async () => {
    const agentDir = tempDir("atomic-agent-");
    const { stdout } = await promisify(execFile)(
      "python3",
      ["-c", DIALOG_DRIVER, resolve(EXAMPLE, ".."), "--provider", "replay", "--model", "demo", "--no-session", "-e", UI_PROBE],
      {
        cwd: tempDir("atomic-cwd-"),
        env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir, ATOMIC_CMD: `"${NODE}" "${CLI}"` },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    const { outcomes, seen } = JSON.parse(stdout) as { outcomes: Record<string, string[]>; seen: { method: string; id: string }[] };
    expect(outcomes.handled).toEqual(['select="b"', "confirm=true", 'input="Ada"', "editor=null"]);
    expect(outcomes.default).toEqual(["select=null", "confirm=false", "input=null", "editor=null"]);
    expect(seen.map((s) => s.method)).toEqual(["select", "confirm", "input", "editor"]);
    expect(new Set(seen.map((s) => s.id)).size).toBe(4);
  });
});
