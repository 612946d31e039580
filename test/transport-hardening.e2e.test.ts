/**
 * The RPC transport under a hostile or unlucky client (issue 17: responses bounded and never
 * lost, ordering of abort against prompts read with it, exact ids), over the built CLI.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, RpcClient, tempDir, textTurn, writeCassette } from "./helpers/rpc-client.js";
import { NODE } from "./helpers/node.js";

const clients: RpcClient[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

function start(args: string[], agentDir = tempDir("atomic-agent-")): RpcClient {
  const cwd = tempDir("atomic-cwd-");
  dirs.push(agentDir, cwd);
  const c = new RpcClient({ agentDir, cwd, args });
  clients.push(c);
  return c;
}

/** Peak resident memory of a live process, in MB (Linux). */
function peakRssMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : 0;
}

describe("transport hardening", () => {
  it("a slow reader loses none of 100,000 responses, in order, and memory stays bounded", async () => {
    const c = start(["--mode", "rpc", "--no-session"]);
    c.child.stdout.pause();
    const lines = Array.from({ length: 100_000 }, (_, i) => `{"id":${i},"type":"get_state"}\n`).join("");
    c.write(lines);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const rss = peakRssMb(c.child.pid!);
    c.child.stdout.resume();
    await c.waitFor((r) => r.type === "response" && r.id === 99_999, 60_000);
    const responses = c.records.filter((r) => r.type === "response");
    expect(responses).toHaveLength(100_000);
    expect(responses.every((r, i) => r.id === i && r.success === true)).toBe(true);
    expect(rss).toBeLessThan(200);
    console.log(`100k get_state with a paused reader: peak RSS while blocked ${rss.toFixed(0)} MB`);
    expect((await c.close()).code).toBe(0);
  }, 90_000);

  it("800 get_messages of 1 MiB each in one write to a paused reader: answered in order, memory flat", async () => {
    const c = start(["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"]);
    const from = c.records.length;
    c.send({ id: "big", type: "prompt", message: "x".repeat(1024 * 1024) });
    await c.waitForEvent("agent_end", 30_000, from);
    await c.waitFor((r) => r.type === "response" && r.id === "big", 30_000, from);
    const before = c.records.length;
    c.child.stdout.pause();
    c.write(Array.from({ length: 800 }, (_, i) => `{"id":${i},"type":"get_messages"}\n`).join(""));
    // Long enough for every command to have run ahead of the pipe, had it been allowed to.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const rss = peakRssMb(c.child.pid!);
    c.child.stdout.resume();
    await c.waitFor((r) => r.type === "response" && r.id === 799, 120_000, before);
    const responses = c.records.slice(before).filter((r) => r.type === "response");
    expect(responses.map((r) => r.id)).toEqual(Array.from({ length: 800 }, (_, i) => i));
    expect(responses.every((r) => r.success === true && JSON.stringify(r.data).length > 1024 * 1024)).toBe(true);
    console.log(`800 x 1 MiB get_messages with a paused reader: peak RSS ${rss.toFixed(0)} MB`);
    expect(rss).toBeLessThan(160);
    expect((await c.close()).code).toBe(0);
  }, 180_000);

  it("an abort read together with a prompt aborts the run that prompt started", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeCassette(agentDir, "slow", [textTurn("a b c d e f g h", 8)], { eventDelayMs: 50 });
    const c = start(["--mode", "rpc", "--provider", "replay", "--model", "slow", "--no-session"], agentDir);
    c.write('{"id":"p","type":"prompt","message":"go"}\n{"id":"a","type":"abort"}\n');
    const abort = await c.waitFor((r) => r.type === "response" && r.id === "a", 10_000);
    const prompt = c.records.find((r) => r.type === "response" && r.id === "p")!;
    expect(prompt).toMatchObject({ success: true });
    expect(abort).toMatchObject({ success: true });
    const end = c.records.find((r) => r.type === "agent_end") as unknown as { messages: { role: string; stopReason?: string }[] };
    expect(end.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(c.records.indexOf(prompt)).toBeLessThan(c.records.indexOf(abort));
  });

  it("echoes ids exactly as sent, even beyond a double's precision", async () => {
    const child = spawn(NODE, [CLI, "--mode", "rpc", "--no-session"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...process.env, ATOMIC_CODING_AGENT_DIR: tempDir("atomic-agent-") },
    });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stdin.end('{"id":12345678901234567890,"type":"get_state"}\n{"id":-0,"type":"nope"}\n{"type":"get_state","id":1.50}\n');
    await new Promise((resolve) => child.once("exit", resolve));
    const ids = out
      .trim()
      .split("\n")
      .map((line) => /^\{"id":([^,]+),/.exec(line)?.[1]);
    expect(ids).toEqual(["12345678901234567890", "-0", "1.50"]);
  });
});
