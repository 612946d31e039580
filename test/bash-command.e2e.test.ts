/**
 * The user-shell commands (`bash`, `abort_bash`) over the built CLI: streaming per request id,
 * concurrency, targeted and global cancel, truncation with the full file, session ownership,
 * the result reaching the model on the next prompt, teardown, and a `user_bash` plugin.
 */
import { spawn } from "node:child_process";
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isProcessAlive, waitUntil } from "../plugins/bash/process-probe.js";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { CLI, RpcClient, tempDir, textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";
import { NODE } from "./helpers/node.js";

const BASH_GUARD = resolve(import.meta.dirname, "fixtures/bash-guard.ts");
const clients: RpcClient[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) {
    if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
    await c.exited;
  }
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

interface Started {
  c: RpcClient;
  /** The agent's TMPDIR: where its full-output files go. */
  tmp: string;
  agentDir: string;
}

/** A CLI on a replay cassette, with its own temp folder; `persist` keeps session files. */
function start(options: { persist?: boolean; settings?: Record<string, unknown>; args?: string[]; agentDir?: string } = {}): Started {
  const agentDir = options.agentDir ?? tempDir("atomic-agent-");
  const cwd = tempDir("atomic-cwd-");
  const tmp = tempDir("atomic-tmp-");
  dirs.push(agentDir, cwd, tmp);
  writeCassette(agentDir, "chat", [textTurn("Hello."), textTurn("Again.")]);
  const args = options.args ?? ["--mode", "rpc", "--provider", "replay", "--model", "chat", ...(options.persist ? [] : ["--no-session"])];
  const c = new RpcClient({ agentDir, cwd, args, env: { TMPDIR: tmp }, ...(options.settings ? { settings: options.settings } : {}) });
  clients.push(c);
  return { c, tmp, agentDir };
}

const isDelta = (id?: unknown) => (r: Record_) => r.type === "bash_execution_update" && (id === undefined || r.id === id);
const deltasOf = (c: RpcClient, id: unknown) => c.records.filter(isDelta(id));
const joined = (records: Record_[]) => records.map((r) => r.delta).join("");
const responseTo = (c: RpcClient, id: unknown) => c.waitFor((r) => r.type === "response" && r.id === id);
const outputFiles = (dir: string) => readdirSync(dir).filter((name) => name.startsWith("atomic-bash-"));

describe("bash: streaming and results", () => {
  it("streams each channel in order under the request id, before a response that holds the same text", async () => {
    const { c } = start();
    const response = await c.request({ type: "bash", command: "for i in 1 2 3; do echo out$i; echo err$i >&2; sleep 0.05; done; exit 4" });
    expect(response).toMatchObject({ success: true, data: { exitCode: 4, cancelled: false, truncated: false } });
    const deltas = deltasOf(c, response.id);
    const channel = (name: string) => joined(deltas.filter((d) => d.channel === name));
    expect(channel("stdout")).toBe("out1\nout2\nout3\n");
    expect(channel("stderr")).toBe("err1\nerr2\nerr3\n");
    expect(joined(deltas)).toBe((response.data as { output: string }).output);
    expect(Math.max(...deltas.map((d) => c.records.indexOf(d)))).toBeLessThan(c.records.indexOf(response));
    expect(new Set(c.types())).toEqual(new Set(["bash_execution_update", "response"]));
  });

  it("runs requests concurrently: interleaved deltas never carry another's id; other commands are answered meanwhile", async () => {
    const { c } = start();
    c.send({ id: "A", type: "bash", command: "for i in 1 2 3 4 5; do echo A$i; sleep 0.1; done" });
    c.send({ id: "B", type: "bash", command: "for i in 1 2 3 4 5; do echo B$i; sleep 0.1; done" });
    await c.waitFor(isDelta("A"));
    await c.waitFor(isDelta("B"));
    const state = await c.request({ type: "get_state" });
    const prompt = await c.request({ type: "prompt", message: "hi" });
    const [a, b] = [await responseTo(c, "A"), await responseTo(c, "B")];
    expect(state.success && prompt.success).toBe(true);
    expect(c.records.indexOf(state)).toBeLessThan(c.records.indexOf(a));
    expect(c.records.indexOf(prompt)).toBeLessThan(c.records.indexOf(b));
    expect(joined(deltasOf(c, "A"))).toBe("A1\nA2\nA3\nA4\nA5\n");
    expect(joined(deltasOf(c, "B"))).toBe("B1\nB2\nB3\nB4\nB5\n");
    const order = c.records.filter(isDelta()).map((d) => d.id);
    expect(order.indexOf("B")).toBeLessThan(order.lastIndexOf("A"));
    await c.waitForEvent("agent_end");
  });

  it("keeps the tail beyond the limit, with the complete output on disk when the response arrives", async () => {
    const { c, tmp } = start();
    const response = await c.request({ type: "bash", command: "seq 1 100000" });
    const data = response.data as { output: string; truncated: boolean; fullOutputPath: string; exitCode: number };
    const full = Array.from({ length: 100000 }, (_, i) => String(i + 1)).join("\n") + "\n";
    expect(data).toMatchObject({ truncated: true, exitCode: 0, cancelled: false });
    expect(data.output).toBe(Array.from({ length: 2000 }, (_, i) => String(98001 + i)).join("\n"));
    expect(data.fullOutputPath.startsWith(`${tmp}/atomic-bash-`)).toBe(true);
    expect(readFileSync(data.fullOutputPath, "utf8")).toBe(full);
    expect(joined(deltasOf(c, response.id))).toBe(full);
    // In memory (--no-session) nothing refers to the file once the process is gone.
    expect(await c.close()).toEqual({ code: 0, signal: null });
    expect(outputFiles(tmp)).toEqual([]);
  });

  it("keeps a full-output file a session file refers to", async () => {
    const { c, tmp } = start({ persist: true });
    const data = await c.ok({ type: "bash", command: "seq 1 3000" });
    await c.close();
    expect(outputFiles(tmp)).toEqual([data.fullOutputPath.slice(tmp.length + 1)]);
  });

  it("sweeps full-output files older than bash.logRetentionHours at startup", async () => {
    const { c, tmp } = start({ settings: { bash: { logRetentionHours: 1 } } });
    const age = (name: string, hours: number) => {
      const path = `${tmp}/${name}`;
      writeFileSync(path, "old output");
      const when = new Date(Date.now() - hours * 3_600_000);
      utimesSync(path, when, when);
    };
    age("atomic-bash-00000000000000aa.log", 2);
    age("atomic-bash-00000000000000bb.log", 0.2);
    age("unrelated.log", 2);
    await c.ok({ type: "get_state" });
    expect(await waitUntil(() => outputFiles(tmp).length === 1, 5000)).toBe(true);
    expect(readdirSync(tmp).sort()).toEqual(["atomic-bash-00000000000000bb.log", "unrelated.log"]);
  });

  it("writes only valid UTF-8 JSON for NUL bytes, invalid UTF-8 and escape codes", async () => {
    const { c } = start();
    const raw: Buffer[] = [];
    c.child.stdout.on("data", (chunk: Buffer) => raw.push(chunk));
    const data = await c.ok({ type: "bash", command: "printf 'a\\000b\\377\\376c\\033[31mred\\033[0m\\r\\n'; head -c 3000 /dev/urandom >&2; echo" });
    expect(data.output.startsWith("ab\ufffd\ufffdcred\n")).toBe(true);
    expect(data.output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
    expect(() => new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(raw))).not.toThrow();
  });

  it("answers bad input with the field and what was expected", async () => {
    const { c } = start();
    expect(await c.request({ type: "bash" }, undefined, { unchecked: true })).toMatchObject({ success: false, error: "Invalid command: expected string" });
    expect(await c.request({ type: "bash", command: ["ls"] }, undefined, { unchecked: true })).toMatchObject({ success: false, error: "Invalid command: expected string" });
    expect(await c.request({ type: "bash", command: "" })).toMatchObject({ success: false, error: "Invalid command: expected non-empty string" });
    expect(await c.request({ type: "abort_bash", requestId: {} }, undefined, { unchecked: true })).toMatchObject({
      success: false,
      error: "Invalid requestId: expected string or number",
    });
    expect((await c.ok({ type: "get_messages" })).messages).toEqual([]);
  });
});

describe("abort_bash", () => {
  it("with requestId cancels only that request and kills its process tree; without it cancels the rest", async () => {
    const { c } = start();
    c.send({ id: "a", type: "bash", command: "sleep 30 & echo $!; wait" });
    c.send({ id: "b", type: "bash", command: "echo b; sleep 30" });
    c.send({ id: "c", type: "bash", command: "echo c; sleep 0.5; echo c-done" });
    const pid = Number((await c.waitFor(isDelta("a"))).delta);
    await c.waitFor(isDelta("b"));
    expect(await c.request({ type: "abort_bash", requestId: "nobody" })).toMatchObject({ success: true });
    expect(await c.request({ type: "abort_bash", requestId: "a" })).toMatchObject({ success: true });
    const a = await responseTo(c, "a");
    expect(a.data).toEqual({ output: `${pid}\n`, cancelled: true, truncated: false });
    expect(await waitUntil(() => !isProcessAlive(pid), 5000)).toBe(true);
    expect((await responseTo(c, "c")).data).toEqual({ output: "c\nc-done\n", exitCode: 0, cancelled: false, truncated: false });
    expect(c.records.some((r) => r.type === "response" && r.id === "b")).toBe(false);
    expect(await c.request({ type: "abort_bash" })).toMatchObject({ success: true });
    expect((await responseTo(c, "b")).data).toEqual({ output: "b\n", cancelled: true, truncated: false });
    expect(await c.request({ type: "abort_bash" })).toMatchObject({ success: true });
  });
});

describe("bash: where results go", () => {
  it("a session replacement mid-command: later deltas keep the id, the result lands in the old session only, one response", async () => {
    const { c } = start({ persist: true });
    await c.ok({ type: "bash", command: "echo first" });
    const oldFile = (await c.ok({ type: "get_state" })).sessionFile as string;
    c.send({ id: "s", type: "bash", command: "echo before; sleep 0.5; echo after" });
    await c.waitFor(isDelta("s"));
    const replaced = await c.request({ type: "new_session" });
    expect(replaced).toMatchObject({ success: true, data: { cancelled: false } });
    const response = await responseTo(c, "s");
    expect(response.data).toMatchObject({ output: "before\nafter\n", exitCode: 0 });
    const late = deltasOf(c, "s").filter((d) => c.records.indexOf(d) > c.records.indexOf(replaced));
    expect(joined(late)).toBe("after\n");

    const oldMessages = readFileSync(oldFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line))
      .filter((e) => e.type === "message");
    expect(oldMessages.map((e) => e.message.command)).toEqual(["echo first", "echo before; sleep 0.5; echo after"]);
    expect((await c.ok({ type: "get_messages" })).messages).toEqual([]);
    expect((await c.ok({ type: "get_state" })).sessionFile).not.toBe(oldFile);
    await c.close();
    expect(c.records.filter((r) => r.type === "response" && r.id === "s")).toHaveLength(1);
  });
});

