// bench/list-sessions: 1,000 session files (50 messages each) in one folder; list_sessions over the
// CLI cold (every file scanned), warm (size+mtime cache: a stat per file), after one file changed,
// and `--continue` startup vs a plain start. In-process, on the same bytes already in memory: the
// byte scan vs a JSON.parse of every line (what a listing that parses every entry costs). Then one
// 200 MB session added: list_sessions' time and peak RSS, and the scan of that file in blocks vs
// read whole (each in a fresh process, peak RSS).
import { execFileSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, appendFileSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median, peakRssMb, startAgent, tempDir } from "./lib.mjs";
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
          : {
              role: "assistant",
              content: [{ type: "text", text: answer }],
              api: "replay",
              provider: "replay",
              model: "demo",
              usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
              stopReason: "stop",
              timestamp: at.getTime(),
            };
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
  for (let r = 0; r < runs; r++) scans.push(time(scan)), parses.push(time(parse));
  return { scanFirstMs: scans[0], scanMs: median(scans.slice(1)), parseMs: median(parses.slice(1)) };
}

/** From disk (page cache warm), 32 files at a time as the lister reads them: each file read whole vs in blocks, interleaved runs. */
async function wholeVersusBlocks(folder, runs) {
  const { readFile, stat } = await import("node:fs/promises");
  const { readSessionInfo } = await import("../dist/plugins/session-jsonl/session-info-file.js");
  const files = readdirSync(folder).map((name) => join(folder, name));
  const pass = async (one) => {
    const t = performance.now();
    for (let i = 0; i < files.length; i += 32) await Promise.all(files.slice(i, i + 32).map(one));
    return performance.now() - t;
  };
  const whole = async (file) => scanSessionInfo(await readFile(file), file, new Date());
  const blocks = async (file) => readSessionInfo(file, await stat(file));
  const w = [];
  const b = [];
  await pass(whole);
  await pass(blocks);
  for (let r = 0; r < runs * 2; r++) w.push(await pass(whole)), b.push(await pass(blocks));
  return { readWholeMs: +median(w).toFixed(1), inBlocksMs: +median(b).toFixed(1) };
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

/** A session of about `mb` MB: user questions and 500 KB tool results, written line by line. */
function makeBigSession(folder, mb) {
  const id = "b1600000-0000-4000-8000-000000000000";
  const file = join(folder, `2027-01-01T00-00-00-000Z_${id}.jsonl`);
  const fd = openSync(file, "w");
  const at = Date.UTC(2027, 0, 1);
  writeSync(fd, JSON.stringify({ type: "session", version: 1, id, timestamp: new Date(at).toISOString(), cwd: "/bench" }) + "\n");
  const output = "log line of a long tool result. ".repeat(16_000);
  let parent = null;
  for (let i = 0, written = 0; written < mb * 1e6; i++) {
    const message =
      i % 2 === 0
        ? { role: "user", content: `question ${i}`, timestamp: at + i }
        : { role: "toolResult", toolCallId: `t${i}`, toolName: "bash", content: [{ type: "text", text: output }], isError: false, timestamp: at + i };
    const entryId = i.toString(16).padStart(8, "0");
    written += writeSync(fd, JSON.stringify({ type: "message", message, id: entryId, parentId: parent, timestamp: new Date(at + i).toISOString() }) + "\n");
    parent = entryId;
  }
  closeSync(fd);
  return file;
}

/** One file's SessionInfo in a fresh process, in blocks or read whole: ms and peak RSS (MB). */
function scanInFreshProcess(file, how) {
  const script = `
    import { readFileSync, statSync } from "node:fs";
    import { performance } from "node:perf_hooks";
    import { readSessionInfo } from "./dist/plugins/session-jsonl/session-info-file.js";
    import { scanSessionInfo } from "./dist/plugins/session-jsonl/session-info.js";
    const t = performance.now();
    const info = ${how === "blocks" ? "await readSessionInfo(process.argv[1], statSync(process.argv[1]))" : "scanSessionInfo(readFileSync(process.argv[1]), process.argv[1], new Date())"};
    const ms = performance.now() - t;
    const peak = Number(/VmHWM:\\s+(\\d+)/.exec(readFileSync("/proc/self/status", "utf8"))[1]) / 1024;
    console.log(JSON.stringify({ ms, peak, count: info.messageCount }));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script, file], { cwd: new URL("..", import.meta.url), encoding: "utf8" });
  return JSON.parse(out);
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
  const fromDisk = await wholeVersusBlocks(folder, runs);

  const baselineRss = [];
  const big = [];
  for (let r = 0; r < runs; r++) {
    const { agent, request } = client(["--mode", "rpc", "--no-session", "--provider", "replay", "--model", "demo"], agentDir, cwd);
    await request({ type: "list_sessions" });
    baselineRss.push(peakRssMb(agent.child.pid));
    agent.child.stdin.end();
    await agent.exited;
  }
  const bigFile = makeBigSession(folder, 200);
  for (let r = 0; r < runs; r++) {
    const { agent, request } = client(["--mode", "rpc", "--no-session", "--provider", "replay", "--model", "demo"], agentDir, cwd);
    const listed = await request({ type: "list_sessions" });
    big.push({ ms: listed.ms, rss: peakRssMb(agent.child.pid) });
    agent.child.stdin.end();
    await agent.exited;
  }
  const blocks = [];
  const whole = [];
  for (let r = 0; r < runs; r++) blocks.push(scanInFreshProcess(bigFile, "blocks")), whole.push(scanInFreshProcess(bigFile, "whole"));
  const mb = (values) => +median(values).toFixed(0);
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
    inProcessFromDisk: fromDisk,
    listPeakRssMb: mb(baselineRss),
    bigSessionMB: 200,
    listWithBigColdMs: mb(big.map((b) => b.ms)),
    listWithBigPeakRssMb: mb(big.map((b) => b.rss)),
    bigFileInBlocks: { ms: mb(blocks.map((b) => b.ms)), peakRssMb: mb(blocks.map((b) => b.peak)) },
    bigFileReadWhole: { ms: mb(whole.map((b) => b.ms)), peakRssMb: mb(whole.map((b) => b.peak)) },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchListSessions(), null, 2));
