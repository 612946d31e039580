/**
 * Compatibility with pi's example extensions (the installed dev dependencies): every `.ts` file
 * directly in `examples/extensions/` that draws no terminal UI (does not import pi-tui; pi's
 * README and issue 24 count them so: 48 in pi 1.6.0, 44 in 0.73.1) is loaded unchanged through
 * Atomic's real loader, in a booted agent. It counts as working when it loads, every pi package
 * it imports was served from Atomic's own modules (never the installed pi), and it registers the
 * same commands, tools and flags as pi's own loader finds for it. pi 1.6 needs Node >= 22.19,
 * so its loader runs in a Node 22 child process (scripts/node-runtime.mjs installs a pinned one
 * from the npm registry); without one the pi 1.6 check is skipped with the reason printed.
 * The counts and each miss are documented in docs/extensions.md.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS } from "../cli/builtins.js";
import { createHost } from "../host/index.js";
import { silentLogger } from "../kernel/index.js";
import type { ExtensionSummary } from "../plugins/extensions/api.js";
import { MODULE_NAMES } from "../plugins/extensions/compat/modules.js";
import { keepTranspileCache, seedTranspileCache } from "./helpers/transpile-cache.js";

const REPO = resolve(import.meta.dirname, "..");
const PI_0 = join(REPO, "node_modules/@mariozechner/pi-coding-agent");
const PI_1 = join(REPO, "node_modules/@earendil-works/pi-coding-agent");
const run = promisify(execFile);

interface Registrations {
  commands: string[];
  tools: string[];
  flags: string[];
}
type PiAnswer = Registrations | { error: string };

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "atomic-pi-compat-"));
  dirs.push(dir);
  return dir;
};

const drawsTerminalUi = (file: string) => /["']@(mariozechner|earendil-works)\/pi-tui["']/.test(readFileSync(file, "utf8"));

/** The `.ts` files directly in the examples folder; pi's "non-TUI" count leaves out those that import pi-tui. */
function examples(piDir: string, which: "terminal-free" | "terminal-ui"): string[] {
  const folder = join(piDir, "examples/extensions");
  return readdirSync(folder)
    .filter((name) => name.endsWith(".ts"))
    .sort()
    .map((name) => join(folder, name))
    .filter((file) => drawsTerminalUi(file) === (which === "terminal-ui"));
}

/** Package names a file imports as values (what survives TypeScript's own type-import elision). */
function valueImports(file: string): string[] {
  const output = ts.transpileModule(readFileSync(file, "utf8"), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  return [...output.matchAll(/require\("([^"]+)"\)/g)]
    .map((match) => match[1]!)
    .filter((name) => !name.startsWith("node:") && !builtinModules.includes(name) && !name.startsWith("."));
}

/**
 * One agent dir for every load of this file: its jiti cache (cache/jiti) is seeded from the one
 * kept between runs and kept after them, so a run transpiles only the examples that changed
 * (jiti checks each entry against its source). Nothing else in it is read: no settings, no user
 * plugins, no session.
 */
let atomicDir: string | undefined;
const ATOMIC_CACHE = "pi-compat";
function atomicAgentDir(): string {
  if (atomicDir) return atomicDir;
  atomicDir = tempDir();
  seedTranspileCache(ATOMIC_CACHE, join(atomicDir, "cache", "jiti"));
  return atomicDir;
}
afterAll(() => {
  if (atomicDir) keepTranspileCache(ATOMIC_CACHE, join(atomicDir, "cache", "jiti"));
});

/**
 * pi's loaders keep their jiti transpile cache in `<TMPDIR>/jiti`: a TMPDIR of this file's own,
 * seeded from the cache kept between runs (one per pi version: their jiti versions differ) and
 * kept after the load, spares transpiling every example again each run (~3 s of CPU per pi).
 */
const piCaches: [name: string, folder: string][] = [];
function piTempDir(cache: string): string {
  const dir = tempDir();
  seedTranspileCache(cache, join(dir, "jiti"));
  piCaches.push([cache, join(dir, "jiti")]);
  return dir;
}
afterAll(() => {
  for (const [name, folder] of piCaches) keepTranspileCache(name, folder);
});

async function loadWithAtomic(file: string): Promise<ExtensionSummary> {
  const dir = atomicAgentDir();
  const host = await createHost({
    cwd: dir,
    agentDir: dir,
    env: {},
    // Compared at load time, as pi's loader reports it: without a session no session_start
    // handler adds registrations of its own (dynamic-tools registers a tool there, in both).
    plugins: BUILTIN_PLUGINS.filter((plugin) => !["session", "session-jsonl"].includes(plugin.name) && !plugin.requires?.includes("session")),
    cli: { extension: [file], provider: "replay", model: "demo" },
    readSettingsFiles: false,
    userPlugins: false,
    log: silentLogger,
    installDir: REPO,
  });
  const [summary] = host.kernel.services.get("extensions").list();
  await host.shutdown("eof");
  return summary!;
}

/** Why `file` does not work in Atomic as it does in pi, or undefined when it does. */
async function verdict(file: string, pi: PiAnswer | undefined): Promise<string | undefined> {
  const imports = valueImports(file);
  const foreign = imports.filter((name) => /^@(mariozechner|earendil-works)\/|typebox/.test(name) && !(MODULE_NAMES as readonly string[]).includes(name));
  if (foreign.length > 0) return `imports ${foreign.join(", ")}, which Atomic does not provide`;
  if (!pi) return "pi reported nothing for it";
  if ("error" in pi) return `pi itself fails: ${pi.error}`;
  const atomic = await loadWithAtomic(file);
  if (!atomic.loaded) return `does not load: ${atomic.error}`;
  const notServed = imports.filter((name) => !atomic.modules.includes(name));
  if (notServed.length > 0) return `imports not served by Atomic: ${notServed.join(", ")}`;
  const ours = { commands: [...atomic.commands].sort(), tools: [...atomic.tools].sort(), flags: [...atomic.flags].sort() };
  if (JSON.stringify(ours) !== JSON.stringify(pi)) return `registers ${JSON.stringify(ours)}, pi ${JSON.stringify(pi)}`;
  return undefined;
}

async function misses(files: string[], pi: Record<string, PiAnswer>): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const file of files) {
    const why = await verdict(file, pi[file]);
    if (why !== undefined) found[file.split("/").pop()!] = why;
  }
  return found;
}

