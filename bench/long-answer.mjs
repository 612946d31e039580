// bench/long-answer: a 5,000-delta answer from an OpenAI-compatible provider through the real SDK
// over HTTP (the loopback fake LLM in bench/fake-llm.mjs), one fresh process per run: prompt ->
// `agent_end` time, stdout bytes and the agent's peak RSS. Unlike bench/stream (replay provider,
// Atomic's own cost only), this includes the SDK, the HTTP client and the SSE parsing.
// `messageUpdates` is passed to `set_event_options` first when given ("delta" / "full").
import { rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { writeModelsJson } from "./fake-llm.mjs";
import { mainThreadTimes, median, peakRssMb, startAgent, startFakeLlmProcess, tempDir } from "./lib.mjs";

const DELTAS = 5000;

async function oneRun(agentDir, provider, messageUpdates) {
  let agent;
  let updates = 0;
  let sentAt = 0;
  let atPrompt = { cpuMs: 0, waitMs: 0 };
  let cpuMs = 0;
  let waitMs = 0;
  const prompt = () => {
    sentAt = performance.now();
    atPrompt = mainThreadTimes(agent.child.pid);
    agent.send({ type: "prompt", message: "Write a long answer." });
  };
  const finished = new Promise((resolve, reject) => {
    agent = startAgent(["--mode", "rpc", "--provider", provider, "--model", "long", "--no-session"], {
      agentDir,
      onLine: (line) => {
        if (line.startsWith('{"type":"message_update"')) updates++;
        else if (line.startsWith('{"type":"agent_end"')) {
          const now = mainThreadTimes(agent.child.pid);
          cpuMs = now.cpuMs - atPrompt.cpuMs;
          waitMs = now.waitMs - atPrompt.waitMs;
          resolve(performance.now() - sentAt);
        } else if (line.startsWith('{"type":"response","command":"set_event_options"')) {
          if (line.includes('"success":false')) reject(new Error(`set_event_options failed: ${line}`));
          else prompt();
        }
      },
    });
  });
  if (messageUpdates) agent.send({ type: "set_event_options", messageUpdates });
  else prompt();
  const ms = await finished;
  const rss = peakRssMb(agent.child.pid);
  const bytes = agent.stdoutBytes();
  agent.child.stdin.end();
  await agent.exited;
  // text_start, the deltas, text_end (the fake server's first chunk has empty content).
  if (updates !== DELTAS + 2) throw new Error(`expected ${DELTAS + 2} message_update events, saw ${updates}`);
  return { ms, rss, bytes, cpuMs, waitMs };
}

export async function benchLongAnswer({ runs = 5, provider = "bench-openai", messageUpdates } = {}) {
  const agentDir = tempDir("atomic-bench-long-answer-");
  const fake = await startFakeLlmProcess();
  try {
    writeModelsJson(agentDir, fake.url);
    const results = [];
    for (let r = 0; r < runs; r++) results.push(await oneRun(agentDir, provider, messageUpdates));
    const pick = (key) => results.map((result) => result[key]);
    return {
      provider,
      messageUpdates: messageUpdates ?? "default",
      deltas: DELTAS,
      runs,
      agentEndMs: +median(pick("ms")).toFixed(1),
      // The agent's main thread on a CPU from the prompt to agent_end (the loaded-machine measure).
      mainThreadCpuMs: +median(pick("cpuMs")).toFixed(1),
      // Runnable but waiting for a CPU (the fake server and this client share the machine).
      mainThreadWaitMs: +median(pick("waitMs")).toFixed(1),
      stdoutMB: +(median(pick("bytes")) / 1e6).toFixed(1),
      peakRssMB: +median(pick("rss")).toFixed(1),
      peakRssMaxMB: +Math.max(...pick("rss")).toFixed(1),
    };
  } finally {
    fake.close();
    rmSync(agentDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [runs = "5", messageUpdates] = process.argv.slice(2);
  console.log(JSON.stringify(await benchLongAnswer({ runs: Number(runs), messageUpdates })));
}
