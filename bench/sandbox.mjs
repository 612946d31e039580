// bench/sandbox: what the sandbox adds to each tool call, measured on the built tools in-process
// (the bash tool's execute and the file tools' execute, timed with performance.now(); the agent
// loop around them is the same with or without a sandbox). bash runs `true` with the sandbox off,
// in workspace-write with no network (bubblewrap), and with a network allow-list (bubblewrap plus
// the proxy forwarder, a node process inside); read and write touch a small file with and without
// the in-process path guard. Calls are interleaved so load drift hits every variant alike.
// `confineMs` is the time Atomic's own code takes to build the confined command (the rest of
// the added time is bubblewrap's: its processes, namespaces and mounts). On a loaded machine wall
// times mostly measure waiting for a CPU (the load average is reported with the numbers).
// Linux with bubblewrap only (the sandboxed variants are skipped, and said so, elsewhere).
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { tempDir } from "./lib.mjs";

const dist = (path) => new URL(`../dist/${path}`, import.meta.url).href;
const { createBashTool } = await import(dist("plugins/bash/tool.js"));
const { SandboxLauncher } = await import(dist("plugins/sandbox/launcher.js"));
const { composePolicy } = await import(dist("plugins/sandbox/policy.js"));
const { fileTools } = await import(dist("plugins/tools/index.js"));
const { RegexWorkers } = await import(dist("plugins/tools/regex-search.js"));

function quantiles(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { median: +at(0.5).toFixed(2), p95: +at(0.95).toFixed(2) };
}

function sandbox(cwd, agentDir, user) {
  const { policy } = composePolicy({ user, projectTrusted: false, cwd, agentDir, env: process.env });
  return new SandboxLauncher({
    policy,
    cwd,
    agentDir,
    env: process.env,
    platform: process.platform,
    escalation: { approval: "never", confirm: undefined, record: () => undefined },
  });
}

const context = (cwd) => ({ toolCallId: "bench", cwd, signal: new AbortController().signal, onUpdate: () => undefined });

async function timed(run) {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export async function benchSandbox({ calls = 40, fileCalls = 300 } = {}) {
  const root = tempDir("atomic-bench-sandbox-");
  const cwd = join(root, "ws");
  const agentDir = join(root, "agent");
  mkdirSync(cwd, { recursive: true });
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(cwd, "small.txt"), "hello\n".repeat(50));
  const shell = async () => "/bin/bash";
  const variants = {
    off: sandbox(cwd, agentDir, { mode: "off" }),
    workspaceWrite: sandbox(cwd, agentDir, { mode: "workspace-write" }),
    allowList: sandbox(cwd, agentDir, { mode: "workspace-write", network: ["127.0.0.1"] }),
  };
  const probe = await variants.workspaceWrite.check();
  const sandboxed = !probe.unavailable;
  const tools = Object.fromEntries(Object.entries(variants).map(([name, launcher]) => [name, createBashTool({ shell, sandbox: launcher })]));
  const bashNames = sandboxed ? Object.keys(variants) : ["off"];
  const bashTimes = Object.fromEntries(bashNames.map((name) => [name, []]));
  for (const name of bashNames) await tools[name].execute({ command: "true" }, context(cwd)); // warm: probe, proxy, private folder
  for (let i = 0; i < calls; i++) for (const name of bashNames) bashTimes[name].push(await timed(() => tools[name].execute({ command: "true" }, context(cwd))));
  const confineTimes = [];
  const spawn = { file: "/bin/bash", args: ["-c", "true"], cwd, env: process.env };
  if (sandboxed) for (let i = 0; i < calls * 5; i++) confineTimes.push(await timed(async () => (await variants.workspaceWrite.confine(spawn)).release()));

  const workers = new RegexWorkers();
  const guarded = fileTools(workers, () => variants.workspaceWrite.files);
  const plain = fileTools(workers, () => undefined);
  const byName = (list, name) => list.find((tool) => tool.name === name);
  const fileTimes = { readOff: [], readGuarded: [], writeOff: [], writeGuarded: [] };
  const read = { path: "small.txt" };
  const write = { path: "out/new.txt", content: "x\n" };
  for (let i = 0; i < fileCalls; i++) {
    fileTimes.readOff.push(await timed(() => byName(plain, "read").execute(read, context(cwd))));
    fileTimes.readGuarded.push(await timed(() => byName(guarded, "read").execute(read, context(cwd))));
    fileTimes.writeOff.push(await timed(() => byName(plain, "write").execute(write, context(cwd))));
    fileTimes.writeGuarded.push(await timed(() => byName(guarded, "write").execute(write, context(cwd))));
  }
  await workers.close();
  for (const launcher of Object.values(variants)) await launcher.close();

  const bash = Object.fromEntries(Object.entries(bashTimes).map(([name, times]) => [name, quantiles(times)]));
  const added = (variant, base) => ({ median: +(variant.median - base.median).toFixed(2), p95: +(variant.p95 - base.p95).toFixed(2) });
  const files = Object.fromEntries(Object.entries(fileTimes).map(([name, times]) => [name, quantiles(times)]));
  return {
    calls,
    fileCalls,
    loadAverage1m: +loadavg()[0].toFixed(2),
    ...(sandboxed ? {} : { skipped: `sandboxed bash not measured: ${probe.unavailable}` }),
    bashMs: bash,
    ...(sandboxed ? { confineMs: quantiles(confineTimes) } : {}),
    ...(sandboxed ? { bashAddedMs: { workspaceWrite: added(bash.workspaceWrite, bash.off), allowList: added(bash.allowList, bash.off) } } : {}),
    fileToolMs: files,
    fileToolAddedMs: { read: added(files.readGuarded, files.readOff), write: added(files.writeGuarded, files.writeOff) },
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchSandbox({ calls: Number(process.argv[2] ?? 40) }), null, 2));
