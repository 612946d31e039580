// bench/serve: `atomic serve` (issue 34) side by side with `atomic --mode rpc` processes in one
// run, every agent answering from a loopback OpenAI-compatible server in its own process, every
// client on a real socket or pipe. Parts:
//   memory     RSS per idle agent: N agents in one server vs P processes (each process's RSS)
//   open       agent_open to the first get_state answer vs a process spawned to its first answer
//   streaming  S agents streaming at once (200 words each, one every 10 ms, each word the time it
//              was sent): every one finishes? the delay of each word at the client (p50/p99/max),
//              in one server and in S processes
//   fanout     one agent's long answer (4,000 words at once) to 1 client, then to 10: events per second
//   stalled    the same answer to a reading client alone, then beside a client that never reads:
//              the reader's time, and the server's memory (the stalled one is cut at 8 MiB)
//   extensions two real pi packages loaded: RSS per idle agent, agent_open time, and the longest
//              gap in another agent's stream while one more agent opens (against a window without)
// Usage: node bench/serve.mjs [agents=100] [processes=20] [streams=50] [fanout=10] [part...]
import { cpSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnFakeOpenAi } from "./fake-openai.mjs";
import { median, tempDir } from "./lib.mjs";
import { memoryOf, now, openClient, percentile, round, rpcProcess, stampDelay, startServer, writeServeModels } from "./serve-lib.mjs";

export const PARTS = ["memory", "open", "streaming", "fanout", "stalled", "extensions"];
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const PI_PACKAGES = (process.env.ATOMIC_BENCH_PI_PACKAGES ?? "@aliou/pi-processes,pi-mcp-adapter").split(",");
const KEPT_TRANSPILE_CACHE = join(tmpdir(), "atomic-bench-siblings-jiti");
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const BENCH = ["--provider", "bench", "--model", "bench-1"];

export async function benchServe({ agents = 100, processes = 20, streams = 50, fanout = 10, parts = PARTS } = {}) {
  const fake = await spawnFakeOpenAi();
  const results = {};
  try {
    const run = {
      memory: () => memory(fake, agents, processes),
      open: () => open(fake),
      streaming: () => streaming(fake, streams),
      fanout: () => fanOut(fake, fanout),
      stalled: () => stalled(fake),
      extensions: () => extensions(fake),
    };
    for (const part of parts) {
      process.stderr.write(`bench/serve: ${part}\n`);
      results[part] = await run[part]();
    }
  } finally {
    await fake.close();
  }
  return results;
}

async function serverWith(fake, args = BENCH, settings) {
  const agentDir = tempDir("atomic-bench-serve-");
  writeServeModels(agentDir, fake.url);
  // Past the default limit of 32 loaded agents: the memory and streaming parts open 100 and 50.
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ ...settings, serve: { maxAgents: 1_000 } }));
  const server = await startServer({ agentDir, args });
  return { agentDir, server, client: await openClient(server.socket) };
}

/** Resolves when `client` has seen agent_settled for `agent` (undefined: any agent, from a process). */
function settled(client, agent) {
  return new Promise((resolve) => {
    const off = client.onRecord((record) => record.type === "agent_settled" && (agent === undefined || record.agent === agent) && (off(), resolve()));
  });
}

async function memory(fake, agents, processes) {
  const { agentDir, server, client } = await serverWith(fake);
  // One agent opened and closed first: code every agent runs is loaded.
  const warm = await client.ok({ type: "agent_open" });
  await client.ok({ type: "get_state", agent: warm.agent });
  await client.ok({ type: "agent_close", agent: warm.agent });
  await sleep(500);
  const base = server.memory().rssMb;
  for (let i = 0; i < agents; i++) await client.ok({ type: "agent_open" });
  await sleep(1_000);
  const total = server.memory().rssMb;
  await server.stop();
  const children = [];
  for (let i = 0; i < processes; i += 5) {
    const batch = Array.from({ length: Math.min(5, processes - i) }, () => rpcProcess(BENCH, agentDir));
    await Promise.all(batch.map((child) => child.ready));
    children.push(...batch);
  }
  await sleep(1_000);
  const rss = children.map((child) => memoryOf(child.pid).rssMb);
  await Promise.all(children.map((child) => child.stop()));
  const perProcess = median(rss);
  return {
    agents,
    server: { baseMb: round(base), totalMb: round(total), perAgentMb: round((total - base) / agents, 2) },
    processes: { count: processes, medianRssMb: round(perProcess) },
    serverOverProcesses: round(total / (perProcess * agents), 4),
  };
}

