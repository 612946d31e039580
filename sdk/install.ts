/**
 * Where the SDK finds its own package (bundled assets such as replay cassettes, the modules
 * user plugins written in TypeScript import as `atomic-agent`), and the check that makes an
 * unusable agent dir or working folder one clear error instead of a failure deep inside a plugin.
 */
import { access, constants, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ErrorCode, KernelError } from "../kernel/index.js";
import { packageAliases } from "../host/index.js";

export interface InstallPaths {
  /** The package root (holds package.json). */
  installDir: string;
  /** Aliases for transpiled user code: this package's modules and its own zod. */
  aliases: () => Record<string, string>;
}

let cached: Promise<InstallPaths> | undefined;

/**
 * Resolved once per process: from `dist/sdk/` in an install, from `sdk/` in the repository, or
 * from a chunk of the CLI's bundle (`dist/cli/bundle/chunks/`) when the CLI itself makes an agent.
 */
export function installPaths(): Promise<InstallPaths> {
  return (cached ??= resolvePaths());
}

async function resolvePaths(): Promise<InstallPaths> {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = await packageRoot(here);
  // The compiled modules sit in dist/ (tsc's tree, shipped beside the bundle); the sources at the root.
  const modules = here.startsWith(join(root, "dist")) ? join(root, "dist") : root;
  const ext = (await exists(join(modules, "index.js"))) ? ".js" : ".ts";
  return {
    installDir: `${root}/`,
    aliases: () => packageAliases(modules, dirname(createRequire(import.meta.url).resolve("zod/package.json")), ext),
  };
}

/** The nearest folder above `from` that holds package.json (at most a few levels up). */
async function packageRoot(from: string): Promise<string> {
  for (let dir = from, level = 0; level < 6; dir = dirname(dir), level++) {
    if (await exists(join(dir, "package.json"))) return dir;
  }
  return dirname(from);
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** A missing agent dir is fine (it is created when something is saved); one that cannot be used is not. */
export async function checkAgentDir(agentDir: string): Promise<void> {
  let info;
  try {
    info = await stat(agentDir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return;
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot use agent dir ${agentDir}: ${code === "EACCES" ? "permission denied" : (error as Error).message}`);
  }
  if (!info.isDirectory()) throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot use agent dir ${agentDir}: not a folder`);
  try {
    await access(agentDir, constants.R_OK | constants.X_OK);
  } catch {
    throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot use agent dir ${agentDir}: permission denied (it must be readable)`);
  }
}

/** The working folder must exist: otherwise every tool call would fail later, far from the cause. */
export async function checkCwd(cwd: string): Promise<void> {
  let info;
  try {
    info = await stat(cwd);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new KernelError(
      ErrorCode.CONFIG_INVALID,
      `Cannot use cwd ${cwd}: ${code === "ENOENT" ? "the folder does not exist" : code === "EACCES" ? "permission denied" : (error as Error).message}`,
    );
  }
  if (!info.isDirectory()) throw new KernelError(ErrorCode.CONFIG_INVALID, `Cannot use cwd ${cwd}: not a folder`);
}