describe("pi 0.73.1 example extensions, unchanged", () => {
  const files = examples(PI_0, "terminal-free");

  it("are the 44 files without terminal UI", () => {
    expect(files).toHaveLength(44);
  });

  it("load through Atomic's loader with Atomic's modules and register what they register in pi", async () => {
    // pi 0.73.1 runs on this Node: its loader is called in this process.
    const { loadExtensions } = (await import(pathToFileURL(join(PI_0, "dist/core/extensions/loader.js")).href)) as {
      loadExtensions(
        paths: string[],
        cwd: string,
      ): Promise<{ extensions: { commands: Map<string, unknown>; tools: Map<string, unknown>; flags: Map<string, unknown> }[]; errors: { error: string }[] }>;
    };
    const pi: Record<string, PiAnswer> = {};
    // Read by each load's jiti as it starts (os.tmpdir()); restored before anything else runs.
    const previousTmp = process.env.TMPDIR;
    process.env.TMPDIR = piTempDir("pi-compat-pi0");
    try {
      for (const file of files) {
        const result = await loadExtensions([file], REPO);
        const [extension] = result.extensions;
        pi[file] = result.errors[0]
          ? { error: result.errors[0].error }
          : { commands: [...extension!.commands.keys()].sort(), tools: [...extension!.tools.keys()].sort(), flags: [...extension!.flags.keys()].sort() };
      }
    } finally {
      if (previousTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previousTmp;
    }
    const missed = await misses(files, pi);
    const working = files.length - Object.keys(missed).length;
    console.log(`pi 0.73.1 compatibility: ${working} of ${files.length} examples work unchanged`, missed);
    expect(missed).toEqual({});
    expect(working).toBeGreaterThanOrEqual(40);
  }, 120_000);
});

describe("pi 1.6.0 example extensions, unchanged", () => {
  const files = examples(PI_1, "terminal-free");
  // Those that draw a terminal UI too: their pi-tui imports are served by Atomic's headless pi-tui.
  const drawing = examples(PI_1, "terminal-ui");
  let pi: Record<string, PiAnswer> | undefined;
  let unavailable: string | undefined;

  beforeAll(async () => {
    try {
      const { nodeRuntime } = (await import(pathToFileURL(join(REPO, "scripts/node-runtime.mjs")).href)) as { nodeRuntime(major: number): Promise<string> };
      const node = await nodeRuntime(22);
      const { stdout } = await run(node, [join(REPO, "test/pi-compat/pi-registrations.mjs"), PI_1, tempDir(), ...files, ...drawing], {
        maxBuffer: 16 << 20,
        timeout: 120_000,
        env: { ...process.env, TMPDIR: piTempDir("pi-compat-pi1") },
      });
      pi = JSON.parse(stdout) as Record<string, PiAnswer>;
    } catch (error) {
      unavailable = `pi 1.6.0's own loader could not run under Node 22: ${error instanceof Error ? error.message : String(error)}`;
    }
  }, 180_000);

  it("are the 48 files without terminal UI", () => {
    expect(files).toHaveLength(48);
  });

  it("load through Atomic's loader with Atomic's modules and register what pi 1.6 registers", async (ctx) => {
    if (!pi) {
      console.log(`skipped: ${unavailable}`);
      ctx.skip();
      return;
    }
    const missed = await misses(files, pi);
    const working = files.length - Object.keys(missed).length;
    console.log(`pi 1.6.0 compatibility: ${working} of ${files.length} examples work unchanged`, missed);
    // pi itself loads every one of them.
    expect(Object.values(pi).filter((answer) => "error" in answer)).toEqual([]);
    expect(missed).toEqual({});
    expect(working).toBeGreaterThanOrEqual(45);
  }, 180_000);

  it("the 22 that draw a terminal UI load too, with Atomic's headless pi-tui, and register what pi 1.6 registers", async (ctx) => {
    if (!pi) {
      console.log(`skipped: ${unavailable}`);
      ctx.skip();
      return;
    }
    expect(drawing).toHaveLength(22);
    const missed = await misses(drawing, pi);
    console.log(`pi 1.6.0 terminal-UI examples: ${drawing.length - Object.keys(missed).length} of ${drawing.length} load and register as in pi`, missed);
    expect(missed).toEqual({});
  }, 180_000);
});
