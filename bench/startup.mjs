// bench/startup: spawn -> response to get_state (sent immediately after spawn), N fresh processes.
import { performance } from "node:perf_hooks";
import { median, startAgent, tempDir } from "./lib.mjs";

export async function benchStartup(runs = 21) {
  const agentDir = tempDir("atomic-bench-startup-");
  const times = [];
  for (let i = 0; i < runs; i++) {
    let agent;
    const done = new Promise((resolve) => {
      agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"], {
        agentDir,
        onLine: (line) => line.includes('"command":"get_state"') && resolve(performance.now() - agent.t0),
      });
    });
    agent.send({ type: "get_state", id: 1 });
    times.push(await done);
    agent.child.stdin.end();
    await agent.exited;
  }
  return { runs, medianMs: +median(times).toFixed(1), minMs: +Math.min(...times).toFixed(1), maxMs: +Math.max(...times).toFixed(1) };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchStartup(Number(process.argv[2] ?? 21))));
