/**
 * Glue between the session manager, the agent and the hooks: records what the agent does as
 * entries, and replaces the session (abort -> shutdown -> activate -> restore -> start) so
 * every command that swaps sessions follows one order.
 */
import { dirname, resolve } from "node:path";
import { ErrorCode, isKernelError, KernelError, UsageError, type CliOptions, type PluginContext } from "../../kernel/index.js";
import { optionName } from "../../lib/cli-io/index.js";
import type { AgentApi } from "../agent/api.js";
import type { LoadedSession, SessionContext, SessionWriteStatus } from "./api.js";
import { contextFromPath } from "./context.js";
import { checkSessionName } from "./limits.js";
import { SessionManager, type Session } from "./manager.js";
import type { SessionHooks, SessionStartReason } from "./hooks.js";
import { cliSessionId, resolveSessionArgument, sessionWithId, startupSessionFile } from "./startup-session.js";

type ShutdownReason = "new" | "resume" | "fork";

/** A usage error of `--session`'s resolver, said about the flag the user gave. */
function rephrase(error: unknown, from: string, to: string): never {
  if (isKernelError(error) && error.code === ErrorCode.USAGE) throw new UsageError(error.message.replaceAll(`(${from})`, `(${to})`));
  throw error;
}

/** How messages name what chose the session opened at startup: its flag, or what stands for it (a server's agent_open field). */
function startupFlag(cli: CliOptions): string {
  return optionName(cli, cli.session !== undefined ? "--session" : cli.sessionId !== undefined ? "--session-id" : cli.resume ? "--resume" : "--continue");
}

/** What a resumed session's own model and thinking level give way to: a flag given, unless it is only a default (`sessionChoiceWins`). */
function keptOnResume(cli: CliOptions): { keepModel: boolean; keepThinking: boolean } {
  const own = cli.sessionChoiceWins ?? [];
  return { keepModel: Boolean(cli.model || cli.provider) && !own.includes("model"), keepThinking: cli.thinking !== undefined && !own.includes("thinking") };
}

/**
 * Leaving a session closes its file: entries a failed write kept back (a full disk, a folder
 * that cannot be made) would be dropped with it, so the session stays until they are written.
 */
async function refuseUnsaved(session: Session): Promise<void> {
  const reason = await session.storage.unsaved?.();
  if (reason === undefined) return;
  throw new KernelError(
    ErrorCode.CONFLICT,
    `Cannot leave the session: some of its entries are not saved to ${session.storage.file} (${reason}). They are kept in memory; fix that and try again.`,
  );
}

export class SessionRuntime {
  readonly #k: PluginContext;
  readonly hooks: SessionHooks;
  #manager: SessionManager | undefined;
  /** Set while we restore model/thinking from a session, so restoring does not append to it. */
  #restoring = false;
  /** Why the current session cannot be written (startup check, then the writer's reports). */
  #writeError: string | undefined;

  constructor(k: PluginContext, hooks: SessionHooks) {
    this.#k = k;
    this.hooks = hooks;
  }

