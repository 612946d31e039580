/**
 * Compatibility with pi 0.73.1's example extensions (the installed dev dependency): every `.ts`
 * file directly in its `examples/extensions/` that draws no terminal UI (does not import
 * `@mariozechner/pi-tui`) is loaded unchanged through Atomic's real loader, in a booted agent.
 * It counts as working when it loads, every pi package it imports was served from Atomic's own
 * modules (never the installed pi), and it registers the same commands, tools and flags as pi's
 * own loader finds. The count and each miss are documented in docs/extensions.md.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS } from "../cli/builtins.js";
import { createHost } from "../host/index.js";
import { silentLogger } from "../kernel/index.js";
import type { ExtensionSummary } from "../plugins/extensions/api.js";
import { MODULE_NAMES } from "../plugins/extensions/compat/modules.js";

const PI = resolve(import.meta.dirname, "../node_modules/@mariozechner/pi-coding-agent");
const EXAMPLES = join(PI, "examples/extensions");
const REPO = resolve(import.meta.dirname, "..");
/** Files that fail, and why (docs/extensions.md, "Coming from pi", says the same). */
const KNOWN_MISSES: Record<string, string> = {};

const files = readdirSync(EXAMPLES)
  .filter((name) => name.endsWith(".ts") && !readFileSync(join(EXAMPLES, name), "utf8").includes("@mariozechner/pi-tui"))
  .sort();
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Package names a file imports as values (what survives TypeScript's own type-import elision). */
function valueImports(file: string): string[] {
  const output = ts.transpileModule(readFileSync(file, "utf8"), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  return [...output.matchAll(/require\("([^"]+)"\)/g)].map((match) => match[1]!).filter((name) => !name.startsWith("node:") && !builtinModules.includes(name) && !name.startsWith("."));
}

interface Registrations {
  commands: string[];
  tools: string[];
  flags: string[];
}

async function loadWithPi(file: string): Promise<Registrations | string> {
  const { loadExtensions } = (await import(pathToFileURL(join(PI, "dist/core/extensions/loader.js")).href)) as {
    loadExtensions(paths: string[], cwd: string): Promise<{ extensions: { commands: Map<string, unknown>; tools: Map<string, unknown>; flags: Map<string, unknown> }[]; errors: { error: string }[] }>;
  };
  const result = await loadExtensions([file], REPO);
  if (result.errors.length > 0) return result.errors[0]!.error;
  const [extension] = result.extensions;
  return { commands: [...extension!.commands.keys()].sort(), tools: [...extension!.tools.keys()].sort(), flags: [...extension!.flags.keys()].sort() };
}

async function loadWithAtomic(file: string): Promise<ExtensionSummary> {
  const dir = mkdtempSync(join(tmpdir(), "atomic-pi-compat-"));
  dirs.push(dir);
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
async function verdict(file: string): Promise<string | undefined> {
  const imports = valueImports(file);
  const foreign = imports.filter((name) => (name.startsWith("@mariozechner/") || name.includes("typebox")) && !(MODULE_NAMES as readonly string[]).includes(name));
  if (foreign.length > 0) return `imports ${foreign.join(", ")}, which Atomic does not provide`;
  const pi = await loadWithPi(file);
  if (typeof pi === "string") return `pi itself fails: ${pi}`;
  const atomic = await loadWithAtomic(file);
  if (!atomic.loaded) return `does not load: ${atomic.error}`;
  const notServed = imports.filter((name) => !atomic.modules.includes(name));
  if (notServed.length > 0) return `imports not served by Atomic: ${notServed.join(", ")}`;
  const ours = { commands: [...atomic.commands].sort(), tools: [...atomic.tools].sort(), flags: [...atomic.flags].sort() };
  if (JSON.stringify(ours) !== JSON.stringify(pi)) return `registers ${JSON.stringify(ours)}, pi ${JSON.stringify(pi)}`;
  return undefined;
}

describe("pi 0.73.1 example extensions, unchanged", () => {
  it("are the 44 files without terminal UI", () => {
    expect(files).toHaveLength(44);
  });

  it("load through Atomic's loader with Atomic's modules and register what they register in pi", async () => {
    const misses: Record<string, string> = {};
    for (const name of files) {
      const why = await verdict(join(EXAMPLES, name));
      if (why !== undefined) misses[name] = why;
    }
    const working = files.length - Object.keys(misses).length;
    console.log(`pi compatibility: ${working} of ${files.length} examples work unchanged`, misses);
    expect(Object.keys(misses)).toEqual(Object.keys(KNOWN_MISSES));
    expect(working).toBeGreaterThanOrEqual(40);
  }, 120_000);
});
