// bench/export-html: export_html of a 100,000-entry session (half user, half assistant messages
// with markdown and a tool call each), end to end through the CLI: wall time, CPU time of the
// agent process (all its threads; steadier than wall time on a shared machine), and the longest
// the event loop was blocked meanwhile, measured by an immediate-lane `abort` sent every 50 ms.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median, startAgent, tempDir } from "./lib.mjs";

const TS = "2026-01-01T00:00:00.000Z";

function makeSession(path, count) {
  const id = (i) => i.toString(16).padStart(8, "0");
  const lines = [JSON.stringify({ type: "session", version: 1, id: "bench-export", timestamp: TS, cwd: "/tmp" })];
  for (let i = 0; i < count; i++) {
    const message =
      i % 2 === 0
        ? { role: "user", content: `question ${i} <b>&</b>`, timestamp: i }
        : {
            role: "assistant",
            content: [
              { type: "text", text: `answer ${i} with **markdown**` },
              { type: "toolCall", id: `c${i}`, name: "read", arguments: { path: "a.ts" } },
            ],
            api: "replay",
            provider: "replay",
            model: "demo",
            usage: { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 } },
            stopReason: "stop",
            timestamp: i,
          };
    lines.push(JSON.stringify({ type: "message", id: id(i), parentId: i === 0 ? null : id(i - 1), timestamp: TS, message }));
  }
  writeFileSync(path, lines.join("\n") + "\n");
}

/** User + system CPU time so far, in ms, of a live process or (with `tid`) one of its threads (Linux /proc, 100 ticks/s). */
function cpuMs(pid, tid) {
  const path = tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`;
  const fields = readFileSync(path, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function benchExportHtml({ entries = 100_000, runs = 3 } = {}) {
  const agentDir = tempDir("atomic-bench-export-");
  const file = join(agentDir, "big.jsonl");
  makeSession(file, entries);
  const waiting = new Map();
  let next = 0;
  const agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "demo", "--session-dir", join(agentDir, "sessions")], {
    agentDir,
    onLine: (line) => {
      const id = /^\{"id":"([^"]+)"/.exec(line)?.[1];
      if (id && waiting.has(id)) waiting.get(id)(line), waiting.delete(id);
    },
  });
  const request = (command) =>
    new Promise((resolve) => {
      const id = `r${next++}`;
      const t = performance.now();
      waiting.set(id, (line) => resolve({ ms: performance.now() - t, ok: line.includes('"success":true') }));
      agent.send({ ...command, id });
    });
  await request({ type: "get_state" });
  if (!(await request({ type: "switch_session", sessionPath: file })).ok) throw new Error("switch_session failed");
  const results = [];
  for (let r = 0; r < runs; r++) {
    let done = false;
    let blocked = 0;
    const pings = (async () => {
      while (!done) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        blocked = Math.max(blocked, (await request({ type: "abort" })).ms);
      }
    })();
    const pid = agent.child.pid;
    const [cpuBefore, mainBefore] = [cpuMs(pid), cpuMs(pid, pid)];
    const exported = await request({ type: "export_html", outputPath: join(agentDir, `out-${r}.html`) });
    const cpu = cpuMs(pid) - cpuBefore;
    const mainThread = cpuMs(pid, pid) - mainBefore; // the event loop's thread
    done = true;
    await pings;
    if (!exported.ok) throw new Error("export_html failed");
    results.push({ ms: exported.ms, cpu, mainThread, blocked });
  }
  agent.child.stdin.end();
  await agent.exited;
  return {
    entries,
    exportMs: Math.round(median(results.map((r) => r.ms))),
    cpuMs: Math.round(median(results.map((r) => r.cpu))),
    mainThreadCpuMs: Math.round(median(results.map((r) => r.mainThread))),
    longestLoopBlockMs: Math.round(median(results.map((r) => r.blocked))),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchExportHtml()));
