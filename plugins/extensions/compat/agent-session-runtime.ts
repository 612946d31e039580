/**
 * pi's session runtime over Atomic's second agent: `createAgentSessionServices` (the working
 * folder, agent dir, model catalog and settings a session is made from),
 * `createAgentSessionFromServices`, and `AgentSessionRuntime`, whose new-session, switch, fork
 * and import run the agent's own session commands: `runtime.session` stays the same object, its
 * state refreshed, so rebinding to it (as pi's examples do) keeps working.
 */
import { AgentSession } from "./agent-session.js";
import type { CreateAgentSessionResult } from "./agent-session-create.js";
import type { CreateAgentSessionOptions } from "./agent-session-options.js";

export interface AgentSessionRuntimeDiagnostic {
  type: "info" | "warning" | "error";
  message: string;
}

type SettingsManagerLike = NonNullable<CreateAgentSessionOptions["settingsManager"]>;

export interface AgentSessionServices {
  cwd: string;
  agentDir: string;
  modelRuntime: unknown;
  settingsManager: SettingsManagerLike;
  /** Not kept: the session finds its resources as the CLI does (reading it throws, naming DefaultResourceLoader). */
  readonly resourceLoader: never;
  diagnostics: AgentSessionRuntimeDiagnostic[];
}

export interface CreateAgentSessionServicesOptions {
  cwd: string;
  agentDir?: string;
  settingsManager?: SettingsManagerLike;
  modelRuntime?: unknown;
  modelRuntimeSignal?: AbortSignal;
  extensionFlagValues?: Map<string, boolean | string>;
  resourceLoaderOptions?: Record<string, unknown>;
  resourceLoaderReloadOptions?: unknown;
}

export type CreateAgentSessionFromServicesOptions = Pick<
  CreateAgentSessionOptions,
  "model" | "thinkingLevel" | "scopedModels" | "tools" | "excludeTools" | "noTools" | "customTools" | "sessionStartEvent"
> & {
  services: AgentSessionServices;
  sessionManager: NonNullable<CreateAgentSessionOptions["sessionManager"]>;
};

export interface CreateAgentSessionRuntimeResult extends CreateAgentSessionResult {
  services: AgentSessionServices;
  diagnostics: AgentSessionRuntimeDiagnostic[];
}

export type CreateAgentSessionRuntimeFactory = (options: {
  cwd: string;
  agentDir: string;
  sessionManager: NonNullable<CreateAgentSessionOptions["sessionManager"]>;
  sessionStartEvent?: unknown;
}) => Promise<CreateAgentSessionRuntimeResult>;

const refuse = (what: string, instead: string) => new Error(`${what} is not supported in Atomic: ${instead}`);

export class AgentSessionRuntime {
  readonly #session: AgentSession;
  readonly #services: AgentSessionServices;
  readonly #diagnostics: AgentSessionRuntimeDiagnostic[];
  #reported = 0;
  readonly #modelFallbackMessage: string | undefined;
  #rebind: ((session: AgentSession) => Promise<void>) | undefined;
  #beforeInvalidate: (() => void) | undefined;

  constructor(session: AgentSession, services: AgentSessionServices, _createRuntime?: unknown, diagnostics: AgentSessionRuntimeDiagnostic[] = [], modelFallbackMessage?: string) {
    if (!(session instanceof AgentSession))
      throw new Error("new AgentSessionRuntime() takes a session from createAgentSession(); use `await createAgentSessionRuntime(factory, options)`");
    this.#session = session;
    this.#services = services;
    this.#diagnostics = [...diagnostics];
    this.#modelFallbackMessage = modelFallbackMessage;
  }

  get session(): AgentSession {
    return this.#session;
  }
  get services(): AgentSessionServices {
    return this.#services;
  }
  get cwd(): string {
    return this.#services.cwd;
  }
  get diagnostics(): readonly AgentSessionRuntimeDiagnostic[] {
    return this.#diagnostics;
  }
  get modelFallbackMessage(): string | undefined {
    return this.#modelFallbackMessage;
  }
  takeUnreportedDiagnostics(): AgentSessionRuntimeDiagnostic[] {
    const fresh = this.#diagnostics.slice(this.#reported);
    this.#reported = this.#diagnostics.length;
    return fresh;
  }
  /** Called with the session after each replacement (the same object in Atomic, its state refreshed). */
  setRebindSession(rebind?: (session: AgentSession) => Promise<void>): void {
    this.#rebind = rebind;
  }
  /** Called before each replacement. */
  setBeforeSessionInvalidate(callback?: () => void): void {
    this.#beforeInvalidate = callback;
  }

  async newSession(options: { parentSession?: string; setup?: unknown; withSession?: unknown } = {}): Promise<{ cancelled: boolean }> {
    if (options.setup !== undefined) throw refuse("AgentSessionRuntime.newSession({ setup })", "start the new session, then prompt or steer it");
    return this.#replace({ type: "new_session", ...(options.parentSession !== undefined ? { parentSession: options.parentSession } : {}) }, options.withSession);
  }

