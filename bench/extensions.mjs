// bench/extensions: what extensions cost at startup. (1) spawn -> response to get_state, N fresh
// processes, with no extensions and with the example extensions (extensions-examples/extensions,
// copied into <agent dir>/extensions), the two alternating so machine load hits both alike. The
// first run with extensions transpiles them (jiti's file cache may already hold them from an
// earlier run); the median is the everyday start, `costMs` the median of the paired differences.
// (2) In one process, the extensions plugin's own time: importing and running every extension
// (`loadMs` per extension, as the `extensions` service reports it), first boot (loads jiti) and
// later boots.
import { copyFileSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { median, startAgent, tempDir } from "./lib.mjs";

const EXAMPLES = fileURLToPath(new URL("../extensions-examples/extensions/", import.meta.url));

async function startupMs(agentDir) {
  let agent;
  const done = new Promise((resolve) => {
    agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"], {
      agentDir,
      onLine: (line) => line.includes('"command":"get_state"') && resolve(performance.now() - agent.t0),
    });
  });
  agent.send({ type: "get_state", id: 1 });
  const ms = await done;
  agent.child.stdin.end();
  await agent.exited;
  return ms;
}

const summary = (times) => ({ firstMs: +times[0].toFixed(1), medianMs: +median(times).toFixed(1), minMs: +Math.min(...times).toFixed(1) });

/** Startup times of the two agent dirs, alternating run by run. */
async function paired(bareDir, extensionsDir, runs) {
  const none = [];
  const loaded = [];
  for (let i = 0; i < runs; i++) {
    none.push(await startupMs(bareDir));
    loaded.push(await startupMs(extensionsDir));
  }
  return { none: summary(none), loaded: summary(loaded), costMs: +median(loaded.map((ms, i) => ms - none[i])).toFixed(1) };
}

async function inProcess(agentDir, runs) {
  const { createHost, silentLogger } = await import("../dist/kernel/index.js");
  const { BUILTIN_PLUGINS } = await import("../dist/cli/builtins.js");
  const totals = [];
  for (let i = 0; i < runs; i++) {
    const host = await createHost({ cwd: agentDir, agentDir, env: {}, plugins: BUILTIN_PLUGINS, cli: { provider: "replay", model: "demo", noSession: true }, userPlugins: false, log: silentLogger, installDir: fileURLToPath(new URL("../", import.meta.url)) });
    totals.push(host.kernel.services.get("extensions").list().reduce((sum, e) => sum + e.loadMs, 0));
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