  get manager(): SessionManager {
    if (!this.#manager) throw new Error("The session is not started yet (boot has not run)");
    return this.#manager;
  }

  get started(): boolean {
    return this.#manager !== undefined;
  }

  get agent(): AgentApi {
    return this.#k.service("agent");
  }

  /**
   * Creates the startup session, or opens the one `--continue`/`--resume`/`--session` names; the
   * persistence backend is looked up now that all plugins applied.
   */
  async start(): Promise<void> {
    const { cwd, cli, env } = this.#k.config;
    const name = cli.name?.trim() ? checkSessionName(cli.name, optionName(cli, "--name")) : undefined;
    const store = this.#k.maybeService("sessionStore");
    if (store?.persistent) {
      // Said at once (stderr, get_state), not first discovered when the first entry is lost.
      this.#writeError = await store.checkWritable();
      if (this.#writeError) this.#k.log.warn(this.#writeError);
    }
    store?.onWriteStatus((status) => this.#onWriteStatus(status));
    this.#manager = new SessionManager({ cwd, store });
    const id = cliSessionId(cli);
    if (cli.fork !== undefined) await this.#forkAtStartup(cli.fork, id);
    else {
      const file = await startupSessionFile({ cli, cwd, env, store, log: this.#k.log }).catch((error: unknown) => rephrase(error, "--session", optionName(cli, "--session")));
      if (file) await this.#openAtStartup(file);
      else if (id !== undefined) await this.#startWithId(id);
    }
    this.agent.setSessionId(this.#manager.current.header.id);
    if (name) this.#manager.append({ type: "session_info", name });
    await this.hooks.session_start.promise({ reason: "startup" });
  }

  /** A failing write is an event for the client; get_state shows it while the current file fails. */
  #onWriteStatus({ file, error }: SessionWriteStatus): void {
    const current = this.#manager?.current.storage.file;
    if (error !== undefined) this.#k.events.emit("session_write_error", { sessionFile: file, error });
    if (file === current) this.#writeError = error;
  }

  /** Taps that turn agent activity into entries of the current session. */
  tapRecording(): void {
    const { hooks, name } = this.#k;
    const owned = this.hooks;
    // Each entry is written before the run (or the command) goes on: by the next event of the run,
    // agent_end included, or the command's response, the client's news is in the file (a failed
    // write is reported as session_write_error and does not hold the run up).
    hooks.message_end.tapPromise(name, async ({ message }) => {
      if (!this.#manager) return;
      this.#manager.append({ type: "message", message });
      await this.#manager.flush();
    });
    hooks.model_select.tapPromise(name, async ({ model, source }) => {
      if (!this.#manager || this.#restoring || source === "restore") return;
      this.#manager.append({ type: "model_change", provider: model.provider, modelId: model.id });
      await this.#manager.flush();
    });
    hooks.thinking_level_select.tapPromise(name, async ({ level }) => {
      if (!this.#manager || this.#restoring) return;
      this.#manager.append({ type: "thinking_level_change", thinkingLevel: level });
      await this.#manager.flush();
    });
    hooks.shutdown.tapPromise(name, async () => {
      if (!this.#manager) return;
      await owned.session_shutdown.promise({ reason: "quit" });
      await this.#manager.current.storage.close();
    });
  }

  /** Names the current session: a session_info entry, then session_info_changed. */
  async setSessionName(name: string): Promise<void> {
    const trimmed = checkSessionName(name);
    this.manager.append({ type: "session_info", name: trimmed });
    await this.manager.flush();
    this.#k.events.emit("session_info_changed", { name: trimmed });
    await this.hooks.session_info_changed.promise({ name: trimmed });
  }

  /** The current session's context (active branch). */
  context(): SessionContext {
    return contextFromPath(this.manager.current.tree.branch());
  }

  /**
   * Swaps the current session for the one `build` returns. A streaming run is aborted first
   * (its closing events and messages land in the old session), the old session is flushed and
   * shut down, then the agent is loaded from the new one.
   */
  async replace(reason: ShutdownReason, build: () => Session | Promise<Session>): Promise<void> {
    const hooks = this.hooks;
    const agent = this.agent;
    const manager = this.manager;
    await refuseUnsaved(manager.current);
    if (agent.isStreaming()) await agent.abort();
    // Messages queued for the old conversation must not reach the new one.
    agent.clearQueues();
    await manager.flush();
    await refuseUnsaved(manager.current);
    const next = await build();
    const previousSessionFile = manager.current.storage.file;
    try {
      await hooks.session_shutdown.promise({ reason });
    } catch (error) {
      // The swap did not happen: the file opened for it (and its lock) is let go.
      if (next.storage !== manager.current.storage) await next.storage.close();
      throw error;
    }
    // A failure of the previous file is not this session's. The new file reports its own (the
    // copy a fork writes on activation included); a new one in the session dir is checked too.
    const newFile = next.storage.file !== previousSessionFile;
    if (newFile) this.#writeError = undefined;
    await manager.activate(next);
    const store = this.#k.maybeService("sessionStore");
    if (newFile && this.#writeError === undefined && store?.persistent && next.storage.file !== undefined && dirname(next.storage.file) === resolve(store.sessionDir())) {
      this.#writeError = await store.checkWritable();
    }
    agent.setSessionId(next.header.id);
    await this.#restoreAgent(contextFromPath(next.tree.branch()));
    const startReason: SessionStartReason = reason;
    await hooks.session_start.promise(previousSessionFile === undefined ? { reason: startReason } : { reason: startReason, previousSessionFile });
  }

  /**
   * What get_state adds: sessionFile (persisted only), sessionId, sessionName (named only), and
   * sessionWriteError while the current session file cannot be written.
   */
  stateFields(): Record<string, unknown> {
    if (!this.#manager) return {};
    const { header, tree, storage } = this.#manager.current;
    const fields: Record<string, unknown> = {};
    if (storage.file !== undefined) fields.sessionFile = storage.file;
    fields.sessionId = header.id;
    if (tree.name !== undefined) fields.sessionName = tree.name;
    if (this.#writeError !== undefined && storage.file !== undefined) fields.sessionWriteError = this.#writeError;
    return fields;
  }

  /**
   * The stored session becomes the current one; a model or level given on the command line wins
   * over its own. An empty file starts a new session written there, as switch_session does.
   */
  async #openAtStartup(file: string): Promise<void> {
    const manager = this.manager;
    const { cli } = this.#k.config;
    let loaded: LoadedSession | undefined;
    let fresh: Session | undefined;
    try {
      loaded = await manager.read(file);
    } catch (error) {
      if (!isKernelError(error) || (error.code !== ErrorCode.NOT_FOUND && error.code !== ErrorCode.INVALID_INPUT)) throw error;
      // An empty file holds no session yet and starts one; one that vanished or is no session is the command line's mistake.
      if (error.code === ErrorCode.INVALID_INPUT) fresh = await this.#saysFlag(() => manager.startAt(file));
      if (!fresh) throw new UsageError(`${error.message} (${startupFlag(cli)})`);
    }
    await this.#saysFlag(async () => manager.activate(fresh ?? (await manager.openLoaded(loaded!))));
    if (loaded) await this.#restoreAgent(contextFromPath(manager.current.tree.branch()), keptOnResume(cli));
  }

  /** Runs `open`; a file another agent or process writes is refused naming the flag that asked for it. */
  async #saysFlag<T>(open: () => Promise<T>): Promise<T> {
    try {
      return await open();
    } catch (error) {
      if (isKernelError(error) && error.code === ErrorCode.IN_USE)
        throw new KernelError(ErrorCode.IN_USE, `${error.message} (${startupFlag(this.#k.config.cli)})`, { cause: error });
      throw error;
    }
  }

  /** `--session-id`: this folder's session with that id, else a new session with it (as pi, with a note). */
  async #startWithId(id: string): Promise<void> {
    const store = this.#k.maybeService("sessionStore");
    const existing = store?.persistent ? await sessionWithId(store, id) : undefined;
    if (existing) return this.#openAtStartup(existing.path);
    if (store?.persistent) this.#k.log.info(`No session of this folder has the id "${id}": starting a new session with it.`);
    await this.manager.activate(this.manager.newSession({ id }));
  }

  /** `--fork <path|id>`: every entry of that session, copied into a new session of this folder whose parent it is. */
  async #forkAtStartup(arg: string, id: string | undefined): Promise<void> {
    const { cwd, env } = this.#k.config;
    const store = this.#k.maybeService("sessionStore");
    if (id !== undefined && (await sessionWithId(store, id))) throw new UsageError(`A session of this folder already has the id "${id}" (--session-id with --fork)`);
    const manager = this.manager;
    let loaded;
    try {
      loaded = await manager.read(await resolveSessionArgument(arg, { cwd, env, store }).catch((error: unknown) => rephrase(error, "--session", "--fork")));
    } catch (error) {
      if (isKernelError(error) && (error.code === ErrorCode.NOT_FOUND || error.code === ErrorCode.INVALID_INPUT)) throw new UsageError(`${error.message} (--fork)`);
      throw error;
    }
    await manager.activate(manager.newSession({ parentSession: loaded.file, entries: loaded.entries, ...(id !== undefined ? { id } : {}) }));
    await this.#restoreAgent(contextFromPath(manager.current.tree.branch()), keptOnResume(this.#k.config.cli));
  }

  async #restoreAgent(context: SessionContext, keep: { keepModel?: boolean; keepThinking?: boolean } = {}): Promise<void> {
    const agent = this.agent;
    agent.replaceMessages(context.messages);
    this.#restoring = true;
    try {
      if (context.model && !keep.keepModel) {
        const model = this.#k.service("models").find(context.model.provider, context.model.modelId);
        const current = agent.getModel();
        if (model && (current?.provider !== model.provider || current.id !== model.id)) await agent.setModel(model, "restore");
      }
      if (context.thinkingLevel && !keep.keepThinking) await agent.setThinkingLevel(context.thinkingLevel, { restore: true });
    } finally {
      this.#restoring = false;
    }
  }
}
