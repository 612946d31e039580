// bench/mcp: what MCP servers cost the agent. Needs `npm run build` (uses dist/).
// - startup: spawn -> get_state response with 5 configured stdio servers vs none, alternating
//   runs (the servers connect in the background, after boot); and which bundle chunks each
//   process loaded (its compile cache lists them): without servers, never the MCP SDK's.
// - calls: 1,000 sequential calls of the probe server's `echo` through the agent's tool path
//   (validation, the registered tool, result mapping) against the SDK's own client and stdio
//   transport on the same server; the overhead is the difference of the medians.
// - loop: the same calls made by the model (a replayed answer with 100 calls per turn, 10 turns),
//   prompt -> agent_end, per call, as the client sees it (events on stdout included).
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median, startAgent, tempDir, writeCassette } from "./lib.mjs";

const PROBE = fileURLToPath(new URL("../test/fixtures/mcp/probe-server.mjs", import.meta.url));
const CHUNKS = fileURLToPath(new URL("../dist/cli/bundle/chunks/", import.meta.url));
const probe = (name) => ({ command: process.execPath, args: [PROBE], env: { PROBE_NAME: name } });

function writeMcp(agentDir, count) {
  const servers = Object.fromEntries(Array.from({ length: count }, (_, i) => [`s${i + 1}`, probe(`s${i + 1}`)]));
  writeFileSync(join(agentDir, "mcp.json"), JSON.stringify({ mcpServers: servers }));
}

/** Chunks of the CLI bundle that hold the MCP SDK's client, and the plugin's own runtime. */
function mcpChunks() {
  const names = readdirSync(CHUNKS);
  const holding = (text) => names.filter((name) => readFileSync(join(CHUNKS, name), "latin1").includes(text));
  return { sdk: holding("notifications/initialized"), runtime: holding("MCP servers whose tools are not loaded yet") };
}

/** Bundle chunks a finished process compiled (its compile cache files). */
function loadedChunks(agentDir) {
  const root = join(agentDir, "cache", "compile");
  try {
    return readdirSync(root).flatMap((dir) => readdirSync(join(root, dir)).map((file) => file.replace(/\.bin$/, "")));
  } catch {
    return [];
  }
}

async function startupOnce(agentDir, { waitMs = 0 } = {}) {
  let agent;
  const done = new Promise((resolve) => {
    agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"], {
      agentDir,
      onLine: (line) => line.includes('"command":"get_state"') && resolve(performance.now() - agent.t0),
    });
  });
  agent.send({ type: "get_state", id: 1 });
  const ms = await done;
  if (waitMs) await new Promise((r) => setTimeout(r, waitMs));
  agent.child.stdin.end();
  await agent.exited;
  return ms;
}

export async function benchMcpStartup(pairs = 21) {
  const none = tempDir("atomic-bench-mcp0-");
  const five = tempDir("atomic-bench-mcp5-");
  writeMcp(five, 5);
  // Warm both compile caches, so the pairs compare like with like.
  await startupOnce(none);
  await startupOnce(five, { waitMs: 1500 });
  const times = { none: [], five: [], delta: [] };
  for (let i = 0; i < pairs; i++) {
    const a = await startupOnce(none);
    const b = await startupOnce(five);
    times.none.push(a);
    times.five.push(b);
    times.delta.push(b - a);
  }
  const chunks = mcpChunks();
  const loadedNone = loadedChunks(none);
  const loadedFive = loadedChunks(five);
  return {
    pairs,
    noneMedianMs: +median(times.none).toFixed(1),
    fiveMedianMs: +median(times.five).toFixed(1),
    pairedDeltaMedianMs: +median(times.delta).toFixed(1),
    sdkLoadedWithoutServers: chunks.sdk.some((name) => loadedNone.includes(name)) || chunks.runtime.some((name) => loadedNone.includes(name)),
    sdkLoadedWithServers: chunks.sdk.some((name) => loadedFive.includes(name)),
  };
}