describe("bash: the model sees the result on the next prompt", () => {
  const fake = useFakeLlm();

  async function startOnFake(): Promise<RpcClient> {
    const agentDir = tempDir("atomic-agent-");
    await writeModelsJson(agentDir, fake.url);
    return start({ agentDir, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"] }).c;
  }

  /** The texts of the user messages an OpenAI chat request carried. */
  const userTexts = (index: number): string[] =>
    (fake.requests[index]!.body.messages as { role: string; content: unknown }[])
      .filter((m) => m.role === "user")
      .map((m) => (typeof m.content === "string" ? m.content : (m.content as { text?: string }[]).map((part) => part.text ?? "").join("")));

  it("as a user message `Ran ...` with the output fenced, exit code noted; several results all arrive", async () => {
    const c = await startOnFake();
    await c.ok({ type: "bash", command: "echo hello" });
    await c.ok({ type: "bash", command: "echo oops >&2; exit 2" });
    expect(fake.requests).toHaveLength(0);
    fake.script({ text: "Seen." });
    await c.ok({ type: "prompt", message: "what happened?" });
    await c.waitForEvent("agent_end");
    expect(userTexts(0)).toEqual(["Ran `echo hello`\n```\nhello\n```", "Ran `echo oops >&2; exit 2`\n```\noops\n```\n\nCommand exited with code 2", "what happened?"]);
  });

  it("a result that arrives while a run streams is answered at once, stored when the run ends, never between a tool call and its result", async () => {
    const c = await startOnFake();
    // The model's tool runs until the test lets it end: the user's bash must be answered before that.
    const release = resolve(tempDir("atomic-release-"), "go");
    fake.script(
      { toolCalls: [{ name: "bash", args: { command: `while [ ! -e ${release} ]; do sleep 0.05; done; echo tool-done` } }] },
      { text: "Tool finished." },
      { text: "Noted." },
    );
    await c.ok({ type: "prompt", message: "run the tool" });
    await c.waitForEvent("tool_execution_start");
    expect((await c.ok({ type: "bash", command: "echo user-side" })).output).toBe("user-side\n");
    expect(c.records.some((r) => r.type === "tool_execution_end" || r.type === "agent_end")).toBe(false);
    expect(((await c.ok({ type: "get_messages" })).messages as { role: string }[]).map((m) => m.role)).toEqual(["user", "assistant"]);
    writeFileSync(release, "");
    await c.waitForEvent("agent_end");
    const roles = ((await c.ok({ type: "get_messages" })).messages as { role: string }[]).map((m) => m.role);
    expect(roles).toEqual(["user", "assistant", "toolResult", "assistant", "bashExecution"]);
    expect(userTexts(1)).toEqual(["run the tool"]);
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "and now?" });
    await c.waitForEvent("agent_end", 10_000, from);
    expect(userTexts(2)).toEqual(["run the tool", "Ran `echo user-side`\n```\nuser-side\n```", "and now?"]);
  });

  it("a result answered while a run streams is in the session file once stdin EOF ends that run", async () => {
    const agentDir = tempDir("atomic-agent-");
    await writeModelsJson(agentDir, fake.url);
    const { c } = start({ agentDir, args: ["--mode", "rpc", "--model", "fake-openai/fake-1"] });
    fake.script({ toolCalls: [{ name: "bash", args: { command: "sleep 30" } }] });
    await c.ok({ type: "prompt", message: "run the tool" });
    await c.waitForEvent("tool_execution_start");
    expect((await c.ok({ type: "bash", command: "echo user-side" })).output).toBe("user-side\n");
    const { sessionFile } = await c.ok({ type: "get_state" });
    expect(await c.close()).toEqual({ code: 0, signal: null });
    const entries = readFileSync(sessionFile as string, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; message?: { role: string; output?: string } });
    expect(entries.filter((e) => e.message?.role === "bashExecution").map((e) => e.message!.output)).toEqual(["user-side\n"]);
  });
});

