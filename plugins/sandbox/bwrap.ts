/**
 * A command inside bubblewrap (Linux): the whole file system read-only, the workspace and the
 * writable roots writable (their git dirs pinned, their protected paths read-only again), a private size-limited /tmp,
 * denied paths masked (folders by an empty mode-000 tmpfs, files by an unreadable empty file),
 * new user/pid/ipc/uts namespaces, every capability dropped, no network or only loopback with the
 * proxy forwarder, a new session (no terminal to inject into), and killed with the agent.
 */
import type { SandboxPolicy } from "./policy.js";

/** The private /tmp: bounded, so filling it fills memory up to here and never the host's disk. */
export const TMP_BYTES = 512 * 1024 * 1024;
/** The proxy's socket inside the sandbox, and the port its forwarder listens on there. */
export const INNER_PROXY_SOCKET = "/tmp/.atomic-sandbox/proxy.sock";
export const INNER_PROXY_PORT = 3128;

export interface ExistingPath {
  path: string;
  directory: boolean;
}

export interface BwrapPlan {
  bwrap: string;
  policy: SandboxPolicy;
  /** The workspace, real: writable in workspace-write mode, bound read-only otherwise (it may sit under /tmp). */
  workspace: string;
  /** Real, existing writable folders (the workspace first). */
  writable: string[];
  /**
   * Real, existing folders inside them bound onto themselves, each before those inside it: still
   * writable, but a mount point cannot be renamed or replaced, so the read-only paths inside stay
   * where git looks for them.
   */
  pinned: string[];
  /** Real, existing paths inside them that stay read-only. */
  protectedPaths: string[];
  /** Real, existing paths to hide. */
  denied: ExistingPath[];
  /** An empty mode-000 file bound over denied files. */
  maskFile: string;
  /** Working folder inside (it exists outside, and every path is the same inside). */
  cwd: string;
  /** The proxy's unix socket on the host, when the network is an allow-list. */
  proxySocket?: string;
}

export function bwrapArgs(plan: BwrapPlan, command: { file: string; args: string[] }): string[] {
  const { policy } = plan;
  const args = ["--new-session", "--die-with-parent", "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];
  if (policy.network !== true) args.push("--unshare-net");
  args.push("--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--size", String(TMP_BYTES), "--tmpfs", "/tmp");
  if (policy.mode === "workspace-write") {
    // Outer mounts first: a bind made later covers what was bound inside its path before.
    for (const root of plan.writable) args.push("--bind", root, root);
    for (const dir of plan.pinned) args.push("--bind", dir, dir);
    for (const path of plan.protectedPaths) args.push("--ro-bind", path, path);
  } else args.push("--ro-bind", plan.workspace, plan.workspace);
  for (const { path, directory } of plan.denied) {
    if (directory) args.push("--perms", "0000", "--tmpfs", path, "--remount-ro", path);
    else args.push("--ro-bind", plan.maskFile, path);
  }
  if (plan.proxySocket) args.push("--bind", plan.proxySocket, INNER_PROXY_SOCKET);
  args.push("--chdir", plan.cwd, "--", command.file, ...command.args);
  return args;
}
