/**
 * `atomic-agent/sdk`: Atomic inside a Node process. `createAgent` boots the same host the CLI
 * boots (built-in plugins, settings files, the user's plugins) without a transport: commands go
 * in through `send` and come back as the very response objects RPC writes, events reach
 * `subscribe` as RPC writes them. Nothing touches the embedding process: no stdout, no signal
 * handlers, no chdir; two agents share nothing but loaded code.
 */
import type { Command, CommandType, Event, ExtraCommand, Response, ResponseOf } from "../lib/protocol-types/index.js";
import { createHost } from "../host/index.js";
import { createStderrLogger, resolveAgentDir, type EmbeddedHost, type Logger, type PluginDefinition, type Settings } from "../kernel/index.js";
import { BUILTIN_MODULES, BUILTIN_PLUGINS } from "../cli/builtins.js";
import { checkAgentDir, checkCwd, installPaths } from "./install.js";
import { checkOptions } from "./options.js";
import { awaitableHelpers, type AwaitableHelpers } from "./awaitable.js";

export type * from "../lib/protocol-types/index.js";
export type { Logger, PluginDefinition, Settings } from "../kernel/index.js";
export { AgentCommandError, AgentRunError, type AwaitableHelpers, type PromptOptions, type PromptResult } from "./awaitable.js";

export interface CreateAgentOptions {
  /** The working folder the agent's tools act in (default: `process.cwd()`). */
  cwd?: string;
  /** Settings, credentials, models.json, sessions (default: `ATOMIC_CODING_AGENT_DIR` or ~/.atomic/agent). */
  agentDir?: string;
  /** As `--provider`. */
  provider?: string;
  /** As `--model` (`provider/id`, an id or a pattern, optional `:<thinking>`). */
  model?: string;
  /** `false`: in memory only (as `--no-session`); `{dir}`: session files there (as `--session-dir`). Default: persisted in the agent dir. */
  session?: false | { dir?: string };
  /** Laid over the settings files, validated like them. */
  settings?: Settings & Record<string, unknown>;
  /** More plugins: definitions, built-in names or absolute paths to `.ts`/`.js` modules. */
  plugins?: readonly (PluginDefinition | string)[];
  /** Extension files or folders (settings `extensions`). */
  extensions?: readonly string[];
  /** Read `<agentDir>/settings.json`, the project's `.atomic/settings.json` and the user's `plugins` (default true). */
  settingsFiles?: boolean;
  /** Environment the agent sees (API keys, ...); default `process.env`. Never modified. */
  env?: NodeJS.ProcessEnv;
  /** Where diagnostics go (default: stderr, one line each). */
  log?: Logger;
  /** Extra command-line style flags of plugins (`{ record: "name" }` as `--record name`). */
  flags?: Record<string, unknown>;
}

/** Every event of the built-in plugins; a user plugin's own events arrive too, with their own `type`. */
export type AgentEvent = Event;

/**
 * One agent: `send`/`subscribe` speak the protocol as RPC does; the awaitable helpers
 * (`prompt`, `steer`, `followUp`, `abort`, `waitForIdle`, ...) are built on them.
 */
export interface Agent extends AwaitableHelpers {
  readonly cwd: string;
  readonly agentDir: string;
  /**
   * Runs a command: the same object RPC reads (an `id` is echoed), the same response RPC writes.
   * Never throws for a failed command (`success: false` carries the error); an
   * `extension_ui_response` resolves to `undefined`.
   */
  send<C extends Command>(command: C): Promise<ResponseOf<C["type"]>>;
  send<T extends string>(command: ExtraCommand<T>): Promise<Response | undefined>;
  /** Every event, in order, from now on; returns the unsubscribe function. */
  subscribe(listener: (event: AgentEvent) => void): () => void;
  /**
   * Aborts the run, answers what was sent, flushes the session; later calls share the first. A
   * helper still waiting for the run to settle rejects.
   */
  dispose(): Promise<void>;
}

export async function createAgent(given: CreateAgentOptions = {}): Promise<Agent> {
  const options = checkOptions(given);
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const agentDir = options.agentDir ?? resolveAgentDir(env);
  await checkCwd(cwd);
  await checkAgentDir(agentDir);
  const paths = await installPaths();
  const settings: Record<string, unknown> = { ...options.settings };
  if (options.extensions) settings.extensions = [...((settings.extensions as string[] | undefined) ?? []), ...options.extensions];
  const readFiles = options.settingsFiles !== false;
  const host = await createHost({
    cwd,
    agentDir,
    env,
    plugins: [...BUILTIN_PLUGINS, ...(options.plugins ?? [])],
    loader: { builtins: BUILTIN_MODULES, aliases: paths.aliases },
    cli: { ...options.flags, ...cliOptions(options) },
    ...(options.flags ? { codeFlags: options.flags } : {}),
    ...(Object.keys(settings).length > 0 ? { settings } : {}),
    readSettingsFiles: readFiles,
    userPlugins: readFiles,
    log: options.log ?? createStderrLogger(),
    installDir: paths.installDir,
  });
  return embeddedAgent(host, cwd, agentDir);
}

function cliOptions(options: CreateAgentOptions): Record<string, unknown> {
  // Messages about these options name them as createAgent takes them, not as flags.
  const cli: Record<string, unknown> = { origin: "sdk" };
  if (options.provider !== undefined) cli.provider = options.provider;
  if (options.model !== undefined) cli.model = options.model;
  if (options.session === false) cli.noSession = true;
  else if (options.session?.dir !== undefined) cli.sessionDir = options.session.dir;
  return cli;
}

/** A deep copy; what cannot be cloned (a function an extension's command returned) as RPC would write it. */
function detached(response: Response): Response {
  try {
    return structuredClone(response);
  } catch {
    return JSON.parse(JSON.stringify(response)) as Response;
  }
}

function embeddedAgent(host: EmbeddedHost, cwd: string, agentDir: string): Agent {
  let disposed: Promise<void> | undefined;
  // A response is the caller's to keep and change, as the one RPC parses from its line: in process
  // its data would otherwise be the agent's own objects (get_messages: the live context).
  const send = async (command: unknown) => {
    const response = (await host.send(command, "sdk")) as Response | undefined;
    return response === undefined ? undefined : detached(response);
  };
  const awaitable = awaitableHelpers(send, (listener) => host.subscribe(listener as (event: unknown) => void, { replay: false }));
  const dispose = async () => {
    awaitable.markDisposing();
    await host.shutdown("exit");
    awaitable.failPending();
  };
  return {
    cwd,
    agentDir,
    ...awaitable.helpers,
    send: (async (command: unknown) => {
      const response = await send(command);
      awaitable.observe(response);
      return response;
    }) as Agent["send"],
    subscribe: (listener) => {
      // Checked here: once registered, a wrong listener would only fail, logged, at every event.
      if (typeof listener !== "function") throw new TypeError(`subscribe() takes a listener function (event) => void, got ${listener === null ? "null" : typeof listener}`);
      return host.subscribe(listener as (event: unknown) => void);
    },
    dispose: () => (disposed ??= dispose()),
  };
}

export type { CommandType };
