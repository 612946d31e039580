/**
 * Work that waits for something that cannot happen (a promise nobody settles, and nothing else
 * left running): the process must not end in silence with exit code 0 and the run half done.
 * An extension's load is skipped and the agent goes on; a tool's call fails and the run goes on;
 * an event handler or a `/command` handler counts as failed (reported) and as having answered
 * nothing, and the run goes on; anything else ends the process with exit code 1 and a line that says why (lib/stall, the
 * launcher's last check).
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, tempDir, textTurn, toolTurn, writeCassette } from "./helpers/rpc-client.js";

function setup(extension: string, turns: object[][] = [textTurn("Hello there.")]) {
  const agentDir = tempDir("atomic-agent-");
  const cwd = tempDir("atomic-cwd-");
  const file = join(tempDir("atomic-ext-"), "ext.ts");
  writeFileSync(file, extension);
  writeCassette(agentDir, "stall", turns);
  return { agentDir, cwd, file, args: ["-p", "--provider", "replay", "--model", "stall", "--no-session", "-e", file, "hi"] };
}

const withSession = (args: string[]) => args.filter((arg) => arg !== "--no-session");

function sessionFiles(agentDir: string): string[] {
  const dir = join(agentDir, "sessions");
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".jsonl"))
    .map((name) => join(dir, name));
}

describe("work that can never finish", () => {
  it("an extension whose factory awaits session_start (which comes after loading) is skipped; the agent answers", async () => {
    const { agentDir, cwd, args } = setup('export default async function (pi: any) {\n  await new Promise<void>((resolve) => pi.on("session_start", () => resolve()));\n}\n');
    const run = await runCli(args, { agentDir, cwd });
    expect(run).toMatchObject({ code: 0, stdout: "Hello there.\n" });
    expect(run.stderr).toMatch(/ext\.ts never finished loading: its factory waits for something that cannot happen .* It is skipped\./);
  });

  it("a tool awaiting a promise nobody settles fails its call; the run goes on", async () => {
    const { agentDir, cwd, args } = setup(
      'export default function (pi: any) {\n  pi.registerTool({ name: "wait_forever", label: "Wait", description: "waits", parameters: { type: "object", properties: {} }, execute: () => new Promise(() => {}) });\n}\n',
      [toolTurn("call_1", "wait_forever", {}), textTurn("After the tool.")],
    );
    const run = await runCli([...args.slice(0, -1), "--mode", "json", "hi"], { agentDir, cwd });
    expect(run.code).toBe(0);
    const end = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; isError?: boolean; result?: { content: { text: string }[] } })
      .find((record) => record.type === "tool_execution_end");
    expect(end).toMatchObject({
      isError: true,
      result: { content: [{ text: "Tool wait_forever never finished: it waits for something that cannot happen (nothing else was left running to wake it)" }] },
    });
    expect(run.stdout).toContain("After the tool.");
  });

  it("a tool_call handler that never settles counts as having thrown: the guard vetoes the call, the run goes on, the session is saved", async () => {
    const { agentDir, cwd, args, file } = setup(
      'export default function (pi: any) {\n  pi.registerTool({ name: "note", label: "Note", description: "notes", parameters: { type: "object", properties: {} }, execute: async () => ({ content: [{ type: "text", text: "noted it" }] }) });\n  pi.on("tool_call", () => new Promise(() => {}));\n}\n',
      [toolTurn("call_1", "note", {}), textTurn("After the tool.")],
    );
    const run = await runCli(withSession(args), { agentDir, cwd });
    expect(run).toMatchObject({ code: 0, stdout: "After the tool.\n" });
    expect(run.stderr).toContain(`[${file}] tool_call failed: handler for "tool_call" never finished: it awaits something that can never settle`);
    expect(run.stderr).not.toContain("stopped before finishing");
    const [session] = sessionFiles(agentDir);
    const stored = readFileSync(session!, "utf8");
    // Fail closed, as for a handler that throws: a permission gate stuck on a dialog lets nothing run.
    expect(stored).not.toContain("noted it");
    expect(stored).toMatch(/"toolName":"note"[^\n]*"isError":true/);
  });

  it("over RPC with piped input, a before_agent_start handler that never settles is an extension_error; the run reaches agent_end and is saved", async () => {
    const { agentDir, cwd, file } = setup('export default function (pi: any) {\n  pi.on("before_agent_start", () => new Promise(() => {}));\n}\n');
    const run = await runCli(["--mode", "rpc", "--provider", "replay", "--model", "stall", "-e", file], {
      agentDir,
      cwd,
      stdin: `${JSON.stringify({ type: "prompt", id: "p1", message: "hi" })}\n`,
    });
    expect(run.code).toBe(0);
    const records = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string });
    expect(records).toContainEqual({
      type: "extension_error",
      extensionPath: file,
      event: "before_agent_start",
      error: expect.stringContaining('handler for "before_agent_start" never finished: it awaits something that can never settle'),
    });
    expect(records.map((record) => record.type)).toContain("agent_end");
    const [session] = sessionFiles(agentDir);
    expect(readFileSync(session!, "utf8")).toContain('"content":"hi"');
  });

  it("a command handler that never settles counts as having thrown: reported naming the command and its extension, the prompt handled, the agent serves on, the session is saved", async () => {
    const { agentDir, cwd, file } = setup(
      'export default function (pi: any) {\n  pi.registerCommand("wait", { handler: async () => {\n    pi.appendEntry("wait-note", { before: "waiting" });\n    await new Promise(() => {});\n  } });\n}\n',
    );
    const lines = [
      { type: "prompt", id: "c1", message: "/wait now" },
      { type: "prompt", id: "p1", message: "hi" },
    ];
    const run = await runCli(["--mode", "rpc", "--provider", "replay", "--model", "stall", "-e", file], {
      agentDir,
      cwd,
      stdin: lines.map((line) => `${JSON.stringify(line)}\n`).join(""),
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toContain("stopped before finishing");
    const records = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; id?: string });
    expect(records).toContainEqual({
      type: "extension_error",
      extensionPath: file,
      event: "command",
      error: "Command /wait never finished: its handler awaits something that can never settle (nothing else was left running to wake it)",
    });
    expect(records).toContainEqual({ id: "c1", type: "response", command: "prompt", success: true, data: { disposition: "handled" } });
    expect(records).toContainEqual(expect.objectContaining({ id: "p1", type: "response", success: true }));
    // The prompt read after it runs (stdin has ended, so it is aborted, as any prompt then).
    expect(records.map((record) => record.type)).toContain("agent_end");
    const [session] = sessionFiles(agentDir);
    const stored = readFileSync(session!, "utf8");
    expect(stored).toContain('"customType":"wait-note"');
    expect(stored).toContain('"content":"hi"');
  });

  it("in print mode a command handler that never settles is reported and the run ends with exit code 0", async () => {
    const { agentDir, cwd, args, file } = setup('export default function (pi: any) {\n  pi.registerCommand("wait", { handler: () => new Promise(() => {}) });\n}\n');
    const run = await runCli([...args.slice(0, -1), "/wait"], { agentDir, cwd });
    expect(run.code).toBe(0);
    expect(run.stderr).toContain(`[${file}] command failed: Command /wait never finished`);
    expect(run.stderr).not.toContain("stopped before finishing");
  });

  it("anything else (a provider an extension registers whose stream never settles) ends the process with exit code 1 and says why", async () => {
    const { agentDir, cwd, file } = setup(`export default function (pi: any) {
  const model = { id: "m", name: "m", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 };
  pi.registerProvider("stuck", { api: "stuck-api", models: [model], streamSimple: () => ({ async *[Symbol.asyncIterator]() { await new Promise(() => {}); } }) });
}
`);
    const run = await runCli(["-p", "--provider", "stuck", "--model", "m", "--no-session", "-e", file, "hi"], { agentDir, cwd });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("atomic: stopped before finishing: what it was doing waits for something that cannot happen");
  });
});
