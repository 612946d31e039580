// bench/many-agents: a server hosting many users' agents. N agents in one process through the
// SDK against N `atomic --mode rpc` processes, every agent answering one prompt from a loopback
// OpenAI-compatible server (real HTTP, the official SDK), all at once. Reported: time to create
// them, time until every one has settled, and memory (heap per idle agent in one process, RSS of
// the processes). The in-process part runs in a fresh `node --expose-gc` child, so its heap
// figures are its own. Then the same host's siblings (bench/siblings.mjs: what ACP and a server
// open), plain and with extensions, MCP servers or grep: what each costs and what opening one does
// to another agent's stream. Usage: node bench/many-agents.mjs [agents=100] [processes=agents] [siblings=20]
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { EXPECTED_TEXT, spawnFakeOpenAi, startFakeOpenAi, writeBenchModels } from "./fake-openai.mjs";
import { startAgent, tempDir } from "./lib.mjs";
import { benchSiblings } from "./siblings.mjs";

const SELF = fileURLToPath(import.meta.url);
// The SDK as the package exports it (the bundled entry).
const SDK = new URL(`../${JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).exports["./sdk"].import}`, import.meta.url).href;
const MB = 1024 * 1024;
const round = (value, digits = 1) => +value.toFixed(digits);
const silent = { info() {}, warn() {}, error() {} };

export async function benchManyAgents({ agents = 100, processes = agents, siblings = 20 } = {}) {
  const child = execFileSync(process.execPath, ["--expose-gc", SELF, "--in-process", String(agents)], { encoding: "utf8", maxBuffer: 16 * MB });
  return { inProcess: JSON.parse(child), processes: await benchProcesses(processes), siblings: benchSiblings({ siblings }) };
}

/** Resolves once `agent` has answered one prompt and settled; checks the answer. */
async function promptAndSettle(agent) {
  const settled = new Promise((resolve) => {
    const unsubscribe = agent.subscribe((event) => event.type === "agent_settled" && (unsubscribe(), resolve()));
  });
  const accepted = await agent.send({ type: "prompt", message: "Say hello." });
  if (!accepted.success) throw new Error(`prompt refused: ${accepted.error}`);
  await settled;
  const answer = await agent.send({ type: "get_last_assistant_text" });
  if (answer.data?.text !== EXPECTED_TEXT) throw new Error(`unexpected answer: ${JSON.stringify(answer)}`);
}

async function inProcess(count) {
  const gc = globalThis.gc;
  if (!gc) throw new Error("run with --expose-gc");
  // The server runs in its own process: the CPU time measured here is the agents' alone.
  const fake = await spawnFakeOpenAi();
  const agentDir = tempDir("atomic-bench-many-");
  writeBenchModels(agentDir, fake.url);
  const { createAgent } = await import(SDK);
  const options = { cwd: agentDir, agentDir, provider: "bench", model: "bench-1", session: false, settingsFiles: false, env: {}, log: silent };
  const open = async () => {
    const agent = await createAgent(options);
    await agent.send({ type: "set_event_options", agentSettled: true });
    return agent;
  };
  // The first agent loads the code (plugins, the OpenAI SDK): measured apart, then disposed.
  let t = performance.now();
  const first = await open();
  await promptAndSettle(first);
  const firstAgentMs = performance.now() - t;
  await first.dispose();

  gc();
  const heap0 = process.memoryUsage().heapUsed;
  const rss0 = process.memoryUsage().rss;
  t = performance.now();
  const agents = [];
  for (let i = 0; i < count; i++) agents.push(await open());
  const createMs = performance.now() - t;
  gc();
  const idle = process.memoryUsage();

  t = performance.now();
  const cpu = process.cpuUsage();
  await Promise.all(agents.map(promptAndSettle));
  const answerMs = performance.now() - t;
  const answerCpu = process.cpuUsage(cpu);
  gc();
  const answered = process.memoryUsage();

  t = performance.now();
  await Promise.all(agents.map((agent) => agent.dispose()));
  const disposeMs = performance.now() - t;
  agents.length = 0;
  const requests = await fake.requests();
  if (requests !== count + 1) throw new Error(`expected ${count + 1} requests, saw ${requests}`);
  // The server goes first: its keep-alive connections (and the client pool's) are not the agents'.
  await fake.close();
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const disposed = process.memoryUsage();
  return {
    agents: count,
    firstAgentMs: round(firstAgentMs),
    createAllMs: round(createMs),
    createPerAgentMs: round(createMs / count, 2),
    answerAllMs: round(answerMs),
    // CPU time of the agents' process meanwhile (the server runs apart; wall time varies with the machine's load).
    answerAllCpuMs: round((answerCpu.user + answerCpu.system) / 1000),
    heapPerIdleAgentMb: round((idle.heapUsed - heap0) / count / MB, 2),
    heapPerAnsweredAgentMb: round((answered.heapUsed - heap0) / count / MB, 2),
    rssPerAgentMb: round((idle.rss - rss0) / count / MB, 2),
    processRssMb: round(answered.rss / MB),
    disposeAllMs: round(disposeMs),
    // What stays once every agent is disposed and dropped (nothing of theirs should).
    heapLeftAfterDisposeMb: round((disposed.heapUsed - heap0) / MB, 2),
  };
}

