/**
 * The sandbox policy: the `sandbox` setting's schema, and the policy in force composed from the
 * user's settings, the project's (which may only tighten it unless the project is trusted),
 * `--sandbox MODE`, and a per-session override (what a client that opens the agent passes).
 * Paths come out absolute; the always-denied secrets are added whatever was configured.
 */
import { isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import { expandHome } from "../../kernel/index.js";
import { typoDistance } from "../../lib/closest/index.js";

export const SANDBOX_MODES = ["off", "read-only", "workspace-write"] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];

/**
 * The mode meant by a mode written another way: `workspace`, `readonly`, `Read_Only`, a typo of
 * two letters. Undefined when none is close (`--sandbox "hi"` is a flag given no mode).
 */
export function sandboxModeMeant(given: string): SandboxMode | undefined {
  const plain = (text: string) => text.toLowerCase().replace(/[-_ ]/g, "");
  const wanted = plain(given);
  if (wanted.length < 2) return undefined;
  return (
    SANDBOX_MODES.find((mode) => plain(mode) === wanted || (wanted.length >= 4 && plain(mode).startsWith(wanted))) ??
    (wanted.length >= 5 ? SANDBOX_MODES.find((mode) => typoDistance(plain(mode), wanted) <= 2) : undefined)
  );
}
export const APPROVAL_POLICIES = ["never", "on-request"] as const;
export type ApprovalPolicy = (typeof APPROVAL_POLICIES)[number];

