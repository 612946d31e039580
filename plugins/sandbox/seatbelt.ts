/**
 * A command inside `sandbox-exec` (macOS Seatbelt). The profile denies by default and allows what
 * ordinary programs need: running and forking, reading files (but the denied paths), writing the
 * workspace, the writable roots and a private temp folder (but the protected paths), the terminal
 * devices, a short list of system services, and the network only as the policy says (none, all,
 * or the loopback port of the allow-listing proxy). Paths reach the profile as parameters
 * (`-D NAME=value`), so no path is ever spliced into its text. Rules that come later win.
 */
import type { SandboxPolicy } from "./policy.js";

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** System services commands commonly need (user lookup, logging, preferences, TLS trust, temp dirs). */
const MACH_SERVICES = [
  "com.apple.system.opendirectoryd.libinfo",
  "com.apple.system.DirectoryService.libinfo_v1",
  "com.apple.system.logger",
  "com.apple.system.notification_center",
  "com.apple.logd",
  "com.apple.cfprefsd.daemon",
  "com.apple.cfprefsd.agent",
  "com.apple.trustd",
  "com.apple.trustd.agent",
  "com.apple.SecurityServer",
  "com.apple.bsd.dirhelper",
  "com.apple.coreservices.quarantine-resolver",
  "com.apple.diagnosticd",
];

export interface SeatbeltPlan {
  policy: SandboxPolicy;
  /** Real writable folders: the workspace first, then the writable roots. */
  writable: string[];
  /** Real folders inside them that stay writable but may not be renamed, removed or replaced (git dirs). */
  pinned: string[];
  /** Real paths inside them that stay read-only. */
  protectedPaths: string[];
  /** Real paths never readable. */
  denied: string[];
  /** The private temp folder (TMPDIR inside). */
  tempDir: string;
  /** The allow-listing proxy's loopback port, when the network is an allow-list. */
  proxyPort?: number;
}

export interface SeatbeltProfile {
  profile: string;
  /** `-D NAME=value` pairs. */
  params: Record<string, string>;
}

export function seatbeltProfile(plan: SeatbeltPlan): SeatbeltProfile {
  const params: Record<string, string> = {};
  const param = (prefix: string, values: readonly string[]) =>
    values.map((value, index) => {
      const name = `${prefix}_${index}`;
      params[name] = value;
      return `(param "${name}")`;
    });
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec)",
    "(allow process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow process-info* (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow ipc-posix-shm*)",
    "(allow ipc-posix-sem)",
    "(allow pseudo-tty)",
    '(allow file-ioctl (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))',
    `(allow mach-lookup ${MACH_SERVICES.map((name) => `(global-name "${name}")`).join(" ")})`,
    "(allow file-read*)",
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper") (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/ttys[0-9]+$"))',
  ];
  const writable = [plan.tempDir, ...(plan.policy.mode === "workspace-write" ? plan.writable : [])];
  lines.push(
    `(allow file-write* ${param("WRITABLE", writable)
      .map((name) => `(subpath ${name})`)
      .join(" ")})`,
  );
  if (plan.policy.mode === "workspace-write" && plan.protectedPaths.length + plan.pinned.length > 0) {
    // A subpath rule follows the path, not the folder: without the literal one, a git dir could be
    // moved aside with its protected config and hooks, and a copy of the model's put in its place.
    const rules = [...param("PROTECTED", plan.protectedPaths).map((name) => `(subpath ${name})`), ...param("PINNED", plan.pinned).map((name) => `(literal ${name})`)];
    lines.push(`(deny file-write* ${rules.join(" ")})`);
  }
  if (plan.denied.length > 0) {
    const denied = param("DENIED", plan.denied)
      .map((name) => `(subpath ${name})`)
      .join(" ");
    lines.push(`(deny file-read* ${denied})`, `(deny file-write* ${denied})`);
  }
  if (plan.policy.network === true) lines.push("(allow network*)", "(allow system-socket)");
  else if (plan.proxyPort !== undefined) lines.push(`(allow network-outbound (remote ip "localhost:${plan.proxyPort}"))`, "(allow system-socket)");
  return { profile: lines.join("\n") + "\n", params };
}

/** `sandbox-exec -p <profile> -D ... -- file args...` */
export function sandboxExecArgs({ profile, params }: SeatbeltProfile, command: { file: string; args: string[] }): string[] {
  const defines = Object.entries(params).flatMap(([name, value]) => ["-D", `${name}=${value}`]);
  return ["-p", profile, ...defines, command.file, ...command.args];
}
