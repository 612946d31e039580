// bench/saturated-load: what loads must not depend on how busy the machine is. The corpus of real
// extension packages (test/pi-packages.e2e.test.ts) and pi 1.6's terminal-free example
// extensions are loaded by the built CLI, each from a cold jiti cache (a fresh agent dir), first on
// the machine as it is, then with it saturated (2 CPU-bound processes per core, killed at the end).
// Both runs must load the same extensions with the same registrations and no error; the load
// times of both are printed. Exit 1 when anything differs.
//
//   node bench/saturated-load.mjs [--hogs-per-core 2] [--only <substring>]
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { saturate, startAgent, tempDir } from "./lib.mjs";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const MODULES = join(REPO, "node_modules");
const PROBE = join(REPO, "test/fixtures/extensions-probe.ts");
const CORPUS = [
  "pi-mcp-adapter",
  "pi-subagents",
  "@agentuity/pi",
  "pi-prompt-template-model",
  "pi-web-access",
  "pi-markdown-preview",
  "pi-aliases",
  "@baochunli/pi-collaborating-agents",
  "@aliou/pi-processes",
  "pi-system-theme",
  "pi-sync-system-theme",
];

const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const hogsPerCore = Number(option("--hogs-per-core", "2"));
const only = option("--only", undefined);

/** pi 1.6's examples that draw no terminal UI, as test/pi-compat.test.ts counts them. */
function piExamples() {
  const folder = join(MODULES, "@earendil-works/pi-coding-agent/examples/extensions");
  return readdirSync(folder)
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => join(folder, name))
    .filter((file) => !/["']@(mariozechner|earendil-works)\/pi-tui["']/.test(readFileSync(file, "utf8")));
}

/** One cold start with `extensionArgs`: what loaded (per extension file) and how long until the agent answered. */
async function load(label, extensionArgs) {
  const agentDir = tempDir("atomic-saturated-");
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ plugins: [PROBE] }));
  const cwd = tempDir("atomic-saturated-cwd-");
  const started = performance.now();
  const answers = new Map();
  const errors = [];
  const agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session", ...extensionArgs], {
    agentDir,
    cwd,
    onLine: (line) => {
      const record = JSON.parse(line);
      if (record.type === "extension_error") errors.push(`${record.extensionPath}: ${record.error}`);
      if (record.type === "response" && answers.has(record.id)) answers.get(record.id)(record);
    },
  });
  const ask = (id, command) =>
    new Promise((resolve) => {
      answers.set(id, resolve);
      agent.send({ ...command, id });
    });
  const exited = agent.exited.then((code) => ({ exited: code }));
  const probe = await Promise.race([ask("probe", { type: "extensions_probe" }), exited]);
  const ms = performance.now() - started;
  if ("exited" in probe) return { label, ms, exitCode: probe.exited, errors, extensions: [] };
  const commands = await ask("commands", { type: "get_commands" });
  agent.child.stdin.end();
  await agent.exited;
  const extensions = probe.data.extensions.map((extension) => ({
    path: extension.path.replace(REPO, "<repo>/"),
    loaded: extension.loaded,
    error: extension.error,
    tools: [...extension.tools].sort(),
    flags: [...extension.flags].sort(),
    commands: commands.data.commands
      .filter((command) => command.source === "extension" && command.path === extension.path)
      .map((command) => command.name)
      .sort(),
  }));
  return { label, ms, exitCode: 0, errors, extensions };
}

async function pass() {
  const results = [];
  for (const name of CORPUS.filter((entry) => !only || entry.includes(only))) results.push(await load(name, ["-e", join(MODULES, name)]));
  if (!only || "pi-examples".includes(only))
    results.push(
      await load(
        "pi 1.6 examples (48)",
        piExamples().flatMap((file) => ["-e", file]),
      ),
    );
  return results;
}

const summary = (result) => ({
  loaded: result.extensions.filter((extension) => extension.loaded).length,
  of: result.extensions.length,
  exitCode: result.exitCode,
  errors: result.errors.length,
});

const idle = await pass();
const hogs = saturate(hogsPerCore);
let saturated;
try {
  saturated = await pass();
} finally {
  hogs.stop();
}

let same = true;
const rows = idle.map((before, index) => {
  const after = saturated[index];
  const identical = JSON.stringify(before.extensions) === JSON.stringify(after.extensions) && before.exitCode === after.exitCode && after.errors.length === before.errors.length;
  if (!identical || before.errors.length > 0) same = false;
  return {
    extensions: before.label,
    idleSeconds: +(before.ms / 1000).toFixed(1),
    saturatedSeconds: +(after.ms / 1000).toFixed(1),
    idle: summary(before),
    saturated: summary(after),
    same: identical,
    ...(before.errors.length || after.errors.length ? { idleErrors: before.errors, saturatedErrors: after.errors } : {}),
  };
});
console.log(JSON.stringify({ node: process.version, cores: availableParallelism(), hogs: hogs.count, same, rows }, null, 2));
process.exitCode = same ? 0 : 1;
