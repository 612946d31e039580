// bench/list-sessions: 1,000 session files (50 messages each) in one folder; list_sessions over the
// CLI cold (every file scanned), warm (size+mtime cache: a stat per file), after one file changed,
// and `--continue` startup vs a plain start. In-process, on the same bytes already in memory: the
// byte scan vs a JSON.parse of every line (what a listing that parses every entry costs).
import { mkdirSync, readdirSync, readFileSync, appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median, startAgent, tempDir } from "./lib.mjs";
import { scanSessionInfo } from "../dist/plugins/session-jsonl/session-info.js";

function encodeCwd(cwd) {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

function makeSessions(folder, count, messages) {
  mkdirSync(folder, { recursive: true });
  const answer = "This is a moderately long answer line that stands in for real model output. ".repeat(6);
  let bytes = 0;
  for (let s = 0; s < count; s++) {
    const id = `${String(s).padStart(8, "0")}-0000-4000-8000-000000000000`;
    const day = new Date(Date.UTC(2026, 0, 1) + s * 60_000);
    const lines = [JSON.stringify({ type: "session", version: 1, id, timestamp: day.toISOString(), cwd: "/bench" })];
    let parent = null;
    for (let i = 0; i < messages; i++) {
      const at = new Date(day.getTime() + i * 1000);
      const message =
        i % 2 === 0
          ? { role: "user", content: `question ${i} of session ${s}`, timestamp: at.getTime() }
          : { role: "assistant", content: [{ type: "text", text: answer }], api: "replay", provider: "replay", model: "demo", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: at.getTime() };
      const entryId = `${id.slice(0, 8)}${i.toString(16).padStart(4, "0")}`;
      lines.push(JSON.stringify({ type: "message", message, id: entryId, parentId: parent, timestamp: at.toISOString() }));
      parent = entryId;
    }
    const text = lines.join("\n") + "\n";
    bytes += text.length;
    writeFileSync(join(folder, `${day.toISOString().replace(/[:.]/g, "-")}_${id}.jsonl`), text);
  }
  return bytes;
}

/** CPU only (files read first): the scan vs parsing every line, median of `runs` after a warm-up pass. */
function scanVersusParse(folder, runs) {
  const buffers = readdirSync(folder).map((name) => readFileSync(join(folder, name)));
  const time = (fn) => {
    const t = performance.now();
    for (const buffer of buffers) fn(buffer);
    return performance.now() - t;
  };
  const scan = (buffer) => scanSessionInfo(buffer, "x", new Date());
  const parse = (buffer) => {
    for (const line of buffer.toString("utf8").split("\n")) if (line) JSON.parse(line);
  };
  const scans = [time(scan)];
  const parses = [time(parse)];
  for (let r = 0; r < runs; r++) (scans.push(time(scan)), parses.push(time(parse)));
  return { scanFirstMs: scans[0], scanMs: median(scans.slice(1)), parseMs: median(parses.slice(1)) };
}

function client(args, agentDir, cwd) {
  const waiting = new Map();
  let n = 0;
  const agent = startAgent(args, {
    agentDir,
    cwd,
    onLine: (line) => {
      const id = /^\{"id":"([^"]+)"/.exec(line)?.[1];
      if (id && waiting.has(id)) waiting.get(id)(line);
    },
  });
  const request = (command) =>
    new Promise((resolve) => {
      const id = `r${n++}`;
      const t = performance.now();
      waiting.set(id, (line) => resolve({ ms: performance.now() - t, line }));
      agent.send({ ...command, id });
    });
  return { agent, request };
}

export async function benchListSessions({ sessions = 1000, messages = 50, runs = 3 } = {}) {
  const agentDir = tempDir("atomic-bench-list-");
  const cwd = tempDir("atomic-bench-cwd-");
  const folder = join(agentDir, "sessions", encodeCwd(cwd));
  const bytes = makeSessions(folder, sessions, messages);
  const results = [];
  for (let r = 0; r < runs; r++) {
    const { agent, request } = client(["--mode", "rpc", "--no-session", "--provider", "replay", "--model", "demo"], agentDir, cwd);
    const ready = await request({ type: "get_state" });
    const cold = await request({ type: "list_sessions" });
    const warm = await request({ type: "list_sessions" });
    const files = readdirSync(folder);
    appendFileSync(join(folder, files[r]), JSON.stringify({ type: "session_info", name: `run ${r}`, id: `n${r}`, parentId: null, timestamp: new Date().toISOString() }) + "\n");
    const changed = await request({ type: "list_sessions" });
    agent.child.stdin.end();
    await agent.exited;
    const listed = JSON.parse(cold.line).data.sessions.length;
    if (listed !== sessions) throw new Error(`listed ${listed} of ${sessions} sessions`);
    const plain = client(["--mode", "rpc", "--no-session", "--provider", "replay", "--model", "demo"], agentDir, cwd);
    await plain.request({ type: "get_state" });
    const plainMs = performance.now() - plain.agent.t0;
    plain.agent.child.stdin.end();
    await plain.agent.exited;
    const resumed = client(["--mode", "rpc", "--continue"], agentDir, cwd);
    await resumed.request({ type: "get_state" });
    const continueMs = performance.now() - resumed.agent.t0;
    resumed.agent.child.stdin.end();
    await resumed.agent.exited;
    results.push({ cold: cold.ms, warm: warm.ms, changed: changed.ms, startup: ready.ms, plainMs, continueMs, responseBytes: cold.line.length });
  }
  const cpu = scanVersusParse(folder, runs);
  const med = (key, digits = 1) => +median(results.map((r) => r[key])).toFixed(digits);
  return {
    sessions,
    messagesPerSession: messages,
    totalMB: +(bytes / 1e6).toFixed(1),
    listColdMs: med("cold"),
    listWarmMs: med("warm"),
    listAfterOneChangeMs: med("changed"),
    responseKB: Math.round(results[0].responseBytes / 1024),
    startupPlainMs: med("plainMs"),
    startupContinueMs: med("continueMs"),
    inProcessScanFirstPassMs: +cpu.scanFirstMs.toFixed(1),
    inProcessScanMs: +cpu.scanMs.toFixed(1),
    inProcessParseEveryLineMs: +cpu.parseMs.toFixed(1),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchListSessions(), null, 2));
