/**
 * The grep tool cannot wedge the process: its regular expression runs off the main thread, a
 * pattern stuck on one line is stopped at the deadline with a clear error, and abort, stdin EOF
 * and SIGTERM reach a search that is slow but progressing. Files over 32 MB are searched (as a
 * stream), not skipped.
 */
import { openSync, writeFileSync, writeSync, closeSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callsTurn, isResponseTo, isType, promptAndSettle, startAgent, textOf } from "./helpers/agent-harness.js";
import { tempDir, textTurn, type Record_, type RpcClient } from "./helpers/rpc-client.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

type End = Record_ & { isError: boolean; result: { content: { type: string; text?: string }[] } };

/** `(a+)+$` needs ~2^n steps on n `a`s then `b`: 40 never finishes, 22 takes ~0.1 s a line. */
const CATASTROPHIC = "(a+)+$";
const evilLine = (n: number) => `${"a".repeat(n)}b`;

function startGrep(cwd: string, args: Record<string, unknown>): RpcClient {
  client = startAgent({ cwd, turns: [callsTurn([{ id: "g1", name: "grep", args }]), textTurn("done")], settings: { tools: ["+grep"] } });
  return client;
}

/** A project whose search takes minutes (2,000 lines of ~0.1 s) but moves on every line. */
function slowProject(): string {
  const cwd = tempDir("atomic-cwd-");
  writeFileSync(join(cwd, "slow.txt"), Array.from({ length: 2000 }, () => evilLine(22)).join("\n") + "\n");
  return cwd;
}

/** Resolves with `promise`, or fails after `ms` (the work it waits for would otherwise take minutes). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms`)), ms)));
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** Starts the slow search and gives it a second, so it is surely matching (listing takes ms). */
async function grepRunning(c: RpcClient): Promise<void> {
  const response = await c.request({ type: "prompt", message: "search" });
  expect(response.success).toBe(true);
  await c.waitForEvent("tool_execution_start", 10_000);
  await new Promise((resolve) => setTimeout(resolve, 1000));
}

describe("grep: a pattern stuck on one line", () => {
  it("is stopped at the deadline with an error naming the line, and the run goes on", async () => {
    const cwd = tempDir("atomic-cwd-");
    writeFileSync(join(cwd, "ok.txt"), "fine\n");
    writeFileSync(join(cwd, "evil.txt"), `first\n${evilLine(40)}\n`);
    const c = startGrep(cwd, { pattern: CATASTROPHIC });
    const { from } = await promptAndSettle(c, "search");
    const end = c.records.slice(from).find(isType("tool_execution_end")) as End;
    expect(end.isError).toBe(true);
    expect(textOf(end.result)).toMatch(/^The pattern ran for over 2 seconds on line 2 of evil\.txt without finishing/);
    expect(textOf(end.result)).toContain("catastrophic backtracking");
    // The process is alive and answering.
    expect((await c.request({ type: "get_state" })).success).toBe(true);
  });
});

describe("grep: a slow search stays interruptible", () => {
  it("is cancelled by abort", async () => {
    const c = startGrep(slowProject(), { pattern: CATASTROPHIC });
    await grepRunning(c);
    const from = c.records.length;
    const abort = await c.request({ type: "abort" }, 5_000); // the search alone would take minutes
    expect(abort.success).toBe(true);
    const end = c.records.slice(from).find(isType("tool_execution_end")) as End | undefined;
    expect(end && textOf(end.result)).toBe("Operation aborted");
    expect(c.records.findIndex(isType("agent_end"))).toBeLessThan(c.records.findIndex(isResponseTo(abort.id)));
  });

  it("lets stdin EOF end the process", async () => {
    const c = startGrep(slowProject(), { pattern: CATASTROPHIC });
    await grepRunning(c);
    c.child.stdin.end();
    expect(await within(c.exited, 5_000, "exit after EOF")).toEqual({ code: 0, signal: null });
    expect(c.types()).toContain("agent_end");
  });

  it("lets SIGTERM end the process with 143", async () => {
    const c = startGrep(slowProject(), { pattern: CATASTROPHIC });
    await grepRunning(c);
    c.child.kill("SIGTERM");
    expect(await within(c.exited, 5_000, "exit after SIGTERM")).toEqual({ code: 143, signal: null });
  });
});

describe("grep: large files", () => {
  it("searches a 36 MB log to its last line instead of skipping it", async () => {
    const cwd = tempDir("atomic-cwd-");
    const fd = openSync(join(cwd, "big.log"), "w");
    const block = Buffer.from(`${"INFO all good here\n".repeat(50_000)}`);
    for (let written = 0; written < 36 * 1024 * 1024; written += block.length) writeSync(fd, block);
    writeSync(fd, "ERROR disk on fire\n");
    closeSync(fd);
    const c = startGrep(cwd, { pattern: "ERROR", context: 1 });
    const { from } = await promptAndSettle(c, "search");
    const end = c.records.slice(from).find(isType("tool_execution_end")) as End;
    expect(end.isError).toBe(false);
    const lines = 50_000 * Math.ceil((36 * 1024 * 1024) / block.length);
    expect(textOf(end.result)).toBe(`big.log-${lines}- INFO all good here\nbig.log:${lines + 1}: ERROR disk on fire`);
  });

  it("says so when it searched only the start of an enormous line", async () => {
    const cwd = tempDir("atomic-cwd-");
    writeFileSync(join(cwd, "minified.js"), `${"x".repeat(20 * 1024 * 1024)}needle\nneedle on line 2\n`);
    const c = startGrep(cwd, { pattern: "needle" });
    const { from } = await promptAndSettle(c, "search");
    const end = c.records.slice(from).find(isType("tool_execution_end")) as End;
    expect(textOf(end.result)).toBe("minified.js:2: needle on line 2\n\n[Searched only the first 16.0MB of 1 line(s) longer than that.]");
  });
});
