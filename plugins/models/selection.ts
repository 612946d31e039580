/**
 * The session's model controls: choosing, cycling and persisting the model and thinking level,
 * the prompt preflight, and the unsupported-saved-default lock (set at startup and on session
 * replacement, cleared by an explicit model choice).
 */
import type {} from "../settings/api.js";
import { clampThinkingLevel, ErrorCode, KernelError, type Model, type PluginContext, type ThinkingLevel } from "../../kernel/index.js";
import type { AgentApi } from "../agent/api.js";
import type { ModelsApi } from "./api.js";
import { UNSUPPORTED_DEFAULT_ERROR, resolveStartupModel, unsupportedDefault, type UnsupportedDefault } from "./startup.js";

export interface CycleResult {
  model: Model;
  thinkingLevel: ThinkingLevel;
  isScoped: false;
}

export class ModelSelection {
  readonly #k: PluginContext;
  readonly #models: ModelsApi;
  readonly #agent: AgentApi;
  #lock: UnsupportedDefault | undefined;

  constructor(k: PluginContext, models: ModelsApi, agent: AgentApi) {
    this.#k = k;
    this.#models = models;
    this.#agent = agent;
  }

  get lock(): UnsupportedDefault | undefined {
    return this.#lock;
  }

  /** Startup: evaluate the lock, then pick the model (CLI > saved default > first available). */
  async applyStartup(): Promise<void> {
    const { cli, settings } = this.#k.config;
    this.reevaluateLock();
    const choice = resolveStartupModel(this.#models, cli, settings);
    if (choice.warning) this.#k.log.warn(choice.warning);
    if (choice.model) await this.#agent.setModel(choice.model, "startup");
    if (choice.thinkingLevel) await this.#agent.setThinkingLevel(choice.thinkingLevel);
  }

  /** A replaced session starts from the same saved defaults, so the condition applies again. */
  reevaluateLock(): void {
    this.#lock = unsupportedDefault(this.#models, this.#k.config.cli, this.#k.config.settings);
  }

  /** Why a prompt cannot run now, or undefined. Checked before any event is emitted. */
  preflight(): string | undefined {
    if (this.#lock) return UNSUPPORTED_DEFAULT_ERROR;
    const model = this.#agent.getModel();
    if (!model) return "No model selected. Use set_model, or start with --provider/--model.";
    if (!this.#models.authStatus(model.provider).configured) {
      return `No API key found for ${model.provider}. Set its API key environment variable, add it to models.json, or run \`atomic auth set ${model.provider}\`.`;
    }
    return undefined;
  }

  state(): Record<string, unknown> {
    return this.#lock ? { modelFallbackReason: this.#lock.reason, modelFallbackMessage: this.#lock.message } : {};
  }

  async setModel(provider: string, modelId: string): Promise<Model> {
    const model = this.#models.available().find((m) => m.provider === provider && m.id === modelId);
    if (!model) throw new KernelError(ErrorCode.NOT_FOUND, `Model not found: ${provider}/${modelId}`);
    // Saved first: a choice that cannot be saved is an error and changes nothing.
    await this.#persist({ defaultProvider: model.provider, defaultModel: model.id });
    await this.#agent.setModel(model, "set");
    this.#lock = undefined;
    return model;
  }

  /** Next (or previous) available model; null with fewer than two. */
  async cycleModel(direction: "forward" | "backward" = "forward"): Promise<CycleResult | null> {
    const candidates = this.#models.available();
    if (candidates.length < 2) return null;
    const current = this.#agent.getModel();
    const index = current ? candidates.findIndex((m) => sameModel(m, current)) : -1;
    const step = direction === "backward" ? -1 : 1;
    const next = index < 0 ? candidates[direction === "backward" ? candidates.length - 1 : 0]! : candidates[(index + step + candidates.length) % candidates.length]!;
    const changed = !current || !sameModel(next, current);
    if (changed) {
      await this.#persist({ defaultProvider: next.provider, defaultModel: next.id });
      await this.#agent.setModel(next, "cycle");
      // Only a cycle that really moved to another model counts as the user's choice.
      this.#lock = undefined;
    }
    return { model: next, thinkingLevel: this.#agent.getThinkingLevel(), isScoped: false };
  }

  async setThinkingLevel(level: ThinkingLevel): Promise<ThinkingLevel> {
    const previous = this.#agent.getThinkingLevel();
    const next = clampThinkingLevel(level, this.#agent.availableThinkingLevels());
    if (next !== previous) await this.#persist({ defaultThinkingLevel: next });
    return this.#agent.setThinkingLevel(next);
  }

  /** The next level in cycle order; null when the model has no thinking. */
  async cycleThinkingLevel(): Promise<{ level: ThinkingLevel } | null> {
    const levels = this.#agent.availableThinkingLevels();
    if (levels.length < 2) return null;
    const index = levels.indexOf(this.#agent.getThinkingLevel());
    const level = await this.setThinkingLevel(levels[(index + 1) % levels.length]!);
    return { level };
  }

  /** Writes the user's settings file; failing names the file (the caller changes nothing then). */
  #persist(patch: Record<string, unknown>): Promise<void> {
    return this.#k.service("settings").update(patch);
  }
}

export function sameModel(a: Model, b: Model): boolean {
  return a.provider === b.provider && a.id === b.id;
}
