/**
 * The agents a server knows (docs/server.md, Limits and Persistence): by handle, saved in the registry
 * file so a restart lists them `notLoaded`; loaded on first use within `maxAgents`; unloaded when
 * idle for `idleUnloadMs` and loaded again transparently (same handle, same session); never two
 * on one session file (`session_in_use`).
 */
import { access, stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { expandHome, type EmbeddedHost, type Logger, type SiblingOptions } from "../../kernel/index.js";
import { ServedAgent } from "./agent.js";
import { bootFailure, serverErrors } from "./errors.js";
import { newHandle } from "./handles.js";
import { optionNamesOf } from "./open-fields.js";
import { sandboxOverride, type SandboxMode, type SandboxSetting } from "../sandbox/api.js";
import type { AgentRecord, RegistryFile } from "./registry-file.js";
import type { ServerLimits } from "./settings.js";

export interface OpenRequest {
  cwd?: string | undefined;
  resume?: string | undefined;
  noSession?: boolean | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  thinkingLevel?: string | undefined;
  name?: string | undefined;
  sandbox?: SandboxMode | SandboxSetting | undefined;
}

export interface PoolOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  limits: ServerLimits;
  log: Logger;
  registry: RegistryFile;
  openSibling(options: SiblingOptions): Promise<EmbeddedHost>;
  /** Stored sessions (id, file) for resolving `resume` by id before anything opens it. */
  listSessions(): Promise<{ id: string; path: string }[]>;
}

export class AgentPool {
  readonly agents = new Map<string, ServedAgent>();
  readonly #options: PoolOptions;

  constructor(options: PoolOptions) {
    this.#options = options;
  }

  /** The agents of the registry file, all `notLoaded`. */
  async restore(): Promise<void> {
    for (const [handle, record] of await this.#options.registry.load()) this.agents.set(handle, this.#agent(handle, record));
  }

  get loadedCount(): number {
    let count = 0;
    for (const agent of this.agents.values()) if (agent.loaded || agent.loading) count++;
    return count;
  }

  require(handle: string): ServedAgent {
    const agent = this.agents.get(handle);
    if (!agent || agent.closed) throw serverErrors.unknownAgent(handle);
    return agent;
  }

  /** Loads it if it is not (same handle, same session); `limit_reached` past `maxAgents`. */
  async ensureLoaded(agent: ServedAgent): Promise<void> {
    if (agent.loaded) return;
    if (!agent.loading) this.#checkLimit();
    const record = agent.record;
    const written = record.sessionFile !== undefined && (await exists(record.sessionFile));
    // Another process may have opened its file meanwhile (the session lock): session_in_use.
    await agent
      .load({
        cwd: record.cwd,
        ...sandboxOf(record),
        // A session never written (no prompt yet) comes back as a new session with the same id and name.
        ...(written ? { resume: record.sessionFile! } : { sessionId: record.sessionId }),
        // The model and level agent_open chose, under what the session chose since (set_model, a
        // model_change): the server's own --model and --thinking only where neither chose.
        ...modelOf(record),
        ...flagsOf({ ...record, ...(written ? { name: undefined } : {}) }, ["model", "thinking"]),
        noSession: false,
      })
      .catch((error: unknown) => {
        throw bootFailure(error, (other) => other);
      });
  }

  async open(request: OpenRequest): Promise<ServedAgent> {
    this.#checkLimit();
    const cwd = await this.#folder(request.cwd);
    if (request.resume !== undefined && !request.noSession) {
      const file = await this.#sessionFile(request.resume, cwd);
      const holder = file && this.holderOf(file);
      if (holder) throw serverErrors.sessionInUse(file, holder);
    }
    const handle = newHandle((taken) => this.agents.has(taken));
    const record: AgentRecord = {
      cwd,
      sessionId: "",
      ...(request.name ? { name: request.name } : {}),
      ...modelOf(request),
      ...(request.sandbox !== undefined ? sandboxOverride(request.sandbox) : {}),
    };
    const agent = this.#agent(handle, record);
    this.agents.set(handle, agent);
    try {
      await agent.load({
        cwd,
        ...sandboxOf(record),
        ...(request.resume !== undefined ? { resume: request.resume } : {}),
        ...(request.noSession !== undefined ? { noSession: request.noSession } : {}),
        ...modelOf(request),
        // The session's display name, as `--name` gives it (only when opened: a reload keeps it),
        // and errors about the fields naming those fields, not the flags they stand for. A stored
        // session keeps its own model and level unless the request names others.
        ...flagsOf(request, request.resume !== undefined ? leftToSession(request) : []),
      });
      const holder = agent.record.sessionFile && this.holderOf(agent.record.sessionFile, agent);
      if (holder) throw serverErrors.sessionInUse(agent.record.sessionFile!, holder);
    } catch (error) {
      this.agents.delete(handle);
      await agent.close().catch(() => undefined);
      throw bootFailure(error);
    }
    this.#save(agent);
    return agent;
  }

  /** The agent (other than `except`) whose session is this file. */
  holderOf(file: string, except?: ServedAgent): string | undefined {
    for (const agent of this.agents.values()) if (agent !== except && !agent.closed && agent.record.sessionFile === file) return agent.handle;
    return undefined;
  }

  async close(agent: ServedAgent): Promise<void> {
    this.agents.delete(agent.handle);
    await agent.close();
    if (!agent.inMemory) await this.#options.registry.save(agent.handle, undefined);
  }

  /** Server shutdown: every loaded agent's teardown, then the registry written. */
  async unloadAll(reason: "eof" | "signal" | "exit"): Promise<void> {
    await Promise.all(
      [...this.agents.values()].map((agent) => agent.unload(reason).catch((error: unknown) => this.#options.log.error(`${agent.handle}: ${(error as Error).message}`))),
    );
    for (const agent of this.agents.values()) if (!agent.inMemory && agent.record.sessionId) this.#save(agent);
    await this.#options.registry.flush();
  }

  #agent(handle: string, record: AgentRecord): ServedAgent {
    const { limits, log, openSibling } = this.#options;
    return new ServedAgent(handle, record, {
      log,
      replayRecords: limits.replayRecords,
      replayBytes: limits.replayBytes,
      idleUnloadMs: limits.idleUnloadMs,
      openSibling,
      changed: (agent) => this.#save(agent),
      idle: (agent) => {
        if (agent.unloadable) void agent.unload().catch((error: unknown) => log.error(`${agent.handle}: unload failed: ${(error as Error).message}`));
      },
    });
  }

  #save(agent: ServedAgent): void {
    if (agent.inMemory || agent.closed || !agent.record.sessionId) return;
    void this.#options.registry.save(agent.handle, agent.record);
  }

  #checkLimit(): void {
    const max = this.#options.limits.maxAgents;
    if (this.loadedCount >= max) throw serverErrors.limitReached(`The server has ${max} agents loaded (maxAgents): close one, or wait until an idle one is unloaded`);
  }

