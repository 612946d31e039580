// bench/first-prompt: what an integrator's user waits for on the first prompt of a session, which
// is seldom sent at spawn: the client asks `get_state`, the user reads and types. Each run spawns
// the agent, waits `idleMs` after the `get_state` answer, prompts, and after `agent_end` prompts
// again; measured prompt -> first streamed `text_delta` for both prompts, in wall time and as the
// agent's main-thread CPU (/proc schedstat: steady on a loaded machine). The second prompt is the
// floor the first one would reach if nothing were left to load or compile for it.
// `node bench/first-prompt.mjs [RUNS] [IDLE_MS] [OTHER_CLI]` (OTHER_CLI: runs another build in turn).
import { rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { writeModelsJson } from "./fake-llm.mjs";
import { CLI, mainThreadTimes, median, startAgent, startFakeLlmProcess, tempDir } from "./lib.mjs";

const PROVIDERS = ["bench-openai", "bench-anthropic"];
const PROMPT = { type: "prompt", message: "Say hello." };

/** One session: { first, second } prompt -> first token, { ms, cpuMs } each. */
async function session(cli, agentDir, provider, idleMs) {
  const times = [];
  let agent;
  let sentAt;
  const send = () => {
    sentAt = { t: performance.now(), cpu: mainThreadTimes(agent.child.pid).cpuMs };
    agent.send(PROMPT);
  };
  const done = new Promise((resolve, reject) => {
    agent = startAgent(["--mode", "rpc", "--provider", provider, "--model", "hello", "--no-session"], {
      agentDir,
      cli,
      onLine: (line) => {
        if (line.includes('"command":"get_state"')) setTimeout(send, idleMs);
        else if (sentAt && line.startsWith('{"type":"message_update"') && line.includes('"assistantMessageEvent":{"type":"text_delta"')) {
          times.push({ ms: performance.now() - sentAt.t, cpuMs: mainThreadTimes(agent.child.pid).cpuMs - sentAt.cpu });
          sentAt = undefined;
        } else if (line.startsWith('{"type":"agent_end"')) {
          if (times.length === 0 || times.length > 2) reject(new Error(`no token streamed (${provider}): ${line.slice(0, 300)}`));
          else if (times.length === 1) setTimeout(send, 100);
          else resolve();
        }
      },
    });
  });
  agent.send({ type: "get_state", id: 1 });
  await done;
  agent.child.stdin.end();
  await agent.exited;
  return { first: times[0], second: times[1] };
}

export async function benchFirstPrompt({ runs = 11, idleMs = 1000, otherCli } = {}) {
  const agentDir = tempDir("atomic-bench-first-prompt-");
  const fake = await startFakeLlmProcess();
  try {
    writeModelsJson(agentDir, fake.url);
    const builds = { this: CLI, ...(otherCli ? { other: otherCli } : {}) };
    const runsOf = {};
    // One warm-up each: the code cache and the page cache are warm for the counted runs.
    for (const provider of PROVIDERS) for (const cli of Object.values(builds)) await session(cli, agentDir, provider, 0);
    for (let i = 0; i < runs; i++) {
      for (const provider of PROVIDERS) {
        for (const [name, cli] of Object.entries(builds)) (runsOf[`${provider} (${name})`] ??= []).push(await session(cli, agentDir, provider, idleMs));
      }
    }
    const stat = (list, which, key) => +median(list.map((run) => run[which][key])).toFixed(1);
    const out = { node: process.version, runs, idleMs };
    for (const [name, list] of Object.entries(runsOf)) {
      out[name] = {
        firstPromptMs: stat(list, "first", "ms"),
        firstPromptCpuMs: stat(list, "first", "cpuMs"),
        secondPromptMs: stat(list, "second", "ms"),
        secondPromptCpuMs: stat(list, "second", "cpuMs"),
      };
    }
    return out;
  } finally {
    fake.close();
    rmSync(agentDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [runs, idleMs, otherCli] = process.argv.slice(2);
  console.log(JSON.stringify(await benchFirstPrompt({ runs: Number(runs ?? 11), idleMs: Number(idleMs ?? 1000), otherCli }), null, 2));
}
