// bench/stream: a 5,000-delta answer (replayed, so only Atomic's own cost is measured):
// prompt -> agent_end time, stdout bytes, peak RSS of the agent process; in the default format
// (each message_update carries the whole partial message) or with `messageUpdates: "delta"`.
import { performance } from "node:perf_hooks";
import { median, peakRssMb, startAgent, tempDir, writeCassette } from "./lib.mjs";

const WORDS = ["alpha ", "beta ", "gamma ", "delta ", "epsilon ", "zeta ", "eta ", "theta "];

export async function benchStream({ deltas = 5000, runs = 5, messageUpdates = "full" } = {}) {
  const agentDir = tempDir("atomic-bench-stream-");
  const events = [{ type: "text_start", contentIndex: 0 }];
  for (let i = 0; i < deltas; i++) events.push({ type: "text_delta", contentIndex: 0, delta: WORDS[i % WORDS.length] });
  events.push({ type: "text_end", contentIndex: 0 }, { type: "done", reason: "stop", usage: { input: 100, output: deltas } });
  writeCassette(agentDir, "long", [events]);
  const results = [];
  for (let r = 0; r < runs; r++) {
    let agent;
    let updates = 0;
    let sentAt = 0;
    const finished = new Promise((resolve) => {
      agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "long", "--no-session"], {
        agentDir,
        onLine: (line) => {
          if (line.startsWith('{"type":"message_update"')) updates++;
          else if (line.startsWith('{"type":"agent_end"')) resolve(performance.now() - sentAt);
        },
      });
    });
    // Immediate lane: in force before the prompt (ordinary lane) starts its run.
    if (messageUpdates !== "full") agent.send({ type: "set_event_options", messageUpdates });
    sentAt = performance.now();
    agent.send({ type: "prompt", message: "Write a long answer." });
    const ms = await finished;
    const rss = peakRssMb(agent.child.pid);
    const bytes = agent.stdoutBytes();
    agent.child.stdin.end();
    await agent.exited;
    if (updates !== deltas + 2) throw new Error(`expected ${deltas + 2} message_update events, saw ${updates}`);
    results.push({ ms, rss, bytes });
  }
  return {
    deltas,
    runs,
    messageUpdates,
    agentEndMs: +median(results.map((r) => r.ms)).toFixed(1),
    stdoutMB: +(median(results.map((r) => r.bytes)) / 1e6).toFixed(1),
    peakRssMB: +median(results.map((r) => r.rss)).toFixed(1),
  };
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await benchStream({ runs: Number(process.argv[2] ?? 5), messageUpdates: process.argv[3] ?? "full" })));
