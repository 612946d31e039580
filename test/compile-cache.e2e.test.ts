/**
 * The launcher's code cache (cli/compile-cache.cts) over the built CLI: a process that served
 * leaves its bytecode in `<agent dir>/cache/compile/<build>-node<version>-<arch>/`, the next one
 * uses it as is, a damaged file is replaced, `--version` leaves nothing, `ATOMIC_COMPILE_CACHE`
 * moves or turns it off, and dynamic imports from the bundle work without an experimental warning.
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";
import { agentNodeVersion, NODE } from "./helpers/node.js";

const GET_STATE = `${JSON.stringify({ type: "get_state", id: "s" })}\n`;
const DIST_CLI = resolve(import.meta.dirname, "../dist/cli");

function cacheDirs(root: string): string[] {
  return existsSync(root) ? readdirSync(root).map((name) => join(root, name)) : [];
}

/** These tests are about the cache's folder: the test run's shared one (test/helpers/temp-root.ts) is unset. */
const DEFAULT_FOLDER = { ATOMIC_COMPILE_CACHE: undefined };

async function serveOnce(agentDir: string, env: Record<string, string> = {}): Promise<void> {
  const run = await runCli(["--mode", "rpc", "--no-session"], { cwd: agentDir, agentDir, env: { ...DEFAULT_FOLDER, ...env }, stdin: GET_STATE });
  expect(run.stderr).toBe("");
  expect(JSON.parse(run.stdout.split("\n")[0]!)).toMatchObject({ id: "s", success: true });
  expect(run.code).toBe(0);
}

describe("compileCacheRoot (the built launcher's)", () => {
  const { compileCacheRoot } = createRequire(import.meta.url)(join(DIST_CLI, "compile-cache.cjs")) as {
    compileCacheRoot(env: Record<string, string>, home: string): string | undefined;
  };
  const home = "/home/ada";
  it("defaults to the agent dir's cache/compile, ~ expanded as the kernel does", () => {
    expect(compileCacheRoot({}, home)).toBe("/home/ada/.atomic/agent/cache/compile");
    expect(compileCacheRoot({ ATOMIC_CODING_AGENT_DIR: "~/agents/a" }, home)).toBe("/home/ada/agents/a/cache/compile");
    expect(compileCacheRoot({ ATOMIC_CODING_AGENT_DIR: "/srv/agent" }, home)).toBe("/srv/agent/cache/compile");
  });
  it("ATOMIC_COMPILE_CACHE names the folder or turns the cache off", () => {
    expect(compileCacheRoot({ ATOMIC_COMPILE_CACHE: "/var/cache/atomic" }, home)).toBe("/var/cache/atomic");
    expect(compileCacheRoot({ ATOMIC_COMPILE_CACHE: "off", ATOMIC_CODING_AGENT_DIR: "/srv" }, home)).toBeUndefined();
    expect(compileCacheRoot({ ATOMIC_COMPILE_CACHE: "0" }, home)).toBeUndefined();
  });
});

