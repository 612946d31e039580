/**
 * For the sandbox tests: whether bubblewrap can run here (outside CI a missing one skips the tests
 * with one line; in CI, CI=true, the tests run and fail without it), folders the sandbox can see
 * (not under /tmp, which every sandboxed command replaces with a private one), and a look at the
 * process table for what a command left running.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe } from "vitest";
import { removeAfterFile } from "./temp.js";

const BWRAP_TRY = [
  "--new-session",
  "--die-with-parent",
  "--unshare-user",
  "--unshare-pid",
  "--unshare-net",
  "--cap-drop",
  "ALL",
  "--ro-bind",
  "/",
  "/",
  "--dev",
  "/dev",
  "--proc",
  "/proc",
  "--",
  "/bin/sh",
  "-c",
  ":",
];

function bwrapProblem(): string | undefined {
  if (process.platform !== "linux") return `not Linux (${process.platform})`;
  const run = spawnSync("bwrap", BWRAP_TRY, { encoding: "utf8" });
  if (run.error) return "bwrap is not installed";
  if (run.status !== 0) return `bwrap cannot create namespaces here (${run.stderr.trim()})`;
  return undefined;
}

const problem = bwrapProblem();

/** A describe block that needs bubblewrap: skipped with one line where it is missing, unless CI=true. */
export function describeWithBwrap(name: string, body: () => void): void {
  if (problem && process.env.CI !== "true") {
    console.warn(`Skipping "${name}": ${problem} (these tests run in CI, which installs bubblewrap)`);
    describe.skip(name, body);
    return;
  }
  describe(name, body);
}

const ROOT = resolve(import.meta.dirname, "../../.atomic-test-sandbox");

/** A fresh folder outside /tmp (so it stays visible, read-only, inside the sandbox), removed after the file. */
export function visibleTempDir(prefix = "sbx-"): string {
  mkdirSync(ROOT, { recursive: true });
  const dir = mkdtempSync(join(ROOT, prefix));
  removeAfterFile(() => {
    rmSync(dir, { recursive: true, force: true });
    try {
      rmdirSync(ROOT);
    } catch {
      // Not empty (another file's tests may still use it), or already gone.
    }
  });
  return dir;
}

/** Pids whose command line contains `token`. */
export function processesWith(token: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " ");
      if (cmdline.includes(token) && !cmdline.includes("vitest")) pids.push(Number(entry));
    } catch {
      // Gone meanwhile.
    }
  }
  return pids;
}

export const SSH_SECRET = "ssh-private-key-material";
export const AUTH_SECRET = "sk-auth-json-secret";

export interface SandboxLayout {
  root: string;
  workspace: string;
  outside: string;
  home: string;
  agentDir: string;
}

/** Workspace, an outside folder (holding target.txt), a fake HOME with an ssh key, and an agent dir with auth.json, side by side outside /tmp. */
export function sandboxLayout(): SandboxLayout {
  const root = visibleTempDir();
  const dirs = { root, workspace: join(root, "ws"), outside: join(root, "outside"), home: join(root, "home"), agentDir: join(root, "agent") };
  for (const dir of [dirs.workspace, dirs.outside, join(dirs.home, ".ssh"), dirs.agentDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(dirs.outside, "target.txt"), "original\n");
  writeFileSync(join(dirs.home, ".ssh", "id_ed25519"), `${SSH_SECRET}\n`);
  writeFileSync(join(dirs.agentDir, "auth.json"), JSON.stringify({ other: { type: "api_key", key: AUTH_SECRET } }));
  return dirs;
}