  async #folder(cwd: string | undefined): Promise<string> {
    if (cwd === undefined) return this.#options.cwd;
    if (!isAbsolute(cwd)) throw serverErrors.invalid(`Invalid cwd: expected an absolute path (got "${cwd}")`);
    const info = await stat(cwd).catch(() => undefined);
    if (!info?.isDirectory()) throw serverErrors.invalid(`Invalid cwd: ${cwd} is not a folder`);
    return cwd;
  }

  /** The file `resume` names, when it can be told before opening (a path, or a stored session's id or unique prefix). */
  async #sessionFile(resume: string, cwd: string): Promise<string | undefined> {
    if (/[\\/]/.test(resume) || resume.endsWith(".jsonl") || resume.startsWith("~")) return resolve(cwd, expandHome(resume, this.#options.env));
    const sessions = await this.#options.listSessions().catch(() => []);
    const exact = sessions.find((session) => session.id === resume);
    if (exact) return exact.path;
    const matches = sessions.filter((session) => session.id.startsWith(resume));
    return matches.length === 1 ? matches[0]!.path : undefined;
  }
}

function modelOf(source: {
  provider?: string | undefined;
  model?: string | undefined;
  thinkingLevel?: string | undefined;
}): Pick<AgentRecord, "provider" | "model" | "thinkingLevel"> {
  return {
    ...(source.provider !== undefined ? { provider: source.provider } : {}),
    ...(source.model !== undefined ? { model: source.model } : {}),
    ...(source.thinkingLevel !== undefined ? { thinkingLevel: source.thinkingLevel } : {}),
  };
}

type Choice = "model" | "thinking";

/**
 * The flags an agent is loaded with: its display name (as `--name`), how messages name the
 * agent_open fields it was given, and which of its model and level a resumed session's own
 * choice overrides.
 */
function flagsOf(
  source: { name?: string | undefined; resume?: string | undefined; provider?: string | undefined; model?: string | undefined; thinkingLevel?: string | undefined },
  sessionChoiceWins: readonly Choice[],
): Pick<SiblingOptions, "flags"> {
  const optionNames = optionNamesOf(source);
  const flags = {
    ...(source.name ? { name: source.name } : {}),
    ...(optionNames ? { optionNames } : {}),
    ...(sessionChoiceWins.length > 0 ? { sessionChoiceWins } : {}),
  };
  return Object.keys(flags).length > 0 ? { flags } : {};
}

/** What a request leaves to the session it resumes: the model unless it names one, the level likewise. */
function leftToSession(request: OpenRequest): Choice[] {
  const left: Choice[] = [];
  if (request.provider === undefined && request.model === undefined) left.push("model");
  if (request.thinkingLevel === undefined) left.push("thinking");
  return left;
}

/** The agent's own sandbox, laid over the settings files' on every load (an unloaded agent comes back as confined as it was). */
function sandboxOf(record: AgentRecord): Pick<SiblingOptions, "settings"> {
  return record.sandbox ? { settings: { sandbox: record.sandbox } } : {};
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
