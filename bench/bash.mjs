// bench/bash: the user `bash` command over the built CLI. 100 MB of output (a reader that keeps
// up, and one that stalls 2 s so stdout backpressure has to hold the command back): time to the
// response, peak RSS of the agent, stdout volume. Cancel: abort_bash -> cancelled response for a
// process tree that exits on SIGTERM, and for one that ignores it (SIGKILL after the grace).
import { performance } from "node:perf_hooks";
import { median, peakRssMb, startAgent, tempDir } from "./lib.mjs";

const HUNDRED_MB = 100_000_000;
const ARGS = ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"];

/** Runs one `bash` request; `stallMs` pauses reading stdout after the first delta. */
async function runOnce(command, { stallMs = 0, abortAfterFirstDelta = false } = {}) {
  const agentDir = tempDir("atomic-bench-bash-");
  let agent;
  let sentAt = 0;
  let abortSentAt = 0;
  let deltas = 0;
  let stalled = false;
  const done = new Promise((resolve) => {
    agent = startAgent(ARGS, {
      agentDir,
      onLine: (line) => {
        if (line.startsWith('{"type":"bash_execution_update"')) {
          if (deltas++ === 0) {
            if (abortAfterFirstDelta) {
              abortSentAt = performance.now();
              agent.send({ type: "abort_bash", requestId: "b" });
            }
            if (stallMs > 0 && !stalled) {
              stalled = true;
              agent.child.stdout.pause();
              setTimeout(() => agent.child.stdout.resume(), stallMs);
            }
          }
        } else if (line.startsWith('{"id":"b"')) {
          resolve({ ms: performance.now() - (abortSentAt || sentAt), response: JSON.parse(line) });
        }
      },
    });
  });
  sentAt = performance.now();
  agent.send({ id: "b", type: "bash", command });
  const { ms, response } = await done;
  const rss = peakRssMb(agent.child.pid);
  const bytes = agent.stdoutBytes();
  agent.child.stdin.end();
  await agent.exited;
  return { ms, rss, bytes, deltas, response };
}

export async function benchBash({ runs = 3 } = {}) {
  const big = `yes abcdefghij | head -c ${HUNDRED_MB}`;
  const summarize = (results) => ({
    responseMs: Math.round(median(results.map((r) => r.ms))),
    peakRssMB: +median(results.map((r) => r.rss)).toFixed(1),
    stdoutMB: +(median(results.map((r) => r.bytes)) / 1e6).toFixed(1),
    deltas: median(results.map((r) => r.deltas)),
  });
  const fast = [];
  const slow = [];
  const cancelTerm = [];
  const cancelKill = [];
  for (let r = 0; r < runs; r++) {
    fast.push(await runOnce(big));
    slow.push(await runOnce(big, { stallMs: 2000 }));
    cancelTerm.push(await runOnce("sleep 30 & sleep 30 & echo started; wait", { abortAfterFirstDelta: true }));
    cancelKill.push(await runOnce("trap '' TERM; sleep 30 & echo started; wait", { abortAfterFirstDelta: true }));
  }
  for (const result of [...fast, ...slow]) {
    if (!result.response.data.truncated || result.response.data.exitCode !== 0) throw new Error(`unexpected result ${JSON.stringify(result.response).slice(0, 300)}`);
  }
  return {
    runs,
    output100MB: summarize(fast),
    output100MBReaderStalls2s: summarize(slow),
    cancelMs: Math.round(median(cancelTerm.map((r) => r.ms))),
    cancelIgnoringSigtermMs: Math.round(median(cancelKill.map((r) => r.ms))),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchBash({ runs: Number(process.argv[2] ?? 3) }), null, 2));
