// bench/corpus-saturated: the compatibility harness's loading tests (test/pi-packages.e2e.test.ts,
// "loads in Atomic with what it registers under pi 1.6": each real package loaded by the built
// CLI and compared with pi 1.6) run twice with cold transpile caches, first on the machine as it
// is, then with it saturated (2 CPU-bound processes per core, killed at the end). Each run writes
// what every package loaded (ATOMIC_CORPUS_REPORT); the two must be the same, with no error and
// the harness passing both times. Prints the load average, each package's load time and the
// loaded counts of both runs. Exit 1 when anything differs.
//
//   node bench/corpus-saturated.mjs [--hogs-per-core 2] [--only <test name pattern>]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { availableParallelism, loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { saturate, tempDir } from "./lib.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const hogsPerCore = Number(option("--hogs-per-core", "2"));
const pattern = option("--only", "loads in Atomic with what it registers");

/** One run of the harness's loading tests; resolves to its exit code, seconds, load average seen and per-package report. */
async function harness(label) {
  const report = join(tempDir("atomic-corpus-saturated-"), "loaded.jsonl");
  const started = performance.now();
  const loads = [];
  const sampler = setInterval(() => loads.push(loadavg()[0]), 5_000);
  const child = spawn(process.execPath, [join(REPO, "node_modules/vitest/vitest.mjs"), "run", "test/pi-packages.e2e.test.ts", "-t", pattern], {
    cwd: REPO,
    env: { ...process.env, ATOMIC_CORPUS_COLD: "1", ATOMIC_CORPUS_REPORT: report },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const code = await new Promise((resolve) => child.once("exit", (exitCode) => resolve(exitCode)));
  clearInterval(sampler);
  const lines = readFileSync(report, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  return {
    label,
    code,
    seconds: +((performance.now() - started) / 1000).toFixed(0),
    meanLoad: loads.length ? +(loads.reduce((sum, value) => sum + value, 0) / loads.length).toFixed(1) : undefined,
    packages: new Map(lines.map((line) => [line.name, line])),
  };
}

const count = (entry) => (entry ? Object.values(entry.loaded).reduce((sum, names) => sum + names.length, 0) : 0);

const idle = await harness("idle");
const hogs = saturate(hogsPerCore);
let saturated;
try {
  saturated = await harness("saturated");
} finally {
  hogs.stop();
}

let same = idle.code === 0 && saturated.code === 0 && idle.packages.size > 0 && idle.packages.size === saturated.packages.size;
const rows = [...idle.packages.keys()].map((name) => {
  const before = idle.packages.get(name);
  const after = saturated.packages.get(name);
  const identical = after !== undefined && JSON.stringify(before.loaded) === JSON.stringify(after.loaded) && before.errors.length === 0 && after.errors.length === 0;
  if (!identical) same = false;
  return {
    package: name,
    idleSeconds: +(before.ms / 1000).toFixed(1),
    saturatedSeconds: after ? +(after.ms / 1000).toFixed(1) : null,
    idleRegistered: count(before),
    saturatedRegistered: count(after),
    same: identical,
    ...(before.errors.length || after?.errors.length ? { idleErrors: before.errors, saturatedErrors: after?.errors } : {}),
  };
});
const run = (result) => ({ harnessExit: result.code, seconds: result.seconds, meanLoad1m: result.meanLoad, packages: result.packages.size });
console.log(JSON.stringify({ node: process.version, cores: availableParallelism(), hogs: hogs.count, same, idle: run(idle), saturated: run(saturated), rows }, null, 2));
process.exitCode = same ? 0 : 1;