  async switchSession(sessionPath: string, options: { cwdOverride?: string; withSession?: unknown } = {}): Promise<{ cancelled: boolean }> {
    if (options.cwdOverride !== undefined)
      throw refuse("AgentSessionRuntime.switchSession(path, { cwdOverride })", "the session keeps its agent's working folder; create another with createAgentSession({ cwd })");
    return this.#replace({ type: "switch_session", sessionPath }, options.withSession);
  }

  /** A new session file holding the branch before `entryId`; `selectedText` is that entry's text. */
  async fork(entryId: string, options: { position?: "before" | "at"; withSession?: unknown } = {}): Promise<{ cancelled: boolean; selectedText?: string }> {
    if (options.position === "at")
      throw refuse('AgentSessionRuntime.fork(id, { position: "at" })', "fork before the entry (the default), or use `clone` over RPC for the whole branch");
    const result = (await this.#replace({ type: "fork", entryId }, options.withSession)) as { cancelled: boolean; text?: string };
    return { cancelled: result.cancelled, ...(result.text !== undefined && !result.cancelled ? { selectedText: result.text } : {}) };
  }

  async importFromJsonl(inputPath: string, cwdOverride?: string): Promise<{ cancelled: boolean }> {
    if (cwdOverride !== undefined) throw refuse("AgentSessionRuntime.importFromJsonl(path, cwdOverride)", "the session keeps its agent's working folder");
    return this.#replace({ type: "import_session", inputPath }, undefined);
  }

  dispose(): Promise<void> {
    return this.#session.dispose();
  }

  async #replace(command: Record<string, unknown> & { type: string }, withSession: unknown): Promise<{ cancelled: boolean }> {
    if (withSession !== undefined) throw refuse(`AgentSessionRuntime (${command.type}) with withSession`, "await the call, then use runtime.session");
    this.#beforeInvalidate?.();
    const result = (await AgentSession.command(this.#session, command)) as { cancelled: boolean };
    if (!result.cancelled) await this.#rebind?.(this.#session);
    return result;
  }
}

interface RuntimeDeps {
  createAgentSession(options: CreateAgentSessionOptions): Promise<CreateAgentSessionResult>;
  createModelRuntime(): Promise<unknown>;
  createSettingsManager(cwd: string, agentDir: string): SettingsManagerLike;
  agentDir: string;
}

/** Settings managers made here from the files: the session reads the files itself (and the user's plugins with them). */
const fromFiles = new WeakSet<object>();

export function agentSessionRuntimeFunctions(deps: RuntimeDeps) {
  return {
    AgentSessionRuntime,
    async createAgentSessionServices(options: CreateAgentSessionServicesOptions): Promise<AgentSessionServices> {
      if (options.resourceLoaderOptions && Object.keys(options.resourceLoaderOptions).length > 0) {
        throw refuse(
          "createAgentSessionServices({ resourceLoaderOptions })",
          "the session finds extensions, skills and prompts as the CLI does; pass a settingsManager to change them",
        );
      }
      if (options.extensionFlagValues && options.extensionFlagValues.size > 0) {
        throw refuse("createAgentSessionServices({ extensionFlagValues })", "the session's extensions read their flags' defaults");
      }
      const agentDir = options.agentDir ?? deps.agentDir;
      let settingsManager = options.settingsManager;
      if (!settingsManager) {
        settingsManager = deps.createSettingsManager(options.cwd, agentDir);
        fromFiles.add(settingsManager);
      }
      const services = { cwd: options.cwd, agentDir, modelRuntime: options.modelRuntime ?? (await deps.createModelRuntime()), settingsManager, diagnostics: [] };
      return Object.defineProperty(services, "resourceLoader", {
        get() {
          throw new Error(
            "AgentSessionServices.resourceLoader is not available in Atomic: the session finds its resources as the CLI does; build a DefaultResourceLoader to read them",
          );
        },
        enumerable: false,
      }) as unknown as AgentSessionServices;
    },
    createAgentSessionFromServices({ services, ...options }: CreateAgentSessionFromServicesOptions): Promise<CreateAgentSessionResult> {
      return deps.createAgentSession({
        ...options,
        cwd: services.cwd,
        agentDir: services.agentDir,
        ...(fromFiles.has(services.settingsManager) ? {} : { settingsManager: services.settingsManager }),
      });
    },
    async createAgentSessionRuntime(createRuntime: CreateAgentSessionRuntimeFactory, options: Parameters<CreateAgentSessionRuntimeFactory>[0]): Promise<AgentSessionRuntime> {
      const result = await createRuntime(options);
      return new AgentSessionRuntime(result.session, result.services, createRuntime, result.diagnostics, result.modelFallbackMessage);
    },
  };
}
