// bench/siblings: agents opened as siblings of one host (`host.openSibling`, what ACP and
// `atomic serve` do), in a fresh `node --expose-gc` child per scenario so heap figures are its
// own. Scenarios: `plain` (nothing configured), `extensions` (two real pi packages from the dev
// dependencies loaded as extensions), `mcp` (one stdio MCP server configured), `grep` (each agent
// ran grep once). Reported per scenario: heap and RSS per idle sibling, time to open one (median,
// and the slowest), MCP server processes and threads in the process; then, while one agent
// streams a long answer from a loopback server, one more sibling is opened: the longest
// event-loop stall meanwhile (perf_hooks.monitorEventLoopDelay) and the longest gap between that
// agent's text deltas, against the same measures over a window of the stream with no open; with
// extensions, also a sibling whose trusted project has an extension file no agent imported yet.
// Usage: node bench/siblings.mjs [siblings=20] [scenario...]
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median, tempDir } from "./lib.mjs";
import { spawnFakeOpenAi } from "./fake-openai.mjs";

const SELF = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const PROBE = join(ROOT, "test/fixtures/mcp/probe-server.mjs");
/** Two real pi packages (devDependencies) that load in Atomic without a network or a config. */
export const PI_PACKAGES = (process.env.ATOMIC_BENCH_PI_PACKAGES ?? "@aliou/pi-processes,pi-mcp-adapter").split(",");
const MB = 1024 * 1024;
const round = (value, digits = 1) => +value.toFixed(digits);
const silent = { info() {}, warn() {}, error() {} };
export const SCENARIOS = ["plain", "extensions", "mcp", "grep"];
/** jiti's transpile cache kept between runs: a cold one transpiles the packages for longer than the load budget. */
const KEPT_TRANSPILE_CACHE = join(tmpdir(), "atomic-bench-siblings-jiti");

export function benchSiblings({ siblings = 20, scenarios = SCENARIOS } = {}) {
  const results = {};
  for (const scenario of scenarios) {
    // A first run with a cold transpile cache may not load the packages within the load budget.
    for (let attempt = 1; ; attempt++) {
      try {
        const out = execFileSync(process.execPath, ["--expose-gc", SELF, "--child", scenario, String(siblings)], {
          encoding: "utf8",
          maxBuffer: 16 * MB,
          stdio: ["ignore", "pipe", "inherit"],
        });
        results[scenario] = JSON.parse(out);
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  }
  return results;
}

function models(agentDir, url) {
  const model = (id) => ({ id, name: id, reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 100_000, maxTokens: 4_096 });
  const providers = {
    bench: { baseUrl: `${url}/v1`, api: "openai-completions", apiKey: "bench-key", models: [model("bench-1")] },
    slow: { baseUrl: `${url}/slow/v1`, api: "openai-completions", apiKey: "bench-key", models: [model("slow-1")] },
  };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers }));
}

function status() {
  const text = readFileSync("/proc/self/status", "utf8");
  const field = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)[1]);
  return { rssMb: field("VmRSS") / 1024, threads: field("Threads") };
}

/** Child processes of this process running the MCP probe server. */
function probeProcesses() {
  let count = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === process.pid && readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("probe-server")) count++;
    } catch {}
  }
  return count;
}