describe("compile cache", () => {
  it("a process that served writes its bytecode once; the next one uses it unchanged", async () => {
    const agentDir = tempDir("atomic-cc-");
    await serveOnce(agentDir);
    const [dir, ...others] = cacheDirs(join(agentDir, "cache", "compile"));
    expect(others).toEqual([]);
    const { main } = JSON.parse(readFileSync(join(DIST_CLI, "bundle", "entry.json"), "utf8")) as { main: string };
    expect(dir).toContain(`${main.replace(/\.cjs$/, "")}-node${agentNodeVersion()}-${process.arch}`);
    const files = readdirSync(dir!);
    expect(files).toContain(`${main}.bin`);
    expect(files.every((name) => name.endsWith(".cjs.bin"))).toBe(true);
    // Taken without a prompt: not marked as covering the prompt path.
    expect(existsSync(join(dir!, "settled"))).toBe(false);
    expect(statSync(dir!).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir!, `${main}.bin`)).mode & 0o777).toBe(0o600);

    const before = new Map(files.map((name) => [name, statSync(join(dir!, name)).mtimeMs]));
    await serveOnce(agentDir);
    for (const [name, mtime] of before) expect(statSync(join(dir!, name)).mtimeMs, name).toBe(mtime);
  }, 30_000);

  it("a long-lived process writes it once its first prompt settled, not only at exit", async () => {
    const agentDir = tempDir("atomic-cc-");
    const c = new RpcClient({ agentDir, env: DEFAULT_FOLDER });
    try {
      await c.ok({ type: "get_state" });
      expect(existsSync(join(agentDir, "cache"))).toBe(false);
      await c.ok({ type: "prompt", message: "hello" });
      await c.waitForEvent("agent_end");
      const deadline = Date.now() + 5_000;
      const { main } = JSON.parse(readFileSync(join(DIST_CLI, "bundle", "entry.json"), "utf8")) as { main: string };
      const written = () => cacheDirs(join(agentDir, "cache", "compile")).some((dir) => existsSync(join(dir, `${main}.bin`)));
      while (!written() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(written()).toBe(true);
      expect(c.child.exitCode).toBeNull();
    } finally {
      await c.close();
    }
  }, 30_000);

  it("a cache taken without a prompt is written again once a prompt settles, then kept", async () => {
    const agentDir = tempDir("atomic-cc-");
    await serveOnce(agentDir);
    const [dir] = cacheDirs(join(agentDir, "cache", "compile"));
    const mtimes = () =>
      new Map(
        readdirSync(dir!)
          .filter((name) => name.endsWith(".bin"))
          .map((name) => [name, statSync(join(dir!, name)).mtimeMs]),
      );
    const beforePrompt = mtimes();
    const promptOnce = async () => {
      const c = new RpcClient({ agentDir, env: DEFAULT_FOLDER });
      try {
        await c.ok({ type: "prompt", message: "hello" });
        await c.waitForEvent("agent_end");
        const deadline = Date.now() + 5_000;
        while (!existsSync(join(dir!, "settled")) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      } finally {
        await c.close();
      }
    };
    await promptOnce();
    expect(existsSync(join(dir!, "settled"))).toBe(true);
    const afterPrompt = mtimes();
    for (const [name, mtime] of beforePrompt) expect(afterPrompt.get(name), name).not.toBe(mtime);
    await promptOnce();
    expect(mtimes()).toEqual(afterPrompt);
  }, 30_000);

  it("a damaged cache file is compiled from source and replaced", async () => {
    const agentDir = tempDir("atomic-cc-");
    await serveOnce(agentDir);
    const [dir] = cacheDirs(join(agentDir, "cache", "compile"));
    // The largest: the startup chunk.
    const [file] = readdirSync(dir!)
      .map((name) => join(dir!, name))
      .sort((a, b) => statSync(b).size - statSync(a).size);
    const good = readFileSync(file!);
    writeFileSync(file!, Buffer.alloc(good.length, 7));
    await serveOnce(agentDir);
    const rewritten = readFileSync(file!);
    expect(rewritten.equals(Buffer.alloc(good.length, 7))).toBe(false);
    expect(rewritten.length).toBeGreaterThan(100_000);
  }, 30_000);

  it("a chunk removed under a running process (an upgrade in place) is an error that says so, not a bare ENOENT", async () => {
    // A copy of the build inside the repository, so the bundle still finds node_modules.
    const caches = resolve(import.meta.dirname, "../node_modules/.cache");
    mkdirSync(caches, { recursive: true });
    const copy = mkdtempSync(join(caches, "atomic-moved-build-"));
    try {
      cpSync(resolve(DIST_CLI, ".."), join(copy, "dist"), { recursive: true });
      const c = new RpcClient({ cli: join(copy, "dist/cli/atomic.cjs"), args: ["--no-session"], env: { ATOMIC_COMPILE_CACHE: "off" } });
      await c.ok({ type: "get_state" });
      // What is loaded stays loaded; a chunk first needed now (the bash command's) is gone.
      rmSync(join(copy, "dist/cli/bundle/chunks"), { recursive: true });
      const answer = await c.request({ type: "bash", command: "echo hi" });
      expect(answer).toMatchObject({ success: false });
      expect(answer.error).toMatch(/^Atomic's file .*\/chunks\/[^ ]+\.cjs is gone: Atomic was updated or rebuilt while this process ran, .*Restart it/);
      await c.close();
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }, 30_000);

  it("a run that does not serve (--version) writes nothing", async () => {
    const agentDir = tempDir("atomic-cc-");
    const run = await runCli(["--version"], { cwd: agentDir, agentDir, env: DEFAULT_FOLDER });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(existsSync(join(agentDir, "cache"))).toBe(false);
  });

  it("ATOMIC_COMPILE_CACHE names another folder, or turns the cache off", async () => {
    const agentDir = tempDir("atomic-cc-");
    const elsewhere = join(tempDir("atomic-cc-root-"), "nested");
    await serveOnce(agentDir, { ATOMIC_COMPILE_CACHE: elsewhere });
    expect(cacheDirs(elsewhere)).toHaveLength(1);
    expect(existsSync(join(agentDir, "cache"))).toBe(false);
    await serveOnce(agentDir, { ATOMIC_COMPILE_CACHE: "off" });
    expect(existsSync(join(agentDir, "cache"))).toBe(false);
  }, 30_000);

  it("a writing process removes another build's folder left for over a week, and keeps a recent one", async () => {
    const agentDir = tempDir("atomic-cc-");
    const root = join(agentDir, "cache", "compile");
    const old = join(root, "main-OLD-nodev0-x64");
    const recent = join(root, "main-RECENT-nodev0-x64");
    for (const dir of [old, recent]) mkdirSync(dir, { recursive: true });
    const weekAgo = (Date.now() - 8 * 24 * 3600 * 1000) / 1000;
    utimesSync(old, weekAgo, weekAgo);
    await serveOnce(agentDir);
    expect(existsSync(old)).toBe(false);
    expect(existsSync(recent)).toBe(true);
  }, 30_000);

  it("an unwritable cache folder costs nothing but the cache", async () => {
    const agentDir = tempDir("atomic-cc-");
    const blocker = join(agentDir, "not-a-folder");
    writeFileSync(blocker, "");
    await serveOnce(agentDir, { ATOMIC_COMPILE_CACHE: join(blocker, "cache") });
  }, 30_000);

  it("the bundle's dynamic imports (the ACP SDK) load without an experimental warning, cached or not", async () => {
    const agentDir = tempDir("atomic-cc-");
    const initialize = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 1 } })}\n`;
    for (let i = 0; i < 2; i++) {
      const run = await runCli(["--mode", "acp"], { cwd: agentDir, agentDir, env: DEFAULT_FOLDER, stdin: initialize });
      expect(run.stderr).toBe("");
      expect(JSON.parse(run.stdout.split("\n")[0]!)).toMatchObject({ id: 1, result: { protocolVersion: 1 } });
    }
  }, 30_000);

  it("dist/cli/atomic.js, the executable's old path, still runs the CLI", async () => {
    const agentDir = tempDir("atomic-cc-");
    const { spawnSync } = await import("node:child_process");
    const run = spawnSync(NODE, [join(DIST_CLI, "atomic.js"), "--version"], { encoding: "utf8", env: { ...process.env, ...DEFAULT_FOLDER, ATOMIC_CODING_AGENT_DIR: agentDir } });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe("the launcher's import() of a Node builtin", () => {
  it("reads an export when it is used: the builtin's lazy getters (Node 22's http.WebSocket loads undici) stay unrun", () => {
    const bundle = tempDir("atomic-cc-builtin-");
    writeFileSync(join(bundle, "entry.json"), JSON.stringify({ main: "main.cjs" }));
    writeFileSync(join(bundle, "main.cjs"), 'exports.main = () => Promise.all([__atomicImport("node:http"), __atomicImport("node:crypto")]);\n');
    // In the agent's Node: require the builtins and the launcher first (what they load themselves is
    // not in question), then import the builtins through the launcher and use one export each.
    const script = `
      const http = require("node:http"), crypto = require("node:crypto");
      const { loadBundle } = require(${JSON.stringify(join(DIST_CLI, "compile-cache.cjs"))});
      const before = process.moduleLoadList.length;
      loadBundle(${JSON.stringify(bundle)}, undefined).entry.main().then(([h, c]) => {
        const used = h.default === http && h.request === http.request && c.createHash === crypto.createHash && Object.isFrozen(h);
        process.stdout.write(JSON.stringify({ used, loaded: process.moduleLoadList.slice(before).filter((m) => m.startsWith("NativeModule")), names: "WebSocket" in h || !("WebSocket" in http) }));
      });`;
    const out = JSON.parse(execFileSync(NODE, ["-e", script], { encoding: "utf8" })) as { used: boolean; loaded: string[]; names: boolean };
    expect(out).toEqual({ used: true, loaded: [], names: true });
  });
});