function rssMb(pid, field = "VmRSS") {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

async function benchProcesses(count) {
  const fake = await startFakeOpenAi();
  const agentDir = tempDir("atomic-bench-many-proc-");
  writeBenchModels(agentDir, fake.url);
  const t0 = performance.now();
  const agents = Array.from({ length: count }, () => {
    const waiting = new Map();
    const agent = startAgent(["--mode", "rpc", "--provider", "bench", "--model", "bench-1", "--no-session"], {
      agentDir,
      onLine: (line) => {
        for (const [marker, resolve] of waiting) if (line.includes(marker)) waiting.delete(marker), resolve();
      },
    });
    agent.when = (marker) => new Promise((resolve) => waiting.set(marker, resolve));
    return agent;
  });
  await Promise.all(
    agents.map((agent) => {
      const ready = agent.when('"command":"get_state"');
      agent.send({ type: "set_event_options", agentSettled: true });
      agent.send({ type: "get_state", id: "ready" });
      return ready;
    }),
  );
  const readyMs = performance.now() - t0;
  const idleRss = agents.reduce((sum, agent) => sum + rssMb(agent.child.pid), 0);
  const t1 = performance.now();
  await Promise.all(
    agents.map((agent) => {
      const settled = agent.when('"type":"agent_settled"');
      agent.send({ type: "prompt", message: "Say hello." });
      return settled;
    }),
  );
  const answerMs = performance.now() - t1;
  const peakRss = agents.reduce((sum, agent) => sum + rssMb(agent.child.pid, "VmHWM"), 0);
  for (const agent of agents) agent.child.stdin.end();
  await Promise.all(agents.map((agent) => agent.exited));
  await fake.close();
  if (fake.requests() !== count) throw new Error(`expected ${count} requests, saw ${fake.requests()}`);
  return {
    processes: count,
    spawnAllToReadyMs: round(readyMs),
    answerAllMs: round(answerMs),
    idleRssTotalMb: round(idleRss),
    idleRssPerProcessMb: round(idleRss / count),
    peakRssTotalMb: round(peakRss),
  };
}

if (process.argv[2] === "--in-process") {
  process.stdout.write(JSON.stringify(await inProcess(Number(process.argv[3]))));
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const agents = Number(process.argv[2] ?? 100);
  console.log(JSON.stringify(await benchManyAgents({ agents, processes: Number(process.argv[3] ?? agents), siblings: Number(process.argv[4] ?? 20) }), null, 2));
}