describe("bash: teardown", () => {
  it("stdin EOF during a long command: a cancelled response, the tree killed, exit 0", async () => {
    const { c } = start();
    c.send({ id: "long", type: "bash", command: "sleep 30 & echo $!; wait" });
    const pid = Number((await c.waitFor(isDelta("long"))).delta);
    expect(await c.close()).toEqual({ code: 0, signal: null });
    expect(c.records.filter((r) => r.type === "response")).toEqual([
      { id: "long", type: "response", command: "bash", success: true, data: { output: `${pid}\n`, cancelled: true, truncated: false } },
    ]);
    expect(await waitUntil(() => !isProcessAlive(pid), 5000)).toBe(true);
  });

  it("SIGTERM: the same teardown, exit 143", async () => {
    const { c } = start();
    c.send({ id: "long", type: "bash", command: "echo started; sleep 30" });
    await c.waitFor(isDelta("long"));
    c.child.kill("SIGTERM");
    expect(await c.exited).toEqual({ code: 143, signal: null });
    expect(c.records.find((r) => r.type === "response")).toMatchObject({ id: "long", data: { cancelled: true } });
  });
});

describe("bash: a user_bash plugin", () => {
  it("refuses, rewrites or answers commands", async () => {
    const { c } = start({ settings: { plugins: [BASH_GUARD] } });
    expect(await c.request({ type: "bash", command: "rm -rf build" })).toMatchObject({ success: false, error: "Refused by bash-guard: rm -rf" });
    expect((await c.ok({ type: "bash", command: "say hi" })).output).toBe("hi\n");
    const answered = await c.request({ type: "bash", command: "fake-whoami" });
    expect(answered.data).toEqual({ output: "guard\n", exitCode: 0, cancelled: false, truncated: false });
    expect(deltasOf(c, answered.id)).toEqual([]);
    const messages = (await c.ok({ type: "get_messages" })).messages as { command: string }[];
    expect(messages.map((m) => m.command)).toEqual(["echo hi", "fake-whoami"]);
  });
});

