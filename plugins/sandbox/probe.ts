/**
 * Can the sandbox start here? Linux: a `bwrap` on PATH that can create its namespaces (tried once
 * with the options real commands use); macOS: `/usr/bin/sandbox-exec`. When it cannot, the answer
 * says exactly why and what to install or change; the agent then refuses to run commands.
 */
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import { delimiter, isAbsolute, join } from "node:path";
import type { Enforcement } from "./api.js";
import { SANDBOX_EXEC } from "./seatbelt.js";

export type Probe = { ok: true; enforcement: Exclude<Enforcement, "none">; program: string } | { ok: false; enforcement: Enforcement; reason: string };

const INSTALL_BWRAP = "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap; Alpine: apk add bubblewrap)";
const OR_OFF = "or run with --sandbox off";

export async function probeSandbox(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): Promise<Probe> {
  if (platform === "darwin") {
    if (await isExecutable(SANDBOX_EXEC)) return { ok: true, enforcement: "sandbox-exec", program: SANDBOX_EXEC };
    return { ok: false, enforcement: "sandbox-exec", reason: `the sandbox cannot start: ${SANDBOX_EXEC} is missing (it ships with macOS); ${OR_OFF}` };
  }
  if (platform !== "linux")
    return { ok: false, enforcement: "none", reason: `the sandbox cannot start: it is available on Linux (bubblewrap) and macOS (sandbox-exec), not on ${platform}; ${OR_OFF}` };
  const bwrap = await findOnPath("bwrap", env);
  if (!bwrap) return { ok: false, enforcement: "bubblewrap", reason: `the sandbox cannot start: bubblewrap (bwrap) is not installed; ${INSTALL_BWRAP}, ${OR_OFF}` };
  const tried = await tryBwrap(bwrap);
  if (tried.ok) return { ok: true, enforcement: "bubblewrap", program: bwrap };
  return {
    ok: false,
    enforcement: "bubblewrap",
    reason:
      `the sandbox cannot start: ${bwrap} cannot create its namespaces here (${tried.detail || "no detail"}); allow unprivileged user namespaces ` +
      "(sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 and later, an AppArmor profile for bwrap or sysctl kernel.apparmor_restrict_unprivileged_userns=0; in a container, run it with user namespaces allowed), " +
      OR_OFF,
  };
}

async function tryBwrap(bwrap: string): Promise<{ ok: boolean; detail: string }> {
  const { execFile } = await import("node:child_process");
  const args = [
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
    "--tmpfs",
    "/tmp",
    "--",
    "/bin/sh",
    "-c",
    ":",
  ];
  return new Promise((resolve) => {
    execFile(bwrap, args, { timeout: 10_000 }, (error, _stdout, stderr) => resolve({ ok: !error, detail: String(stderr).trim().split("\n").at(-1) ?? (error?.message || "") }));
  });
}

/** An executable named `name` in the absolute folders of PATH. */
export async function findOnPath(name: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const dirs = (env.PATH ?? "").split(delimiter).filter((dir) => isAbsolute(dir));
  for (const candidate of dirs.map((dir) => join(dir, name))) if (await isExecutable(candidate)) return candidate;
  return undefined;
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
