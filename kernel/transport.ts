/**
 * The transport contract. A transport frames input into records for the host's scheduler and
 * serialises responses and events back; it holds no command logic. The host picks one by name
 * (`--mode`, settings `mode`); plugins offer them with `k.registerTransport`.
 */
import type { CommandSource } from "./commands.js";
import type { KernelError } from "./errors.js";
import type { ShutdownReason } from "./hooks.js";
import type { KernelConfig } from "./config.js";
import type { EventBus, EventListener } from "./events.js";
import type { Logger } from "./logger.js";

export type Id = string | number;

export type Response =
  | { id?: Id; type: "response"; command: string; success: true; data?: unknown }
  | { id?: Id; type: "response"; command: string; success: false; error: string };

export interface SubmitOptions {
  source: CommandSource;
  /** Called once with the record's response; never for a reply such as `extension_ui_response`. */
  respond(response: Response): void;
  /** Called just before `respond` when the command failed, with its coded error (for a transport that reports codes). */
  failed?(error: KernelError): void;
}

/**
 * A booted host driven in-process, with no transport of its own (the SDK's agent, one ACP
 * client's conversation): commands in, responses and events out, and its own teardown.
 */
export interface EmbeddedHost {
  readonly config: KernelConfig;
  /** Submits a command and resolves with its response (`undefined` for a reply such as `extension_ui_response`). */
  send(record: unknown, source?: CommandSource): Promise<Response | undefined>;
  submit(record: unknown, options: SubmitOptions): Promise<void>;
  /** Answers an input that could not be decoded, in arrival order with the rest (a server relaying a client's line). */
  reject(response: Response, options: Pick<SubmitOptions, "respond">): void;
  /**
   * Listens to every outward event; returns the unsubscribe function. The boot's events go to the
   * first listener that does not pass `replay: false` (an internal listener passes it, so the
   * embedder's own first listener still gets them).
   */
  subscribe(listener: EventListener, options?: { replay?: boolean }): () => void;
  shutdown(reason: ShutdownReason): Promise<void>;
  readonly closing: Promise<ShutdownReason>;
}

/**
 * What a sibling host may differ in: its working folder (hence its project settings and data)
 * and what one agent chooses for itself. What the launch chose to reopen (`--continue`, `--fork`,
 * ...) never carries over: a sibling starts afresh unless `resume` names what to open.
 */
export interface SiblingOptions {
  cwd: string;
  /** As `--provider`, for this agent only. */
  provider?: string;
  /** As `--model` (`provider/id`, an id or a pattern, optional `:<thinking>`). */
  model?: string;
  /** As `--thinking`. */
  thinkingLevel?: string;
  /** A stored conversation to open: its id (or an id prefix) or its file path. */
  resume?: string;
  /** Without `resume`: the id to open in that folder, or to give a new conversation (pi's flag of that name). */
  sessionId?: string;
  /** In memory only, nothing written (undefined: as the launch was started). */
  noSession?: boolean;
  /** Where this agent's diagnostics go (e.g. a logger that names the agent); default the launch's. */
  log?: Logger;
  /** Whether this agent's client can answer extension UI dialogs; default what the serving transport declares. */
  dialogs?: boolean;
  /** Values of any plugin's flags for this agent only (keys of `CliOptions`, e.g. `name`), laid over the launch's. */
  flags?: Record<string, unknown>;
  /**
   * Settings laid over the files for this sibling only (what the client that opened it asked
   * for, e.g. through ACP's `_meta`, or the sandbox policy of `agent_open`), over the parent's own overrides.
   */
  settings?: Record<string, unknown>;
}

/** What the host hands the transport it serves with. */
export interface TransportHost {
  readonly config: KernelConfig;
  readonly log: Logger;
  readonly events: Pick<EventBus, "subscribe" | "addPressureSource">;
  /** One decoded input record (any JSON value): validated, scheduled on its lane, answered. */
  submit(record: unknown, options: SubmitOptions): Promise<void>;
  /** Answers an input that could not be decoded, in arrival order with the rest. */
  reject(response: Response, options: Pick<SubmitOptions, "respond">): void;
  /** Starts teardown (once): answer what was read, abort the run, let plugins drain. */
  shutdown(reason: ShutdownReason): Promise<void>;
  /** Resolves once teardown has been requested, by anyone (the transport, a signal, the embedder). */
  readonly closing: Promise<ShutdownReason>;
  /** Resolves once every record submitted so far has been answered. */
  idle(): Promise<void>;
  /**
   * Boots another host with the same plugins, flags and options but its own working folder, so
   * its own agent state: a transport serving several conversations in one process (ACP)
   * gives each one a sibling. The caller shuts it down.
   */
  openSibling(options: SiblingOptions): Promise<EmbeddedHost>;
}

export interface TransportDefinition {
  /** The `--mode` name. */
  name: string;
  description: string;
  /** Positional command-line arguments are prompts (print/JSON modes); elsewhere they are a usage error. */
  acceptsPrompts?: boolean;
  /**
   * Its client can answer extension UI dialogs (`extension_ui_request` / `extension_ui_response`,
   * or a form of its own as ACP's permission requests). Without it, `ctx.hasUI` is false and
   * dialogs resolve with their defaults at once.
   */
  dialogs?: boolean;
  /** Runs until the input ends or teardown; resolves with the process exit code. */
  serve(host: TransportHost): Promise<number>;
}

export function isResponse(value: unknown): value is Response {
  return typeof value === "object" && value !== null && (value as Response).type === "response";
}
