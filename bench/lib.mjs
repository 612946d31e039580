// Shared helpers for the benchmarks: spawn the built CLI, read stdout strictly on LF, sample RSS.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";

/** The built CLI; ATOMIC_BENCH_CLI points the benchmarks at another build (to compare two). */
export const CLI = process.env.ATOMIC_BENCH_CLI ?? fileURLToPath(new URL("../dist/cli/atomic.cjs", import.meta.url));
/** Node flags for the agent processes (space-separated), e.g. to measure a V8 option. */
const NODE_FLAGS = (process.env.ATOMIC_BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);

const made = [];
// Benchmarks leave nothing in the temp dir.
process.on("exit", () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export function writeCassette(agentDir, name, turns) {
  mkdirSync(join(agentDir, "cassettes"), { recursive: true });
  const lines = [{ type: "cassette", version: 1, name }, ...turns.flatMap((t) => [{ type: "turn" }, ...t])];
  writeFileSync(join(agentDir, "cassettes", `${name}.jsonl`), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

/** Peak resident set (VmHWM) of a live process, in MB. */
export function peakRssMb(pid) {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : NaN;
}

/**
 * The main thread's time so far (Linux /proc schedstat, ns precision): `cpuMs` on a CPU, `waitMs`
 * runnable but waiting for one. On a loaded machine, wall time minus `waitMs` estimates the
 * figure without the other processes (only the time they took the CPU away is removed).
 */
export function mainThreadTimes(pid) {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ").map(Number);
    return { cpuMs: run / 1e6, waitMs: wait / 1e6 };
  } catch {
    return { cpuMs: NaN, waitMs: NaN };
  }
}

/**
 * The process's minor page faults so far (every thread; Linux /proc stat). A first touch of a page
 * costs ~13 us of kernel time on the virtual machine these benchmarks ran on, which instruction
 * counts (callgrind) do not show: ~3,700 of them separate the agent from a bare node.
 */
export function minorFaults(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces): state is field 3, minflt field 10.
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[7]);
  } catch {
    return NaN;
  }
}

/**
 * Spawns the agent; `onLine(line, agent)` sees every stdout line (raw string, not parsed, so the
 * client's own parsing does not dominate what is measured).
 */
export function startAgent(args, { agentDir, cwd, onLine, cli = CLI, node = process.execPath }) {
  const t0 = performance.now();
  const child = spawn(node, [...NODE_FLAGS, cli, ...args], {
    cwd: cwd ?? agentDir,
    env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir },
    stdio: ["pipe", "pipe", "inherit"],
  });
  let pending = [];
  let bytes = 0;
  child.stdout.on("data", (chunk) => {
    bytes += chunk.length;
    let start = 0;
    for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, i);
      const line = pending.length ? Buffer.concat([...pending, piece]).toString("utf8") : piece.toString("utf8");
      pending = [];
      start = i + 1;
      onLine(line);
    }
    if (start < chunk.length) pending.push(chunk.subarray(start));
  });
  const exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    child,
    t0,
    exited,
    send: (command) => child.stdin.write(JSON.stringify(command) + "\n"),
    stdoutBytes: () => bytes,
  };
}

/** Starts bench/fake-llm.mjs in its own process (its work stays off this event loop). */
export async function startFakeLlmProcess() {
  const child = spawn(process.execPath, [fileURLToPath(new URL("./fake-llm.mjs", import.meta.url))], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    let text = "";
    child.stdout.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\n")) resolve(JSON.parse(text).url);
    });
    child.once("exit", (code) => reject(new Error(`fake LLM exited with ${code}`)));
  });
  return { url, close: () => child.kill() };
}

/** `hogsPerCore` CPU-bound processes per core, killed by `stop()` or when this process exits. */
export function saturate(hogsPerCore) {
  const count = availableParallelism() * hogsPerCore;
  const hogs = Array.from({ length: count }, () => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));
  const stop = () => {
    for (const hog of hogs) if (hog.exitCode === null) hog.kill("SIGKILL");
  };
  process.once("exit", stop);
  return { count, stop };
}