/** `example.com`, `*.example.com` (any subdomain), `127.0.0.1`, `[::1]`, each optionally `:port`. */
const HOST_PATTERN = /^(\*\.)?([a-z0-9-]+(\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(:\d{1,5})?$/i;

export const hostPatternSchema = () => z.string().regex(HOST_PATTERN, "a host name or IP, optionally *. in front and :port after");

export const sandboxSettingSchema = () =>
  z.strictObject(
    {
      mode: z
        .enum(SANDBOX_MODES)
        .optional()
        .meta({ description: '"off", "read-only" (only a private /tmp writable) or "workspace-write" (also the working folder and writableRoots).' }),
      network: z
        .union([z.boolean(), z.array(hostPatternSchema())])
        .optional()
        .meta({ description: "false: no network; true: the host's network; a list of hosts: only those, through Atomic's proxy." }),
      writableRoots: z.array(z.string().min(1)).optional().meta({ description: "More writable folders in workspace-write (absolute, ~/..., or relative to the working folder)." }),
      denyRead: z.array(z.string().min(1)).optional().meta({ description: "More paths no command or file tool may read (besides those always denied)." }),
      approval: z
        .enum(APPROVAL_POLICIES)
        .optional()
        .meta({ description: '"on-request": the model may ask to run one command outside the sandbox, and the client decides; "never".' }),
    },
    {
      // `"sandbox": "workspace-write"` is what a user writes first (the flag takes a mode).
      error: (issue) =>
        issue.code === "invalid_type" && typeof issue.input === "string"
          ? `expected an object, such as {"mode": ${JSON.stringify(sandboxModeMeant(issue.input) ?? "workspace-write")}}`
          : undefined,
    },
  );

export type SandboxSetting = z.output<ReturnType<typeof sandboxSettingSchema>>;

/** The policy in force. */
export interface SandboxPolicy {
  mode: SandboxMode;
  /** false: no network; true: the host's network; a list: only these hosts, through Atomic's proxy. */
  network: boolean | string[];
  /** Writable besides the workspace and the private /tmp (absolute). */
  writableRoots: string[];
  /** Never readable by a confined command or a file tool (absolute; the secrets below included). */
  denyRead: string[];
  approval: ApprovalPolicy;
}

export const DEFAULT_POLICY: SandboxPolicy = { mode: "off", network: false, writableRoots: [], denyRead: [], approval: "never" };

/** Secret folders every sandboxed command and file tool is kept out of, whatever was configured. */
export const HOME_SECRETS = [".ssh", ".aws", ".gnupg", ".config/gcloud", ".azure", ".kube", ".docker/config.json", ".netrc", ".git-credentials", ".pi/agent/auth.json"];

/**
 * Sockets of daemons that act with more rights than the sandbox (a container engine is root on
 * the host; the ssh agent signs with the user's keys) and the user's runtime folder, where the
 * session bus and such agents live.
 */
export function daemonSockets(env: NodeJS.ProcessEnv): string[] {
  const fixed = ["/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock", "/run/podman/podman.sock"];
  return [...fixed, ...[env.SSH_AUTH_SOCK, env.XDG_RUNTIME_DIR].filter((path): path is string => typeof path === "string" && isAbsolute(path))];
}

/** The agent dir's credentials: provider keys and the server's token. */
export function agentSecrets(agentDir: string): string[] {
  return [join(agentDir, "auth.json"), join(agentDir, "serve", "token")];
}

export interface PolicyInputs {
  user?: SandboxSetting;
  project?: SandboxSetting;
  /** A trusted project's settings count as the user's; an untrusted one may only tighten. */
  projectTrusted: boolean;
  cliMode?: SandboxMode;
  /** A per-session override (serve's agent_open, ACP's session/new, the SDK's settings): it comes from whoever runs the agent. */
  override?: SandboxSetting;
  cwd: string;
  agentDir: string;
  env: NodeJS.ProcessEnv;
}

export interface ComposedPolicy {
  policy: SandboxPolicy;
  /** One line each: what an untrusted project tried to loosen, ignored. */
  notes: string[];
}

export function composePolicy(inputs: PolicyInputs): ComposedPolicy {
  const notes: string[] = [];
  let policy = overlay(DEFAULT_POLICY, inputs.user);
  if (inputs.project) policy = inputs.projectTrusted ? overlay(policy, inputs.project) : tighten(policy, inputs.project, notes);
  if (inputs.cliMode) policy = { ...policy, mode: inputs.cliMode };
  policy = overlay(policy, inputs.override);
  const absolute = (path: string) => absolutePath(path, inputs.cwd, inputs.env);
  const home = inputs.env.HOME ?? inputs.env.USERPROFILE;
  const secrets = [...agentSecrets(inputs.agentDir), ...(home ? HOME_SECRETS.map((path) => join(home, path)) : []), ...daemonSockets(inputs.env)];
  return {
    policy: {
      ...policy,
      network: Array.isArray(policy.network) ? unique(policy.network.map((host) => host.toLowerCase())) : policy.network,
      writableRoots: unique(policy.writableRoots.map(absolute)),
      denyRead: unique([...secrets, ...policy.denyRead.map(absolute)]),
    },
    notes,
  };
}

function overlay(base: SandboxPolicy, setting: SandboxSetting | undefined): SandboxPolicy {
  if (!setting) return base;
  const defined = Object.fromEntries(Object.entries(setting).filter(([, value]) => value !== undefined));
  return { ...base, ...defined };
}

const STRICTNESS: Record<SandboxMode, number> = { off: 0, "workspace-write": 1, "read-only": 2 };

/** An untrusted project's settings: only what makes the policy stricter is taken. */
function tighten(base: SandboxPolicy, project: SandboxSetting, notes: string[]): SandboxPolicy {
  const ignored = (what: string) => notes.push(`Ignored sandbox.${what} in the project's settings: an untrusted project may tighten the sandbox, not loosen it`);
  const next = { ...base };
  if (project.mode !== undefined) {
    if (STRICTNESS[project.mode] >= STRICTNESS[base.mode]) next.mode = project.mode;
    else ignored(`mode "${project.mode}" (the user's is "${base.mode}")`);
  }
  if (project.network !== undefined) {
    const narrowed = narrowNetwork(base.network, project.network);
    if (narrowed === undefined) ignored(`network ${JSON.stringify(project.network)}`);
    else next.network = narrowed;
  }
  if (project.writableRoots?.some((root) => !base.writableRoots.includes(root))) ignored("writableRoots");
  if (project.denyRead) next.denyRead = [...base.denyRead, ...project.denyRead];
  if (project.approval === "never") next.approval = "never";
  else if (project.approval === "on-request" && base.approval !== "on-request") ignored('approval "on-request"');
  return next;
}

/** The project's network choice where it is narrower than the base's; undefined when it would widen it. */
function narrowNetwork(base: boolean | string[], project: boolean | string[]): boolean | string[] | undefined {
  if (project === false) return false;
  if (project === true) return base === true ? true : undefined;
  if (base === true) return project;
  if (base === false) return project.length === 0 ? false : undefined;
  const kept = project.filter((host) => base.includes(host));
  return kept.length === project.length ? kept : undefined;
}

/** `~/x` from HOME, relative paths from the working folder. */
export function absolutePath(path: string, cwd: string, env: NodeJS.ProcessEnv): string {
  const expanded = expandHome(path, env);
  return isAbsolute(expanded) ? resolve(expanded) : resolve(cwd, expanded);
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** One line for `atomic config`, docs and logs. */
export function describePolicy(policy: SandboxPolicy): string {
  if (policy.mode === "off") return "off (commands and file tools run with your rights, as in pi)";
  const network = policy.network === true ? "network on" : policy.network === false ? "network off" : `network only to ${policy.network.join(", ") || "(none)"}`;
  const writable =
    policy.mode === "workspace-write"
      ? `writable: workspace, private /tmp${policy.writableRoots.length ? `, ${policy.writableRoots.join(", ")}` : ""}`
      : "nothing writable but a private /tmp";
  return `${policy.mode} (${writable}; ${network}; escalation ${policy.approval === "on-request" ? "asked of the client" : "never"})`;
}
