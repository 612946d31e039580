// Helpers for bench/serve.mjs: an `atomic serve` child on a unix socket, raw socket clients
// (LF lines, ids, one listener), `--mode rpc` children for the side-by-side figures, the models
// of the loopback server, and percentiles.
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CLI, startAgent } from "./lib.mjs";

export const round = (value, digits = 1) => +value.toFixed(digits);
export const now = () => performance.timeOrigin + performance.now();

export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Providers `bench` (six words), `slow` (3,000 words over 12 s), `stamped` (200 timed words over 2 s), `fast` (4,000 words at once). */
export function writeServeModels(agentDir, url) {
  const model = (id) => ({ id, name: id, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100_000, maxTokens: 4_096 });
  const provider = (path, id) => ({ baseUrl: `${url}${path}/v1`, api: "openai-completions", apiKey: "bench-key", models: [model(id)] });
  const providers = { bench: provider("", "bench-1"), slow: provider("/slow", "slow-1"), stamped: provider("/stamped", "stamped-1"), fast: provider("/fast", "fast-1") };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers }));
}

/** VmRSS and VmHWM of a live process, in MB. */
export function memoryOf(pid) {
  const text = readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? NaN) / 1024;
  return { rssMb: field("VmRSS"), peakMb: field("VmHWM") };
}

/** `atomic serve --listen unix:<agentDir>/s.sock ...args`; resolves once it listens. */
export async function startServer({ agentDir, cwd = agentDir, args = [] }) {
  const socket = join(agentDir, "s.sock");
  const child = spawn(process.execPath, [CLI, "serve", "--listen", `unix:${socket}`, ...args], {
    cwd,
    env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  await new Promise((resolve, reject) => {
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
      if (stderr.includes('{"listening":')) resolve();
    });
    child.once("exit", (code) => reject(new Error(`atomic serve exited (${code}): ${stderr}`)));
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return { pid: child.pid, socket, memory: () => memoryOf(child.pid), stop: () => (child.kill("SIGTERM"), exited) };
}

let ids = 0;

/** A client on the server's socket: `request` resolves with the response; `onRecord` sees every other record (parsed). */
export function openClient(path, { paused = false } = {}) {
  const socket = connect(path);
  const pending = new Map();
  const listeners = new Set();
  let rest = "";
  let greeted;
  const hello = new Promise((resolve) => (greeted = resolve));
  const onLine = (line) => {
    const record = JSON.parse(line);
    if (record.type === "server_hello") return greeted(record);
    if (record.type === "response" && pending.has(record.id)) {
      pending.get(record.id)(record);
      return pending.delete(record.id);
    }
    for (const listener of listeners) listener(record);
  };
  socket.setEncoding("utf8");
  socket.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop();
    for (const line of lines) onLine(line);
  });
  socket.on("error", () => undefined);
  const closed = new Promise((resolve) => socket.once("close", resolve));
  const client = {
    socket,
    closed,
    request(command) {
      const id = `b${++ids}`;
      return new Promise((resolve) => {
        pending.set(id, resolve);
        socket.write(`${JSON.stringify({ ...command, id })}\n`);
      });
    },
    async ok(command) {
      const response = await client.request(command);
      if (!response.success) throw new Error(`${command.type}: ${response.error}`);
      return response.data;
    },
    onRecord(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: () => (socket.end(), closed),
  };
  // A client that never reads: it takes the greeting off the wire, then stops reading for good.
  return hello.then(() => (paused && socket.pause(), client));
}

/** A `--mode rpc` child, `request` and `onRecord` as above; `ready` once its first get_state answered. */
export function rpcProcess(args, agentDir) {
  const pending = new Map();
  const listeners = new Set();
  const agent = startAgent(["--mode", "rpc", ...args], {
    agentDir,
    onLine: (line) => {
      const record = JSON.parse(line);
      if (record.type === "response" && pending.has(record.id)) {
        pending.get(record.id)(record);
        return pending.delete(record.id);
      }
      for (const listener of listeners) listener(record);
    },
  });
  const request = (command) => {
    const id = `p${++ids}`;
    return new Promise((resolve) => {
      pending.set(id, resolve);
      agent.send({ ...command, id });
    });
  };
  return {
    pid: agent.child.pid,
    request,
    onRecord: (listener) => (listeners.add(listener), () => listeners.delete(listener)),
    ready: request({ type: "get_state" }),
    stop: () => (agent.child.stdin.end(), agent.exited),
  };
}

/** The delay of each timed word (bench/fake-openai.mjs `/stamped/`) in one text_delta event. */
export function stampDelay(record, at) {
  const delta = record.type === "message_update" ? record.assistantMessageEvent?.delta : undefined;
  const match = typeof delta === "string" ? / @(\d+\.\d+)/.exec(delta) : null;
  return match ? at - Number(match[1]) : undefined;
}