export async function benchMcpCalls(calls = 1000) {
  const { createHost } = await import("../dist/host/index.js");
  const { BUILTIN_PLUGINS } = await import("../dist/cli/builtins.js");
  const { silentLogger } = await import("../dist/kernel/index.js");
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");

  const agentDir = tempDir("atomic-bench-mcp-calls-");
  writeMcp(agentDir, 1);
  const installDir = fileURLToPath(new URL("../", import.meta.url));
  const host = await createHost({
    cwd: agentDir,
    agentDir,
    env: process.env,
    plugins: BUILTIN_PLUGINS,
    userPlugins: false,
    log: silentLogger,
    installDir,
    argv: ["--provider", "replay", "--model", "demo", "--no-session"],
  });
  const deadline = Date.now() + 20_000;
  for (;;) {
    const { data } = await host.send({ type: "get_mcp_servers" });
    if (data.servers[0]?.state === "connected") break;
    if (Date.now() > deadline) throw new Error(`probe did not connect: ${JSON.stringify(data)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const tools = host.kernel.tools;
  const name = "mcp__s1__echo";
  const tool = tools.get(name);
  const signal = new AbortController().signal;
  const viaAgent = async (i) => {
    const args = { text: `call ${i}` };
    const validated = await tools.validate(name, args);
    const result = await tool.execute(validated.args, { toolCallId: `c${i}`, signal, cwd: agentDir, onUpdate() {} });
    if (result.content[0].text !== `echo: call ${i}`) throw new Error(`unexpected result ${JSON.stringify(result)}`);
  };

  // The agent runs a server as the leader of its own session (setsid, so its process group can be
  // stopped as a whole); with the kernel's autogroup scheduling that costs wake-up latency on a
  // busy machine. The baseline's server gets its own session too (setsid(1)), so the difference
  // is the agent's own work; MCP_BENCH_BASELINE=same keeps it in this process's session instead.
  const ownSession = process.env.MCP_BENCH_BASELINE !== "same" && existsSync("/usr/bin/setsid");
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(
    new StdioClientTransport({ command: ownSession ? "/usr/bin/setsid" : process.execPath, args: ownSession ? [process.execPath, PROBE] : [PROBE], stderr: "ignore" }),
  );
  const raw = async (i) => {
    const result = await client.callTool({ name: "echo", arguments: { text: `call ${i}` } });
    if (result.content[0].text !== `echo: call ${i}`) throw new Error("unexpected raw result");
  };

  // Warm both paths (JIT, the schema validator), then alternate blocks of 100 so drift hits both.
  for (let i = 0; i < 100; i++) {
    await viaAgent(i);
    await raw(i);
  }
  const agentTimes = [];
  const rawTimes = [];
  for (let block = 0; block < calls / 100; block++) {
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      await viaAgent(i);
      agentTimes.push(performance.now() - t0);
    }
    for (let i = 0; i < 100; i++) {
      const t0 = performance.now();
      await raw(i);
      rawTimes.push(performance.now() - t0);
    }
  }
  await client.close();
  await host.shutdown("exit");
  const agentMedian = median(agentTimes);
  const rawMedian = median(rawTimes);
  return {
    calls,
    baselineSession: ownSession ? "own (setsid)" : "same",
    agentMedianMs: +agentMedian.toFixed(3),
    sdkMedianMs: +rawMedian.toFixed(3),
    overheadMedianMs: +(agentMedian - rawMedian).toFixed(3),
  };
}

async function loopOnce({ turns, perTurn, tool, args }) {
  const agentDir = tempDir("atomic-bench-mcp-loop-");
  writeMcp(agentDir, 1);
  const call = (turn, i) => {
    const id = `t${turn}c${i}`;
    return [
      { type: "toolcall_start", contentIndex: i, id, name: tool },
      { type: "toolcall_delta", contentIndex: i, delta: JSON.stringify(args(id)) },
      { type: "toolcall_end", contentIndex: i },
    ];
  };
  const cassette = [
    ...Array.from({ length: turns }, (_, turn) => [
      ...Array.from({ length: perTurn }, (_, i) => call(turn, i)).flat(),
      { type: "done", reason: "toolUse", usage: { input: 10, output: 5 } },
    ]),
    [
      { type: "text_start", contentIndex: 0 },
      { type: "text_delta", contentIndex: 0, delta: "done" },
      { type: "text_end", contentIndex: 0 },
      { type: "done", reason: "stop", usage: { input: 10, output: 5 } },
    ],
  ];
  writeCassette(agentDir, "mcp-loop", cassette);
  let ends = 0;
  let resolveEnd;
  let connected;
  const ended = new Promise((resolve) => (resolveEnd = resolve));
  const ready = new Promise((resolve) => (connected = resolve));
  const agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "mcp-loop", "--no-session"], {
    agentDir,
    onLine: (line) => {
      if (line.includes('"command":"get_mcp_servers"') && line.includes('"state":"connected"')) connected(true);
      else if (line.includes('"command":"get_mcp_servers"')) connected(false);
      if (line.includes('"type":"tool_execution_end"') && !line.includes('"isError":false')) throw new Error(`a call failed: ${line.slice(0, 300)}`);
      if (line.includes('"type":"tool_execution_end"')) ends++;
      if (line.startsWith('{"type":"agent_end"')) resolveEnd(performance.now());
    },
  });
  agent.send({ type: "get_mcp_servers", id: "warm" });
  await ready;
  const t0 = performance.now();
  agent.send({ type: "prompt", id: "p", message: "go" });
  const t1 = await ended;
  agent.child.stdin.end();
  await agent.exited;
  return (t1 - t0) / ends;
}

/** The same replayed turns calling the built-in `ls` (an empty folder) and the MCP `echo`, alternating. */
export async function benchMcpLoop({ turns = 10, perTurn = 100, rounds = 3 } = {}) {
  const mcp = [];
  const builtin = [];
  for (let round = 0; round < rounds; round++) {
    builtin.push(await loopOnce({ turns, perTurn, tool: "ls", args: () => ({ path: "." }) }));
    mcp.push(await loopOnce({ turns, perTurn, tool: "mcp__s1__echo", args: (id) => ({ text: id }) }));
  }
  return {
    calls: turns * perTurn,
    rounds,
    mcpPerCallMs: +median(mcp).toFixed(3),
    builtinLsPerCallMs: +median(builtin).toFixed(3),
    differenceMs: +(median(mcp) - median(builtin)).toFixed(3),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const what = process.argv[2] ?? "all";
  const out = {};
  if (what === "all" || what === "startup") out.startup = await benchMcpStartup(Number(process.argv[3] ?? 21));
  if (what === "all" || what === "calls") out.calls = await benchMcpCalls();
  if (what === "all" || what === "loop") out.loop = await benchMcpLoop();
  console.log(JSON.stringify(out, null, 2));
}
