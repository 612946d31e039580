// bench/extensions: what extensions cost at startup. (1) spawn -> response to get_state, N fresh
// processes, with no extensions and with the example extensions (extensions-examples/extensions,
// copied into <agent dir>/extensions), the two alternating so machine load hits both alike. The
// first run with extensions transpiles them (jiti's file cache may already hold them from an
// earlier run); the median is the everyday start, `costMs` the median of the paired differences.
// (2) In one process, the extensions plugin's own time: importing and running every extension
// (`loadMs` per extension, as the `extensions` service reports it), first boot (loads jiti) and
// later boots.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median, startAgent, tempDir } from "./lib.mjs";

const EXAMPLES = fileURLToPath(new URL("../extensions-examples/extensions/", import.meta.url));

/** CPU time (user + system) the process has used so far, from /proc (10 ms ticks). */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** Wall time to the get_state response, and the CPU time the process used by then. */
async function startupMs(agentDir) {
  let agent;
  const done = new Promise((resolve) => {
    agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"], {
      agentDir,
      onLine: (line) => line.includes('"command":"get_state"') && resolve({ wall: performance.now() - agent.t0, cpu: cpuMs(agent.child.pid) }),
    });
  });
  agent.send({ type: "get_state", id: 1 });
  const measured = await done;
  agent.child.stdin.end();
  await agent.exited;
  return measured;
}

const summary = (runs) => {
  const wall = runs.map((run) => run.wall);
  return { firstMs: +wall[0].toFixed(1), medianMs: +median(wall).toFixed(1), minMs: +Math.min(...wall).toFixed(1), medianCpuMs: median(runs.map((run) => run.cpu)) };
};

/** Startup of the two agent dirs, alternating run by run; the cost is the median of the paired differences. */
async function paired(bareDir, extensionsDir, runs) {
  const none = [];
  const loaded = [];
  for (let i = 0; i < runs; i++) {
    none.push(await startupMs(bareDir));
    loaded.push(await startupMs(extensionsDir));
  }
  const cost = (field) => +median(loaded.map((run, i) => run[field] - none[i][field])).toFixed(1);
  return { none: summary(none), loaded: summary(loaded), costMs: cost("wall"), costCpuMs: cost("cpu") };
}

async function inProcess(agentDir, runs) {
  const { silentLogger } = await import("../dist/kernel/index.js");
  const { createHost } = await import("../dist/host/index.js");
  const { BUILTIN_PLUGINS } = await import("../dist/cli/builtins.js");
  const totals = [];
  for (let i = 0; i < runs; i++) {
    const host = await createHost({
      cwd: agentDir,
      agentDir,
      env: {},
      plugins: BUILTIN_PLUGINS,
      cli: { provider: "replay", model: "demo", noSession: true },
      userPlugins: false,
      log: silentLogger,
      installDir: fileURLToPath(new URL("../", import.meta.url)),
    });
    totals.push(
      host.kernel.services
        .get("extensions")
        .list()
        .reduce((sum, e) => sum + e.loadMs, 0),
    );
    await host.shutdown("eof");
  }
  return { firstBootLoadMs: +totals[0].toFixed(1), laterBootsMedianLoadMs: +median(totals.slice(1)).toFixed(1) };
}

export async function benchExtensions(runs = 11) {
  const bare = tempDir("atomic-bench-ext-none-");
  const withExtensions = tempDir("atomic-bench-ext-");
  mkdirSync(join(withExtensions, "extensions"));
  const files = readdirSync(EXAMPLES).filter((name) => name.endsWith(".ts"));
  for (const name of files) copyFileSync(join(EXAMPLES, name), join(withExtensions, "extensions", name));
  try {
    const startup = await paired(bare, withExtensions, runs);
    const loading = await inProcess(withExtensions, runs);
    return { runs, extensions: files.length, ...startup, loading };
  } finally {
    rmSync(bare, { recursive: true, force: true });
    rmSync(withExtensions, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchExtensions(Number(process.argv[2] ?? 11))));
