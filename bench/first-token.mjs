// bench/first-token: a cold start end to end, through the real SDKs over HTTP to the loopback
// fake LLM. One fresh process per run: spawn, `get_state` written at once, the prompt written
// right after its response; measured spawn -> `get_state` response and spawn -> first streamed
// token (`message_update` with a `text_delta`). The OpenAI-compatible and Anthropic providers
// alternate run by run, each pair followed by a bare `node` process that answers one line (the
// floor any Node program pays here): on a loaded machine the ratio to it is the steadier figure.
// `mainThread` splits spawn -> first token of the agent's main thread into CPU time and time spent
// waiting for a CPU (other processes); `pageFaultsToFirstToken` counts the pages it touched first.
// `node bench/first-token.mjs [RUNS] [OTHER_CLI]` also runs another build in turn with this one
// (A B A B ...) and prints the ratio pair by pair (the machine's load drifts).
import { rmSync } from "node:fs";
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { writeModelsJson } from "./fake-llm.mjs";
import { CLI, mainThreadTimes, median, minorFaults, startAgent, startFakeLlmProcess, tempDir } from "./lib.mjs";

const PROVIDERS = ["bench-openai", "bench-anthropic"];

/** One cold start: { getStateMs, firstTokenMs } from spawn. */
async function coldStart(cli, agentDir, provider, node = process.execPath) {
  let agent;
  const times = {};
  const done = new Promise((resolve, reject) => {
    agent = startAgent(["--mode", "rpc", "--provider", provider, "--model", "hello", "--no-session"], {
      agentDir,
      cli,
      node,
      onLine: (line) => {
        if (times.getStateMs === undefined && line.includes('"command":"get_state"')) {
          times.getStateMs = performance.now() - agent.t0;
          agent.send({ type: "prompt", message: "Say hello." });
        } else if (times.firstTokenMs === undefined && line.startsWith('{"type":"message_update"') && line.includes('"assistantMessageEvent":{"type":"text_delta"')) {
          times.firstTokenMs = performance.now() - agent.t0;
          const { cpuMs, waitMs } = mainThreadTimes(agent.child.pid);
          times.firstTokenCpuMs = cpuMs;
          times.firstTokenWaitMs = waitMs;
          times.firstTokenFaults = minorFaults(agent.child.pid);
        } else if (line.startsWith('{"type":"agent_end"')) {
          if (times.firstTokenMs === undefined) reject(new Error(`no token streamed (${provider}): ${line.slice(0, 300)}`));
          else resolve();
        }
      },
    });
  });
  agent.send({ type: "get_state", id: 1 });
  await done;
  agent.child.stdin.end();
  await agent.exited;
  return times;
}

/** spawn -> the answer of a bare node process to one line. */
async function bareNode(node = process.execPath) {
  const t0 = performance.now();
  const child = spawn(node, ["-e", 'process.stdin.once("data", () => process.stdout.write("{}\\n"))'], { stdio: ["pipe", "pipe", "inherit"] });
  let faults = NaN;
  const answered = new Promise((resolve) =>
    child.stdout.once("data", () => {
      const ms = performance.now() - t0;
      faults = minorFaults(child.pid);
      resolve(ms);
    }),
  );
  child.stdin.write('{"type":"get_state"}\n');
  const ms = await answered;
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  return { ms, faults };
}

function summary(runs) {
  const pick = (key) => runs.map((run) => run[key]);
  const stat = (values) => ({ median: +median(values).toFixed(1), min: +Math.min(...values).toFixed(1), max: +Math.max(...values).toFixed(1) });
  return {
    getStateMs: stat(pick("getStateMs")),
    firstTokenMs: stat(pick("firstTokenMs")),
    // Spawn -> first token on the agent's main thread: on a CPU, and runnable but waiting for one.
    mainThread: { cpuMs: stat(pick("firstTokenCpuMs")), waitForCpuMs: stat(pick("firstTokenWaitMs")) },
    // Minor page faults of the whole process up to the first token (kernel time callgrind misses).
    pageFaultsToFirstToken: stat(pick("firstTokenFaults")),
  };
}

/** `node`: the Node binary of the agent and of the bare process (default: this one). */
export async function benchFirstToken({ runs = 21, otherCli, node = process.execPath } = {}) {
  const agentDir = tempDir("atomic-bench-first-token-");
  const fake = await startFakeLlmProcess();
  try {
    writeModelsJson(agentDir, fake.url);
    const results = {};
    const ratios = {};
    const bare = [];
    const bareFaults = [];
    for (const provider of PROVIDERS) {
      results[provider] = [];
      if (otherCli) (results[`${provider} (other)`] = []), (ratios[provider] = []);
    }
    // One warm-up of each, so the page cache and the fake server are warm for the first counted run.
    for (const provider of PROVIDERS) await coldStart(CLI, agentDir, provider, node);
    for (let i = 0; i < runs; i++) {
      for (const provider of PROVIDERS) {
        const run = await coldStart(CLI, agentDir, provider, node);
        results[provider].push(run);
        if (!otherCli) continue;
        const other = await coldStart(otherCli, agentDir, provider, node);
        results[`${provider} (other)`].push(other);
        ratios[provider].push(run.firstTokenMs / other.firstTokenMs);
      }
      const floor = await bareNode(node);
      bare.push(floor.ms);
      bareFaults.push(floor.faults);
    }
    const out = { node: node === process.execPath ? process.version : node, runs, bareNodeMs: +median(bare).toFixed(1), bareNodePageFaults: median(bareFaults) };
    for (const [name, list] of Object.entries(results)) {
      out[name] = summary(list);
      // Per-run ratios to the bare node run of the same round.
      const toBare = (key) => +median(list.map((run, i) => run[key] / bare[i])).toFixed(2);
      out[name].xBareNode = { getState: toBare("getStateMs"), firstToken: toBare("firstTokenMs") };
    }
    for (const [provider, list] of Object.entries(ratios)) out[`${provider} firstToken ratio (this/other, paired median)`] = +median(list).toFixed(3);
    return out;
  } finally {
    fake.close();
    rmSync(agentDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchFirstToken({ runs: Number(process.argv[2] ?? 21), otherCli: process.argv[3] }), null, 2));
}
