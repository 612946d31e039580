// bench/list-models: spawn -> exit of `atomic --list-models` (every catalog built and printed), and of
// `--list-models <pattern>`, N fresh processes each. No keys in the environment; local servers are
// pointed at a closed loopback port so their discovery refuses at once.
// Usage: node bench/list-models.mjs [runs=11]
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { CLI, median, tempDir } from "./lib.mjs";

const CLOSED = "http://127.0.0.1:9/v1";
const LOCAL = { OLLAMA_BASE_URL: CLOSED, LLAMA_CPP_BASE_URL: CLOSED, VLLM_BASE_URL: CLOSED, LMSTUDIO_BASE_URL: CLOSED };

function run(args, agentDir) {
  const t0 = performance.now();
  const env = { PATH: process.env.PATH, HOME: agentDir, ATOMIC_CODING_AGENT_DIR: agentDir, ...LOCAL };
  const child = spawn(process.execPath, [CLI, ...args], { cwd: agentDir, env, stdio: ["ignore", "pipe", "ignore"] });
  let lines = 0;
  child.stdout.on("data", (chunk) => (lines += chunk.toString().split("\n").length - 1));
  return new Promise((resolve, reject) => child.once("close", (code) => (code === 0 ? resolve({ ms: performance.now() - t0, lines }) : reject(new Error(`exit ${code}`)))));
}

export async function benchListModels(runs = 11) {
  const agentDir = tempDir("atomic-bench-list-");
  const out = {};
  for (const [name, args] of [
    ["all", ["--list-models"]],
    ["pattern", ["--list-models", "sonnet"]],
  ]) {
    const times = [];
    let lines = 0;
    for (let i = 0; i < runs; i++) {
      const result = await run(args, agentDir);
      times.push(result.ms);
      lines = result.lines;
    }
    out[name] = { lines, medianMs: +median(times).toFixed(1), minMs: +Math.min(...times).toFixed(1), maxMs: +Math.max(...times).toFixed(1) };
  }
  return { runs, ...out };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchListModels(Number(process.argv[2] ?? 11))));
