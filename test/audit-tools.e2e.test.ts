/**
 * Tool audit over the built CLI: the built-in tools on inputs a real model produces (an @-mention
 * path, a missing final newline, typographic quotes, a FIFO, a big rewrite) give clear results
 * and never hang the run; bash's full-output file is complete when the result arrives.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callsTurn, isType, promptAndSettle, startAgent, textOf } from "./helpers/agent-harness.js";
import { agentTempDir, tempDir, textTurn, type Record_, type RpcClient } from "./helpers/rpc-client.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

type Call = { id: string; name: string; args: Record<string, unknown> };
type End = Record_ & { toolCallId: string; isError: boolean; result: { content: { type: string; text?: string }[]; details?: Record<string, unknown> } };

/** Runs one prompt whose model turn calls `calls`; returns each call's tool_execution_end. */
async function runCalls(cwd: string, calls: Call[]): Promise<Map<string, End>> {
  // Every file tool offered: grep, find and ls are pi's opt-in tools.
  client = startAgent({ cwd, turns: [callsTurn(calls), textTurn("done")], settings: { tools: ["+grep", "+find", "+ls"] } });
  const { from } = await promptAndSettle(client, "go");
  const ends = client.records.slice(from).filter(isType("tool_execution_end")) as End[];
  return new Map(ends.map((end) => [end.toolCallId, end]));
}

const resultText = (end: End | undefined) => textOf(end!.result);

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("file tools over the CLI", () => {
  it("resolve @-mentions, edit past a missing final newline and typographic quotes", async () => {
    const cwd = tempDir("atomic-cwd-");
    writeFileSync(join(cwd, "notes.txt"), "title\nlast line");
    writeFileSync(join(cwd, "quote.ts"), 'const s = "it\'s";\n');
    const ends = await runCalls(cwd, [
      { id: "r1", name: "read", args: { path: "@notes.txt" } },
      { id: "e1", name: "edit", args: { path: "@notes.txt", oldText: "last line\n", newText: "final line\n" } },
      { id: "e2", name: "edit", args: { path: "quote.ts", oldText: "const s = \u201Cit\u2019s\u201D;", newText: 'const s = "ok";' } },
      { id: "w1", name: "write", args: { path: "@out/new.txt", content: "made" } },
    ]);
    expect(ends.get("r1")).toMatchObject({ isError: false });
    expect(resultText(ends.get("r1"))).toBe("title\nlast line");
    expect(ends.get("e1")).toMatchObject({ isError: false, result: { details: { firstChangedLine: 2 } } });
    expect(readFileSync(join(cwd, "notes.txt"), "utf8")).toBe("title\nfinal line");
    expect(ends.get("e2")).toMatchObject({ isError: false, result: { details: { fuzzyMatch: true } } });
    expect(readFileSync(join(cwd, "quote.ts"), "utf8")).toBe('const s = "ok";\n');
    expect(readFileSync(join(cwd, "out", "new.txt"), "utf8")).toBe("made");
  });

  it.skipIf(process.platform === "win32")("answer with error results, without hanging, for a FIFO, a directory and an empty path", async () => {
    const cwd = tempDir("atomic-cwd-");
    execFileSync("mkfifo", [join(cwd, "pipe")]);
    writeFileSync(join(cwd, "a.txt"), "needle\n");
    const ends = await runCalls(cwd, [
      { id: "r1", name: "read", args: { path: "pipe" } },
      { id: "g1", name: "grep", args: { pattern: "needle", path: "pipe" } },
      { id: "g2", name: "grep", args: { pattern: "needle" } },
      { id: "r2", name: "read", args: { path: "" } },
      { id: "w1", name: "write", args: { path: ".", content: "x" } },
    ]);
    expect(ends.get("r1")).toMatchObject({ isError: true });
    expect(resultText(ends.get("r1"))).toBe("Cannot read pipe: it is not a regular file (a device, socket or FIFO).");
    expect(resultText(ends.get("g1"))).toBe("No matches found");
    expect(resultText(ends.get("g2"))).toBe("a.txt:1: needle");
    expect(resultText(ends.get("r2"))).toBe("Path must not be empty");
    expect(ends.get("w1")).toMatchObject({ isError: true });
    expect(resultText(ends.get("w1"))).toBe("Cannot write .: it is a directory.");
  });

  // A quadratic match would take minutes on this input: the test's timeout catches that, no
  // wall-clock bound (a busy machine is not a bug).
  it("edits a large block of a large file", async () => {
    const cwd = tempDir("atomic-cwd-");
    const lines = Array.from({ length: 40_000 }, (_, i) => `entry ${i}`);
    writeFileSync(join(cwd, "data.txt"), lines.join("\n") + "\n");
    const block = lines.slice(5_000, 25_000).join("\n");
    const ends = await runCalls(cwd, [{ id: "e1", name: "edit", args: { path: "data.txt", oldText: block, newText: block.toUpperCase() } }]);
    expect(ends.get("e1")).toMatchObject({ isError: false, result: { details: { firstChangedLine: 5001 } } });
    expect(readFileSync(join(cwd, "data.txt"), "utf8")).toContain("ENTRY 24999\nentry 25000\n");
  });
});

describe("bash over the CLI", () => {
  it("points at a full-output file that is complete when the result arrives", async () => {
    const cwd = tempDir("atomic-cwd-");
    const ends = await runCalls(cwd, [{ id: "b1", name: "bash", args: { command: "seq 1 100000" } }]);
    const end = ends.get("b1")!;
    expect(end.isError).toBe(false);
    const path = String(end.result.details!.fullOutputPath);
    expect(resultText(end)).toContain(`[Showing lines 98001-100000 of 100000. Full output: ${path}]`);
    // Checked right away: the file already holds every line.
    expect(statSync(path).size).toBe(execFileSync("seq", ["1", "100000"]).length);
    // Kept by design for the model to read: in the agents' temp folder of this file (test/helpers/temp.ts).
    expect(dirname(path)).toBe(agentTempDir());
  });

  it("returns while the command's background process still holds its output", async () => {
    const cwd = tempDir("atomic-cwd-");
    // The background process outlives the test's timeout: had the tool waited for the pipe to
    // close, the run would hang; the result arriving while it still runs is the ordering checked.
    const ends = await runCalls(cwd, [{ id: "b1", name: "bash", args: { command: "sleep 600 & echo started; echo $! > bg.pid" } }]);
    const pid = Number(readFileSync(join(cwd, "bg.pid"), "utf8"));
    try {
      expect(resultText(ends.get("b1"))).toBe("started\n");
      expect(isAlive(pid)).toBe(true);
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });
});