async function open(fake, runs = 20, spawns = 7) {
  const { server, client } = await serverWith(fake);
  await client.ok({ type: "agent_close", agent: (await client.ok({ type: "agent_open" })).agent });
  const opened = [];
  for (let i = 0; i < runs; i++) {
    const t = now();
    const { agent } = await client.ok({ type: "agent_open" });
    await client.ok({ type: "get_state", agent });
    opened.push(now() - t);
  }
  await server.stop();
  const agentDir = tempDir("atomic-bench-serve-");
  writeServeModels(agentDir, fake.url);
  const spawned = [];
  for (let i = 0; i < spawns; i++) {
    const t = now();
    const child = rpcProcess(BENCH, agentDir);
    await child.ready;
    spawned.push(now() - t);
    await child.stop();
  }
  return { agentOpenMs: round(median(opened)), processSpawnMs: round(median(spawned)), ratio: round(median(opened) / median(spawned), 3) };
}

function delays(into) {
  return (record) => {
    const delay = stampDelay(record, now());
    if (delay !== undefined) into.push(delay);
  };
}

const summary = (values, wallMs, finished) => ({
  finished,
  words: values.length,
  p50Ms: round(percentile(values, 50)),
  p99Ms: round(percentile(values, 99)),
  maxMs: round(Math.max(...values)),
  wallMs: Math.round(wallMs),
});

async function streaming(fake, count) {
  const { server, client } = await serverWith(fake, ["--provider", "stamped", "--model", "stamped-1"]);
  const handles = [];
  for (let i = 0; i < count; i++) handles.push((await client.ok({ type: "agent_open", noSession: true })).agent);
  // Deltas, as a real client of 50 agents would: full message_update records for 50 answers at
  // once pass the connection's 8 MiB bound and close it as a slow consumer.
  await client.ok({ type: "set_event_options", messageUpdates: "delta" });
  const inServer = [];
  client.onRecord(delays(inServer));
  let t = now();
  const done = handles.map((agent) => settled(client, agent));
  await Promise.all(handles.map((agent) => client.ok({ type: "prompt", agent, message: "Count." })));
  await Promise.all(done);
  const server_ = summary(inServer, now() - t, done.length);
  await server.stop();

  const agentDir = tempDir("atomic-bench-serve-");
  writeServeModels(agentDir, fake.url);
  const children = [];
  for (let i = 0; i < count; i += 5) {
    const batch = Array.from({ length: Math.min(5, count - i) }, () => rpcProcess(["--provider", "stamped", "--model", "stamped-1", "--no-session"], agentDir));
    await Promise.all(batch.map((child) => child.ready));
    await Promise.all(batch.map((child) => child.request({ type: "set_event_options", messageUpdates: "delta" })));
    children.push(...batch);
  }
  const inProcesses = [];
  for (const child of children) child.onRecord(delays(inProcesses));
  t = now();
  const finished = children.map((child) => settled(child));
  await Promise.all(children.map((child) => child.request({ type: "prompt", message: "Count." })));
  await Promise.all(finished);
  const processes_ = summary(inProcesses, now() - t, finished.length);
  await Promise.all(children.map((child) => child.stop()));
  return { agents: count, server: server_, processes: processes_ };
}

/** Time from a prompt until every client has the agent settled; the events one client got meanwhile. */
async function timedRun(clients, agent) {
  let events = 0;
  const off = clients[0].onRecord((record) => record.agent === agent && events++);
  const t = now();
  const done = clients.map((client) => settled(client, agent));
  await clients[0].ok({ type: "prompt", agent, message: "Say a lot." });
  await Promise.all(done);
  off();
  const ms = now() - t;
  return { ms, events, perSecond: (events / ms) * 1000 };
}

async function fanOut(fake, count, runs = 3) {
  const { server, client } = await serverWith(fake, ["--provider", "fast", "--model", "fast-1"]);
  const { agent } = await client.ok({ type: "agent_open", noSession: true });
  const clients = [client];
  await client.ok({ type: "set_event_options", messageUpdates: "delta" });
  await timedRun(clients, agent);
  const alone = [];
  for (let i = 0; i < runs; i++) alone.push(await timedRun(clients, agent));
  for (let i = 1; i < count; i++) {
    const other = await openClient(server.socket);
    await other.ok({ type: "set_event_options", messageUpdates: "delta" });
    await other.ok({ type: "attach", agent, role: "observe" });
    clients.push(other);
  }
  const together = [];
  for (let i = 0; i < runs; i++) together.push(await timedRun(clients, agent));
  await server.stop();
  const rate = (list) => median(list.map((run) => run.perSecond));
  return {
    events: alone[0].events,
    oneClient: { ms: Math.round(median(alone.map((run) => run.ms))), eventsPerSecond: Math.round(rate(alone)) },
    [`${count}Clients`]: { ms: Math.round(median(together.map((run) => run.ms))), eventsPerSecond: Math.round(rate(together)) },
    ratio: round(rate(together) / rate(alone), 3),
  };
}

