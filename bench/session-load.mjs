// bench/session-load: a 100,000-entry session file; switch_session to it (load), then
// get_entries with a `since` near the end (cost should follow the entries returned) vs in full.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median, startAgent, tempDir } from "./lib.mjs";

function makeSession(path, count) {
  const lines = [JSON.stringify({ type: "session", version: 1, id: "bench-session", timestamp: new Date(0).toISOString(), cwd: "/tmp" })];
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
    lines.push(JSON.stringify({ type: "message", id, parentId: parent, timestamp: new Date(i).toISOString(), message }));
    parent = id;
  }
  writeFileSync(path, lines.join("\n") + "\n");
  return (count - 11).toString(16).padStart(8, "0");
}

export async function benchSessionLoad({ entries = 100_000, runs = 3 } = {}) {
  const agentDir = tempDir("atomic-bench-session-");
  const file = join(agentDir, "big.jsonl");
  const since = makeSession(file, entries);
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

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchSessionLoad()));