async function settle(gc) {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function untilConnected(host) {
  for (let i = 0; i < 500; i++) {
    const { data } = await host.send({ type: "get_mcp_servers" });
    if (data.servers.every((server) => server.state === "connected")) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error("MCP server did not connect");
}

async function grepOnce(host) {
  const grep = host.kernel.tools.get("grep");
  await grep.execute({ pattern: "needle", path: "." }, { toolCallId: "bench", signal: new AbortController().signal, cwd: host.config.cwd, onUpdate() {} });
}

/** Resolves with the text-delta gaps of one long answer; `window(fn)` measures while fn runs. */
function streamLongAnswer(host) {
  const stamps = [];
  const unsubscribe = host.subscribe((event) => {
    if (event.type === "message_update" && event.assistantMessageEvent?.type === "text_delta") stamps.push(performance.now());
  });
  const done = new Promise((resolve) => {
    const off = host.subscribe((event) => event.type === "agent_end" && (off(), resolve()));
  });
  const started = host.send({ type: "prompt", message: "Say a lot." });
  const longestGap = (from, to) => {
    let gap = 0;
    for (let i = 1; i < stamps.length; i++) if (stamps[i] >= from && stamps[i - 1] <= to) gap = Math.max(gap, stamps[i] - stamps[i - 1]);
    return gap;
  };
  return { started, done: done.then(unsubscribe), stamps, longestGap };
}

async function window(stream, fn) {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const from = performance.now();
  const value = await fn();
  const to = performance.now();
  delay.disable();
  return { value, ms: to - from, loopStallMs: delay.max / 1e6, streamGapMs: stream.longestGap(from, to) };
}

async function child(scenario, count) {
  const fake = await spawnFakeOpenAi();
  try {
    return await measure(scenario, count, fake);
  } finally {
    await fake.close();
  }
}

async function measure(scenario, count, fake) {
  const gc = globalThis.gc;
  const agentDir = tempDir("atomic-bench-siblings-");
  const workspace = join(agentDir, "work");
  mkdirSync(workspace);
  for (let i = 0; i < 200; i++) writeFileSync(join(workspace, `file-${i}.txt`), "hay\n".repeat(200));
  models(agentDir, fake.url);
  if (scenario === "mcp") writeFileSync(join(agentDir, "mcp.json"), JSON.stringify({ mcpServers: { probe: { command: process.execPath, args: [PROBE] } } }));
  const settings = scenario === "extensions" ? { extensions: PI_PACKAGES.map((name) => join(ROOT, "node_modules", name)) } : {};
  // A trusted project with an extension file no agent loaded yet: its first import, while another agent streams.
  const fresh = join(agentDir, "fresh");
  if (scenario === "extensions") {
    mkdirSync(join(fresh, ".atomic", "extensions"), { recursive: true });
    const entry = join(ROOT, "node_modules", PI_PACKAGES.at(-1), "index.ts");
    writeFileSync(join(fresh, ".atomic", "extensions", "fresh.ts"), `export { default } from ${JSON.stringify(entry)};\n`);
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ trustedProjects: [fresh] }));
  }
  const { createHost } = await import("../dist/host/index.js");
  const { BUILTIN_PLUGINS } = await import("../dist/cli/builtins.js");
  const transpileCache = join(agentDir, "cache", "jiti");
  if (existsSync(KEPT_TRANSPILE_CACHE)) cpSync(KEPT_TRANSPILE_CACHE, transpileCache, { recursive: true });
  const bootDelay = monitorEventLoopDelay({ resolution: 5 });
  bootDelay.enable();
  let t = performance.now();
  const root = await createHost({
    cwd: workspace,
    agentDir,
    env: {},
    plugins: BUILTIN_PLUGINS,
    cli: { provider: "slow", model: "slow-1", noSession: true },
    settings,
    readSettingsFiles: scenario === "extensions",
    userPlugins: false,
    log: silent,
    installDir: ROOT,
  });
  const rootBootMs = performance.now() - t;
  bootDelay.disable();
  const prepare = async (host) => {
    if (scenario === "mcp") await untilConnected(host);
    if (scenario === "grep") await grepOnce(host);
    if (scenario === "extensions") {
      const listed = host.kernel.services.get("extensions").list();
      const failed = listed.filter((entry) => !entry.loaded);
      if (failed.length > 0 || listed.length < PI_PACKAGES.length) throw new Error(`extensions did not load: ${JSON.stringify(listed)}`);
    }
  };
  // Kept whether or not the packages loaded in time: a cold cache fills over a few runs.
  if (existsSync(transpileCache)) cpSync(transpileCache, KEPT_TRANSPILE_CACHE, { recursive: true });
  await prepare(root);
  // One sibling opened and closed first: code every sibling runs is loaded.
  await (await root.openSibling({ cwd: workspace })).shutdown("exit");
  await settle(gc);
  const before = { heap: process.memoryUsage().heapUsed, ...status() };
  const siblings = [];
  const openMs = [];
  for (let i = 0; i < count; i++) {
    t = performance.now();
    const sibling = await root.openSibling({ cwd: workspace });
    openMs.push(performance.now() - t);
    await prepare(sibling);
    siblings.push(sibling);
  }
  await settle(gc);
  const after = { heap: process.memoryUsage().heapUsed, ...status() };
  const mcpProcesses = scenario === "mcp" ? probeProcesses() : undefined;

  // One agent streams; a window without an open, then one more sibling opened meanwhile.
  const stream = streamLongAnswer(root);
  await stream.started;
  // The provider's SDK loads on the first request: the windows start once the answer flows.
  while (stream.stamps.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));
  const quiet = await window(stream, () => new Promise((resolve) => setTimeout(resolve, 400)));
  const opening = await window(stream, async () => {
    const sibling = await root.openSibling({ cwd: workspace });
    await prepare(sibling);
    return sibling;
  });
  siblings.push(opening.value);
  const firstImport =
    scenario === "extensions"
      ? await window(stream, async () => {
          const sibling = await root.openSibling({ cwd: fresh });
          await prepare(sibling);
          return sibling;
        })
      : undefined;
  if (firstImport) siblings.push(firstImport.value);
  await stream.done;
  if (stream.stamps.length < 100) throw new Error(`the long answer streamed only ${stream.stamps.length} deltas`);

  await Promise.all(siblings.map((sibling) => sibling.shutdown("exit")));
  const mcpAfterSiblings = scenario === "mcp" ? probeProcesses() : undefined;
  await root.shutdown("exit");
  await new Promise((resolve) => setTimeout(resolve, 200));
  const mcpAfterAll = scenario === "mcp" ? probeProcesses() : undefined;
  return {
    scenario,
    siblings: count,
    ...(scenario === "extensions" ? { packages: PI_PACKAGES } : {}),
    rootBootMs: round(rootBootMs),
    rootBootLoopStallMs: round(bootDelay.max / 1e6),
    openMedianMs: round(median(openMs), 2),
    openMaxMs: round(Math.max(...openMs), 2),
    heapPerIdleSiblingMb: round((after.heap - before.heap) / count / MB, 2),
    rssPerIdleSiblingMb: round((after.rssMb - before.rssMb) / count, 2),
    threadsBefore: before.threads,
    threadsAfter: after.threads,
    ...(mcpProcesses !== undefined ? { mcpServerProcesses: mcpProcesses, mcpAfterSiblingsClosed: mcpAfterSiblings, mcpAfterAllClosed: mcpAfterAll } : {}),
    whileStreaming: {
      openMs: round(opening.ms),
      loopStallMs: round(opening.loopStallMs),
      streamGapMs: round(opening.streamGapMs),
      quietLoopStallMs: round(quiet.loopStallMs),
      quietStreamGapMs: round(quiet.streamGapMs),
      ...(firstImport ? { newFileOpenMs: round(firstImport.ms), newFileLoopStallMs: round(firstImport.loopStallMs), newFileStreamGapMs: round(firstImport.streamGapMs) } : {}),
    },
  };
}

if (process.argv[2] === "--child") {
  process.stdout.write(JSON.stringify(await child(process.argv[3], Number(process.argv[4]))));
  process.exit(0);
} else if (import.meta.url === `file://${process.argv[1]}`) {
  const scenarios = process.argv.slice(3);
  console.log(JSON.stringify(benchSiblings({ siblings: Number(process.argv[2] ?? 20), scenarios: scenarios.length > 0 ? scenarios : SCENARIOS }), null, 2));
}