describe("bash: 100 MB of output", () => {
  const DELTA_PREFIX = '{"type":"bash_execution_update"';
  /** Peak resident set of a live process (Linux), in MB. */
  const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
  const lastBytes = (path: string, count: number) => {
    const fd = openSync(path, "r");
    const buffer = Buffer.alloc(count);
    readSync(fd, buffer, 0, count, statSync(path).size - count);
    closeSync(fd);
    return buffer.toString("utf8");
  };

  it.runIf(process.platform === "linux")(
    "keeps memory bounded while the client stalls; the tail, the deltas and the full file are right",
    async () => {
      const agentDir = tempDir("atomic-agent-");
      const tmp = tempDir("atomic-tmp-");
      dirs.push(agentDir, tmp);
      // A raw reader: RpcClient would hold all 100 MB of deltas in memory; this one only counts them.
      const child = spawn(NODE, [CLI, "--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"], {
        cwd: tmp,
        env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir, TMPDIR: tmp },
        stdio: ["pipe", "pipe", "inherit"],
      });
      const exited = new Promise((resolve) => child.once("exit", resolve));
      let deltaBytes = 0;
      let stalled = false;
      let pending: Buffer[] = [];
      const response = new Promise<any>((resolve) => {
        child.stdout.on("data", (chunk: Buffer) => {
          let start = 0;
          for (let newline = chunk.indexOf(10); newline >= 0; newline = chunk.indexOf(10, start)) {
            const line = Buffer.concat([...pending, chunk.subarray(start, newline)]);
            pending = [];
            start = newline + 1;
            if (line.toString("latin1", 0, DELTA_PREFIX.length) === DELTA_PREFIX) {
              deltaBytes += (JSON.parse(line.toString("utf8")).delta as string).length;
              if (!stalled) {
                // Stop reading for 2 s: only stdout backpressure keeps the agent from buffering the flood.
                stalled = true;
                child.stdout.pause();
                setTimeout(() => child.stdout.resume(), 2000);
              }
            } else resolve(JSON.parse(line.toString("utf8")));
          }
          if (start < chunk.length) pending.push(chunk.subarray(start));
        });
      });
      child.stdin.write(JSON.stringify({ id: "big", type: "bash", command: "yes abcdefghij | head -c 100000000" }) + "\n");
      const { data } = await response;
      const rss = peakRssMb(child.pid!);
      expect(rss).toBeLessThan(150);
      expect(deltaBytes).toBe(100_000_000);
      expect(data).toMatchObject({ exitCode: 0, cancelled: false, truncated: true });
      expect(data.output).toBe("abcdefghij\n".repeat(1999) + "a");
      expect(statSync(data.fullOutputPath).size).toBe(100_000_000);
      expect(lastBytes(data.fullOutputPath, 13)).toBe("\nabcdefghij\na");
      child.stdin.end();
      expect(await exited).toBe(0);
      expect(outputFiles(tmp)).toEqual([]);
    },
    60_000,
  );
});
