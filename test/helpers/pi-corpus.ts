/**
 * The corpus of real pi extension packages (pinned dev dependencies) and how a test loads one: in
 * Atomic's built CLI (`-e <package folder>`, answered through the extensions probe plugin) and in
 * pi 1.6 itself (its SDK in a Node 22 child, test/pi-packages/pi-reference.mjs).
 *
 * One agent dir per test file keeps what a first import transpiles for the next boots; both jiti
 * caches (Atomic's in the agent dir, pi's in `<TMPDIR>/jiti`) are kept between runs
 * (test/helpers/transpile-cache.ts). `ATOMIC_CORPUS_COLD=1` turns that off: every load then
 * transpiles from nothing (bench/corpus-saturated.mjs runs the harness so).
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll } from "vitest";
import { nodeRuntime } from "../../scripts/node-runtime.mjs";
import { PI_16 } from "./pi-side-by-side.js";
import { agentTempDir, RpcClient, tempDir, type StartOptions } from "./rpc-client.js";
import { keepTranspileCache, piCompileCache, seedTranspileCache } from "./transpile-cache.js";
import { withoutBuiltins } from "./commands.js";

const run = promisify(execFile);
export const REPO = resolve(import.meta.dirname, "../..");
export const MODULES = join(REPO, "node_modules");
const PROBE = join(REPO, "test/fixtures/extensions-probe.ts");
export const CORPUS_COLD = process.env.ATOMIC_CORPUS_COLD === "1";

/** The corpus: pi extension packages as published on npm (docs/packages.md lists what each registers). */
export const CORPUS = [
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
] as const;

export interface Loaded {
  commands: string[];
  tools: string[];
  flags: string[];
  skills: string[];
  prompts: string[];
}

/** A Node 22 for pi 1.6 (which needs >= 22.19), or the reason there is none; asked once per file. */
export function usePiNode(): { node22: string | undefined; skipReason: string } {
  const state: { node22: string | undefined; skipReason: string } = { node22: undefined, skipReason: "" };
  beforeAll(async () => {
    try {
      state.node22 = (await nodeRuntime(22)) as string;
    } catch (error) {
      state.skipReason = `pi 1.6 needs Node >= 22.19 and none could be had: ${(error as Error).message}`;
      console.log(`Skipping the pi 1.6 side: ${state.skipReason}`);
    }
  }, 300_000);
  return state;
}

/** What pi 1.6 registers for the package in `folder`. */
export async function loadedByPi(node22: string, folder: string): Promise<Loaded> {
  const { stdout } = await run(node22, [join(REPO, "test/pi-packages/pi-reference.mjs"), PI_16, folder], {
    timeout: 600_000,
    maxBuffer: 16 << 20,
    // pi-subagents makes `<TMPDIR>/pi-subagents-uid-<uid>` as it loads: in this file's folder, as Atomic's child.
    // The run's compile cache: pi's SDK is otherwise compiled from source by every reference process.
    env: {
      ...process.env,
      PI_OFFLINE: "1",
      TMPDIR: CORPUS_COLD ? tempDir("pi-corpus-tmp-") : agentTempDir(),
      ...(CORPUS_COLD ? {} : { NODE_COMPILE_CACHE: piCompileCache() }),
    },
  });
  const result = JSON.parse(stdout) as Loaded & { fatal?: string; errors: string[] };
  if (result.fatal) throw new Error(`pi 1.6 could not load ${folder}: ${result.fatal}`);
  if (result.errors.length > 0) throw new Error(`pi 1.6 reports errors for ${folder}: ${result.errors.join("; ")}`);
  return { commands: result.commands, tools: result.tools, flags: result.flags, skills: result.skills, prompts: result.prompts };
}

/** An agent dir with the extensions probe plugin; its jiti cache seeded from the kept one (unless cold). */
export function corpusAgentDir({ cold = CORPUS_COLD }: { cold?: boolean } = {}): string {
  const agentDir = tempDir("atomic-corpus-agent-");
  mkdirSync(agentDir, { recursive: true });
  writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ plugins: [PROBE] }));
  if (!cold) seedTranspileCache("atomic", join(agentDir, "cache", "jiti"));
  return agentDir;
}

/** The file's agent dir, its cache (and pi's) seeded before the tests and kept after them. */
export function useCorpusAgentDir(): string {
  const agentDir = corpusAgentDir();
  const caches = { atomic: join(agentDir, "cache", "jiti"), pi: join(agentTempDir(), "jiti") };
  if (CORPUS_COLD) return agentDir;
  beforeAll(() => seedTranspileCache("pi", caches.pi));
  afterAll(() => {
    for (const [name, folder] of Object.entries(caches)) keepTranspileCache(name, folder);
  });
  return agentDir;
}

/** What Atomic registers for the package in `folder`, and the load errors its probe reports. */
export async function loadedByAtomic(
  agentDir: string,
  folder: string,
  options: Pick<StartOptions, "env" | "launcher"> = {},
): Promise<Loaded & { errors: string[]; stderr: string }> {
  const client = new RpcClient({
    agentDir,
    cwd: tempDir("atomic-corpus-cwd-"),
    // Its own temp folder: packages leave theirs there (pi-subagents' per-user folder), removed with it.
    env: { HOME: tempDir("atomic-corpus-home-"), TMPDIR: tempDir("atomic-corpus-tmp-"), ...options.env },
    args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session", "-e", folder],
    ...(options.launcher ? { launcher: options.launcher } : {}),
  });
  // A cold first import transpiles the whole package (tens of seconds on a busy machine): it loads all the same.
  // pi's SDK session (the reference) loads no built-in extensions: Atomic's built-in /llama and /mcp are left out.
  const commands = withoutBuiltins(((await client.ok({ type: "get_commands" }, 600_000)) as { commands: { name: string; source: string }[] }).commands);
  const probe = (await client.ok({ type: "extensions_probe" })) as { extensions: { loaded: boolean; error?: string; tools: string[]; flags: string[] }[] };
  const extensionErrors = client.records.filter((record) => record.type === "extension_error").map((record) => String(record.error));
  await client.close();
  const errors = [...probe.extensions.flatMap((extension) => (extension.error ? [extension.error] : [])), ...extensionErrors];
  const names = (source: string) =>
    commands
      .filter((entry) => entry.source === source)
      .map((entry) => entry.name.replace(/^skill:/, ""))
      .sort();
  return {
    commands: names("extension"),
    tools: [...new Set(probe.extensions.flatMap((extension) => extension.tools))].sort(),
    flags: [...new Set(probe.extensions.flatMap((extension) => extension.flags))].sort(),
    skills: names("skill"),
    prompts: names("prompt"),
    errors,
    stderr: client.stderr,
  };
}