async function stalled(fake, runs = 3) {
  const { server, client } = await serverWith(fake, ["--provider", "fast", "--model", "fast-1"]);
  const { agent } = await client.ok({ type: "agent_open", noSession: true });
  // The reader takes deltas, as a real client does; the stalled one keeps the default full
  // message_update form, so its buffer passes the 8 MiB bound within one answer.
  await client.ok({ type: "set_event_options", messageUpdates: "delta" });
  await timedRun([client], agent);
  const alone = [];
  for (let i = 0; i < runs; i++) alone.push((await timedRun([client], agent)).ms);
  const before = server.memory();
  const beside = [];
  let cut = 0;
  for (let i = 0; i < runs; i++) {
    const stuck = await openClient(server.socket, { paused: true });
    stuck.socket.write(`${JSON.stringify({ type: "attach", agent, role: "observe" })}\n`);
    await sleep(200);
    const { ms, events } = await timedRun([client], agent);
    beside.push(ms);
    // A paused socket never sees its end: read what it was sent, then look for the notice.
    let told = false;
    stuck.onRecord((record) => record.type === "connection_closing" && record.reason === "slow_consumer" && (told = true));
    stuck.socket.resume();
    if (await Promise.race([stuck.closed.then(() => told), sleep(10_000).then(() => false)])) cut++;
    if (i === 0) beside.events = events;
  }
  const after = server.memory();
  await server.stop();
  return {
    readerAloneMs: Math.round(median(alone)),
    readerBesideStalledMs: Math.round(median(beside)),
    ratio: round(median(beside) / median(alone), 3),
    stalledClientsCut: `${cut}/${runs}`,
    serverRssMb: { before: round(before.rssMb), after: round(after.rssMb), peakBefore: round(before.peakMb), peakAfter: round(after.peakMb) },
  };
}

async function extensions(fake, count = 10) {
  const settings = { extensions: PI_PACKAGES.map((name) => join(ROOT, "node_modules", name)) };
  const agentDir = tempDir("atomic-bench-serve-");
  mkdirSync(join(agentDir, "cache"), { recursive: true });
  if (existsSync(KEPT_TRANSPILE_CACHE)) cpSync(KEPT_TRANSPILE_CACHE, join(agentDir, "cache", "jiti"), { recursive: true });
  writeServeModels(agentDir, fake.url);
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify(settings));
  const server = await startServer({ agentDir, args: ["--provider", "slow", "--model", "slow-1"] });
  const client = await openClient(server.socket);
  const first = await client.ok({ type: "agent_open", noSession: true });
  const { commands } = await client.ok({ type: "get_commands", agent: first.agent });
  await sleep(500);
  const base = server.memory().rssMb;
  const openMs = [];
  for (let i = 0; i < count; i++) {
    const t = now();
    await client.ok({ type: "agent_open", noSession: true });
    openMs.push(now() - t);
  }
  await sleep(500);
  const perAgentMb = (server.memory().rssMb - base) / count;
  // One agent streams (a word every 4 ms); the gaps between its words at this client, with and without an open.
  const stamps = [];
  client.onRecord((record) => record.agent === first.agent && record.type === "message_update" && stamps.push(now()));
  await client.ok({ type: "prompt", agent: first.agent, message: "Say a lot." });
  await sleep(1_500);
  const gap = (from, to) => {
    let longest = 0;
    for (let i = 1; i < stamps.length; i++) if (stamps[i] >= from && stamps[i - 1] <= to) longest = Math.max(longest, stamps[i] - stamps[i - 1]);
    return longest;
  };
  let from = now();
  await client.ok({ type: "agent_open", noSession: true });
  const openWhileStreaming = now() - from;
  await sleep(200);
  const withOpen = gap(from, now());
  from = now();
  await sleep(Math.max(openWhileStreaming, 200) + 200);
  const without = gap(from, now());
  await server.stop();
  return {
    packages: PI_PACKAGES,
    extensionCommands: commands.filter((command) => command.source === "extension").map((command) => command.name),
    perAgentMb: round(perAgentMb, 2),
    agentOpenMs: round(median(openMs)),
    openWhileStreamingMs: round(openWhileStreaming),
    streamGapMs: { whileOpening: round(withOpen), without: round(without) },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [agents, processes, streams, fanout] = process.argv.slice(2, 6).map(Number);
  const parts = process.argv.slice(2).filter((arg) => PARTS.includes(arg));
  const result = await benchServe({
    ...(agents ? { agents } : {}),
    ...(processes ? { processes } : {}),
    ...(streams ? { streams } : {}),
    ...(fanout ? { fanout } : {}),
    ...(parts.length ? { parts } : {}),
  });
  console.log(JSON.stringify(result, null, 2));
}
