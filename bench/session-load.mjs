// bench/session-load: a 100,000-entry session file; switch_session to it (load), then
// get_entries with a `since` near the end (cost should follow the entries returned) vs in full.
// `--resume <entries>`: a session of that many entries (1,000,000: about 270 MB) resumed through
// the built CLI, once at start-up (`--session <file>`) and once over RPC (`switch_session`): the
// time until the agent answers and its peak memory (VmHWM).
//
//   node bench/session-load.mjs                      the 100,000-entry load and get_entries
//   node bench/session-load.mjs --resume 1000000     the big resume
import { createWriteStream, statSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median, peakRssMb, startAgent, tempDir } from "./lib.mjs";

/** Writes `count` alternating user/assistant entries (streamed: a 1M-entry file never sits in memory); resolves to the id 11 entries before the end. */
async function makeSession(path, count) {
  const out = createWriteStream(path);
  const write = (line) => (out.write(`${line}\n`) ? undefined : new Promise((resolve) => out.once("drain", resolve)));
  await write(JSON.stringify({ type: "session", version: 1, id: "bench-session", timestamp: new Date(0).toISOString(), cwd: "/tmp" }));
  let parent = null;
  for (let i = 0; i < count; i++) {
    const id = i.toString(16).padStart(8, "0");
    const message =
      i % 2 === 0
        ? { role: "user", content: `question ${i}`, timestamp: i }
        : {
            role: "assistant",
            content: [{ type: "text", text: `answer ${i}` }],
            api: "replay",
            provider: "replay",
            model: "demo",
            usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
            stopReason: "stop",
            timestamp: i,
          };
    await write(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(i).toISOString(), message }));
    parent = id;
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
  return (count - 11).toString(16).padStart(8, "0");
}

export async function benchSessionLoad({ entries = 100_000, runs = 3 } = {}) {
  const agentDir = tempDir("atomic-bench-session-");
  const file = join(agentDir, "big.jsonl");
  const since = await makeSession(file, entries);
  const results = [];
  for (let r = 0; r < runs; r++) {
    const waiting = new Map();
    const agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "demo", "--session-dir", join(agentDir, "sessions")], {
      agentDir,
      onLine: (line) => {
        const id = /^\{"id":"([^"]+)"/.exec(line)?.[1];
        if (id && waiting.has(id)) waiting.get(id)(line);
      },
    });
    const request = (command) =>
      new Promise((resolve) => {
        const id = `r${waiting.size}`;
        const t = performance.now();
        waiting.set(id, (line) => resolve({ ms: performance.now() - t, bytes: line.length, ok: line.includes('"success":true') }));
        agent.send({ ...command, id });
      });
    await request({ type: "get_state" });
    const load = await request({ type: "switch_session", sessionPath: file });
    const tail = await request({ type: "get_entries", since });
    const full = await request({ type: "get_entries" });
    agent.child.stdin.end();
    await agent.exited;
    if (!load.ok || !tail.ok || !full.ok) throw new Error("a session command failed");
    results.push({ load: load.ms, tail: tail.ms, full: full.ms, tailBytes: tail.bytes, fullBytes: full.bytes });
  }
  return {
    entries,
    switchSessionMs: +median(results.map((r) => r.load)).toFixed(1),
    getEntriesSinceMs: +median(results.map((r) => r.tail)).toFixed(2),
    getEntriesSinceBytes: results[0].tailBytes,
    getEntriesAllMs: +median(results.map((r) => r.full)).toFixed(1),
    getEntriesAllMB: +(results[0].fullBytes / 1e6).toFixed(1),
  };
}

/** One agent: `args` to start it, then `commands` in order; per command the ms until its answer and the answer; the agent's peak RSS at the end. */
async function drive(agentDir, args, commands) {
  const waiting = new Map();
  const agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "demo", ...args], {
    agentDir,
    onLine: (line) => {
      const id = /^\{"id":"([^"]+)"/.exec(line)?.[1];
      if (id && waiting.has(id)) waiting.get(id)(line);
    },
  });
  const exited = agent.exited.then((code) => {
    throw new Error(`the agent exited (${code}) before answering`);
  });
  const answers = [];
  for (const [index, command] of commands.entries()) {
    const id = `c${index}`;
    const sent = performance.now();
    const line = await Promise.race([new Promise((resolve) => (waiting.set(id, resolve), agent.send({ ...command, id }))), exited]);
    const answer = JSON.parse(line);
    if (!answer.success) throw new Error(`${command.type} failed: ${answer.error}`);
    answers.push({ ms: performance.now() - sent, sinceSpawnMs: performance.now() - agent.t0, data: answer.data });
  }
  const peakMb = peakRssMb(agent.child.pid);
  agent.child.stdin.end();
  await agent.exited;
  return { answers, peakMb };
}

/** A session of `entries` entries resumed at start-up (`--session`) and over RPC (`switch_session`). */
export async function benchSessionResume({ entries = 1_000_000 } = {}) {
  const agentDir = tempDir("atomic-bench-resume-");
  const file = join(agentDir, "big.jsonl");
  const t = performance.now();
  await makeSession(file, entries);
  const writeMs = performance.now() - t;
  const sessions = ["--session-dir", join(agentDir, "sessions")];
  const atStart = await drive(agentDir, [...sessions, "--session", file], [{ type: "get_state" }]);
  const overRpc = await drive(agentDir, sessions, [{ type: "get_state" }, { type: "switch_session", sessionPath: file }, { type: "get_state" }]);
  const counted = [atStart.answers[0].data.messageCount, overRpc.answers[2].data.messageCount];
  if (counted.some((count) => count !== entries)) throw new Error(`resumed ${counted.join(" and ")} messages, expected ${entries}`);
  return {
    entries,
    fileMB: +(statSync(file).size / 1e6).toFixed(0),
    writeSeconds: +(writeMs / 1000).toFixed(1),
    sessionFlag: { firstAnswerSeconds: +(atStart.answers[0].sinceSpawnMs / 1000).toFixed(1), peakRssMB: Math.round(atStart.peakMb) },
    switchSession: { seconds: +(overRpc.answers[1].ms / 1000).toFixed(1), peakRssMB: Math.round(overRpc.peakMb) },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const resume = process.argv.indexOf("--resume");
  console.log(JSON.stringify(resume >= 0 ? await benchSessionResume({ entries: Number(process.argv[resume + 1] ?? 1_000_000) }) : await benchSessionLoad()));
}
