// atomic serve over WebSocket (issue 35): (1) events per second from one agent to N WebSocket
// clients (every client attached, delta updates; counted from the prompt to the last client's
// agent_settled), beside the same over the unix socket; (2) the WebSocket hop's added delay: the
// round trip of a small command (get_state, routed to the agent) over ws against the unix socket,
// on one server that listens on both.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { WebSocket } from "ws";
import { CLI, median, tempDir, writeCassette } from "./lib.mjs";

const WORDS = ["alpha ", "beta ", "gamma ", "delta ", "epsilon ", "zeta ", "eta ", "theta "];

async function startServer(agentDir) {
  const socket = join(agentDir, "serve", "serve.sock");
  const child = spawn(process.execPath, [CLI, "serve", "--listen", "unix:", "--listen", "ws://127.0.0.1:0", "--provider", "replay", "--model", "long"], {
    cwd: tempDir("atomic-bench-ws-cwd-"),
    env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir, ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  const url = await new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      const match = /\{"listening":"(ws:\/\/[^"]+)"\}/.exec(stderr);
      if (match && stderr.includes(`unix:${socket}`)) resolve(match[1]);
    });
    child.once("exit", (code) => reject(new Error(`atomic serve exited (${code}): ${stderr}`)));
  });
  const token = readFileSync(join(agentDir, "serve", "token"), "utf8").trim();
  return { child, url, token, socket };
}

/** A client over either transport: records parsed, responses matched to requests by id. */
function client(kind, server) {
  const listeners = new Set();
  let send;
  let opened;
  const onRecord = (text) => {
    const record = JSON.parse(text);
    for (const listener of listeners) listener(record);
  };
  if (kind === "ws") {
    const ws = new WebSocket(server.url, { headers: { Authorization: `Bearer ${server.token}` } });
    ws.on("message", (data) => onRecord(data.toString()));
    send = (record) => ws.send(JSON.stringify(record));
    opened = new Promise((resolve) => ws.once("message", resolve));
    return { kind, opened, on: (l) => listeners.add(l), off: (l) => listeners.delete(l), send: (r) => send(r), close: () => ws.close(), ...rpc() };
  }
  const socket = connect(server.socket);
  let pending = "";
  socket.on("data", (chunk) => {
    pending += chunk.toString();
    let newline;
    while ((newline = pending.indexOf("\n")) >= 0) {
      onRecord(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
    }
  });
  send = (record) => socket.write(`${JSON.stringify(record)}\n`);
  opened = new Promise((resolve) => socket.once("data", resolve));
  return { kind, opened, on: (l) => listeners.add(l), off: (l) => listeners.delete(l), send: (r) => send(r), close: () => socket.end(), ...rpc() };

  function rpc() {
    let nextId = 1;
    return {
      request(record) {
        const id = `b${nextId++}`;
        return new Promise((resolve) => {
          const listener = (response) => {
            if (response.type !== "response" || response.id !== id) return;
            listeners.delete(listener);
            resolve(response);
          };
          listeners.add(listener);
          send({ ...record, id });
        });
      },
    };
  }
}

/** CPU time (user + system) the process has used so far, in milliseconds (Linux /proc). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

/** One prompt's events to `count` attached clients of `kind`: delivered events per second. */
async function fanOut(server, kind, count) {
  const clients = Array.from({ length: count }, () => client(kind, server));
  await Promise.all(clients.map((c) => c.opened));
  const opener = clients[0];
  const { data } = await opener.request({ type: "agent_open", noSession: true });
  const agent = data.agent;
  await Promise.all(clients.map((c) => c.request({ type: "set_event_options", messageUpdates: "delta" })));
  await Promise.all(clients.slice(1).map((c) => c.request({ type: "attach", agent })));
  let events = 0;
  const settled = clients.map(
    (c) =>
      new Promise((resolve) =>
        c.on((record) => {
          if (record.agent !== agent || record.seq === undefined) return;
          events++;
          if (record.type === "agent_settled") resolve(performance.now());
        }),
      ),
  );
  const start = performance.now();
  const cpuStart = cpuMs(server.child.pid);
  const clientCpuStart = process.cpuUsage();
  opener.send({ type: "prompt", agent, message: "go" });
  const ends = await Promise.all(settled);
  const serverCpuMs = cpuMs(server.child.pid) - cpuStart;
  const clientCpu = process.cpuUsage(clientCpuStart);
  const clientCpuMs = Math.round((clientCpu.user + clientCpu.system) / 1000);
  const seconds = (Math.max(...ends) - start) / 1000;
  await opener.request({ type: "agent_close", agent });
  for (const c of clients) c.close();
  return {
    clients: count,
    eventsPerClient: events / count,
    seconds: Number(seconds.toFixed(3)),
    agentEventsPerSecond: Math.round(events / count / seconds),
    deliveredPerSecond: Math.round(events / seconds),
    serverCpuMs,
    clientCpuMs,
  };
}

/** Sequential round trips of get_state to one agent: median and p99, in microseconds. */
async function roundTrips(server, kind, agent, runs) {
  const c = client(kind, server);
  await c.opened;
  for (let i = 0; i < 200; i++) await c.request({ type: "get_state", agent });
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await c.request({ type: "get_state", agent });
    times.push((performance.now() - start) * 1000);
  }
  c.close();
  times.sort((a, b) => a - b);
  return { medianUs: Math.round(median(times)), p99Us: Math.round(times[Math.floor(times.length * 0.99)]) };
}

export async function benchServeWs({ deltas = 20_000, clients = 10, runs = 3, roundTripRuns = 2000 } = {}) {
  const agentDir = tempDir("atomic-bench-ws-");
  const events = [{ type: "text_start", contentIndex: 0 }];
  for (let i = 0; i < deltas; i++) events.push({ type: "text_delta", contentIndex: 0, delta: WORDS[i % WORDS.length] });
  events.push({ type: "text_end", contentIndex: 0 }, { type: "done", reason: "stop", usage: { input: 100, output: deltas } });
  writeCassette(agentDir, "long", [events]);
  const server = await startServer(agentDir);
  try {
    const fan = {};
    for (const [kind, count] of [
      ["ws", 1],
      ["ws", clients],
      ["unix", 1],
      ["unix", clients],
    ]) {
      const samples = [];
      for (let r = 0; r < runs; r++) samples.push(await fanOut(server, kind, count));
      samples.sort((a, b) => b.deliveredPerSecond - a.deliveredPerSecond);
      fan[`${kind}x${count}`] = samples[Math.floor(samples.length / 2)];
    }
    const owner = client("unix", server);
    await owner.opened;
    const agent = (await owner.request({ type: "agent_open", noSession: true })).data.agent;
    const unix = await roundTrips(server, "unix", agent, roundTripRuns);
    const ws = await roundTrips(server, "ws", agent, roundTripRuns);
    owner.close();
    return { deltas, loadAverage: loadavg().map((l) => Number(l.toFixed(2))), fanOut: fan, roundTrip: { unix, ws, addedMedianUs: ws.medianUs - unix.medianUs } };
  } finally {
    server.child.kill("SIGTERM");
    await new Promise((resolve) => server.child.once("exit", resolve));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchServeWs(), null, 2));
