/**
 * The sandbox plugin's public surface: the `sandbox` service every plugin that starts a command
 * for the model (the bash tool, `pi.exec`, codemode through those) or touches files for it (the
 * file tools) goes through, the `sandbox` setting and the `--sandbox` flag.
 */
import { z } from "zod";
import { SANDBOX_MODES, sandboxSettingSchema, type SandboxMode, type SandboxPolicy, type SandboxSetting } from "./policy.js";

export type { ApprovalPolicy, SandboxMode, SandboxPolicy, SandboxSetting } from "./policy.js";
/** One line about a policy (atomic config, logs). */
export { describePolicy } from "./policy.js";

/** A process about to be started: the program, its arguments, where and with what environment. */
export interface CommandSpawn {
  file: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** What to start instead: the same command inside the sandbox (or, escalated, outside it). */
export interface ConfinedSpawn extends CommandSpawn {
  /** Whether it runs confined (false: the sandbox is off, or the client approved an escalation). */
  confined: boolean;
  /** Call once the process has exited (file tools wait while confined commands run). */
  release(): void;
}

export interface ConfineOptions {
  /** The model asked to run this one command outside the sandbox, for this reason (the client is asked). */
  escalate?: { reason: string };
  /** The command as the model wrote it, for the client's dialog and the session record. */
  command?: string;
  toolCallId?: string;
  signal?: AbortSignal;
}

/** The file tools' in-process checks (the same policy the OS enforces for commands). */
export interface FileGuard {
  /**
   * Resolves `path` (absolute) through symlinks (the real path of its deepest existing ancestor)
   * and throws a SandboxBlockedError naming what is not allowed, or returns the real path.
   */
  check(path: string, access: "read" | "write"): Promise<string>;
  /** Denied-read locations inside the folder `realRoot`, relative to it with `/` (for a walk to leave out). */
  deniedWithin(realRoot: string): Promise<string[]>;
  /** Whether the symlink at `path`, met during a walk, leads somewhere readable. */
  mayFollow(path: string): Promise<boolean>;
  /**
   * Waits until no confined command runs and keeps new ones from starting until the returned
   * function is called: a tool holds it from its check to its last use of the path (turns.ts).
   */
  hold(): Promise<() => void>;
}

/** How commands are confined here. */
export type Enforcement = "none" | "bubblewrap" | "sandbox-exec";

export interface SandboxState extends SandboxPolicy {
  enforcement: Enforcement;
  /** Why the sandbox cannot start (commands are then refused, never run unconfined). */
  unavailable?: string;
}

export interface SandboxApi {
  readonly policy: SandboxPolicy;
  /** mode is not "off". */
  readonly active: boolean;
  /** The model may ask to run a command outside the sandbox (approval "on-request", mode not off). */
  readonly escalation: boolean;
  /** The policy plus how it is enforced, for get_state (`unavailable` once the background check found a problem). */
  state(): SandboxState;
  /** The same, after checking whether the sandbox can start here (tried once per process). */
  check(): Promise<SandboxState>;
  /** What the model is told about its commands' sandbox (in the bash tool's description). */
  readonly summary: string;
  /** For a confined command that failed: what in its output the sandbox blocked, in words the model can act on. */
  explain(output: string): string | undefined;
  /**
   * A command the model starts, confined: resolves with what to spawn instead, or rejects with a
   * SandboxBlockedError whose message the model can act on (the sandbox cannot start; an
   * escalation refused). The command is never run unconfined unless the client approved it.
   */
  confine(spawn: CommandSpawn, options?: ConfineOptions): Promise<ConfinedSpawn>;
  /** Undefined when the mode is "off". */
  readonly files: FileGuard | undefined;
}

/** A refusal the model reads: it starts with "blocked by the sandbox:". */
export class SandboxBlockedError extends Error {
  readonly code = "SANDBOX_BLOCKED";
  constructor(message: string) {
    super(message);
    this.name = "SandboxBlockedError";
  }
}

declare module "../../kernel/services.js" {
  interface Services {
    sandbox: SandboxApi;
  }
}

declare module "../../kernel/config.js" {
  interface Settings {
    /** As written in the files, deep-merged; the policy in force is the `sandbox` service's (a project may only tighten it). */
    sandbox?: SandboxSetting;
  }
  interface CliOptions {
    /** `--sandbox <mode>`. */
    sandbox?: SandboxMode;
  }
}

/** The session option of serve's `agent_open`: a mode, or a `sandbox` setting (laid over the files' with `sandboxOverride`). */
export const sandboxOptionSchema = () => z.union([z.enum(SANDBOX_MODES), sandboxSettingSchema()]);

/** A session option for a sibling host (serve's agent_open, ACP's session/new): a settings override. */
export function sandboxOverride(sandbox: SandboxMode | SandboxSetting): { sandbox: SandboxSetting } {
  return { sandbox: typeof sandbox === "string" ? { mode: sandbox } : sandbox };
}
