/**
 * The session's model controls: choosing and cycling the model and thinking level (the session's
 * own: the saved defaults in settings.json are the user's to edit, as in pi 1.6),
 * the prompt preflight, and the unsupported-saved-default lock (set at startup and on session
 * replacement, cleared by an explicit model choice).
 */
import type {} from "../settings/api.js";
import { clampThinkingLevel, type Model, type ThinkingLevel } from "../../lib/llm/index.js";
import { ErrorCode, KernelError, UsageError, type PluginContext } from "../../kernel/index.js";
import type { AgentApi } from "../agent/api.js";
import type { ModelsApi } from "./api.js";
import { cycleCandidates, nextCandidate } from "./cycle.js";
import { cliThinkingLevel } from "./declarations.js";
import type { ScopedModel } from "./scope.js";
import { UNSUPPORTED_DEFAULT_ERROR, hasCliModel, resolveStartupModel, unsupportedDefault, type UnsupportedDefault } from "./startup.js";
import { keyHowTo, modeFamily, noKeysHint, noModelSelected, unsupportedDefaultHint } from "./hints.js";
import { needsAddressVariables } from "./address-variables.js";

export interface CycleResult {
  model: Model;
  thinkingLevel: ThinkingLevel;
  isScoped: boolean;
}

export const NO_MODEL_SELECTED = noModelSelected("rpc");

/** The providers a first run is pointed at when no key is set anywhere. */
const MAIN_PROVIDERS = ["anthropic", "openai", "google"];

export class ModelSelection {
  readonly #k: PluginContext;
  readonly #models: ModelsApi;
  readonly #agent: AgentApi;
  #lock: UnsupportedDefault | undefined;
  /** The models cycle_model moves through (`--models`, `enabledModels`); empty: no scope. */
  #scope: ScopedModel[] = [];

  constructor(k: PluginContext, models: ModelsApi, agent: AgentApi) {
    this.#k = k;
    this.#models = models;
    this.#agent = agent;
  }

  get scope(): readonly ScopedModel[] {
    return this.#scope;
  }

  get lock(): UnsupportedDefault | undefined {
    return this.#lock;
  }

  /**
   * Startup: evaluate the lock, then pick the model (CLI > scope > saved default > first
   * available) and the level (`--thinking` > a `:level` suffix or scoped level > the setting).
   * A command line that names no model, or a key without a model, is a usage error.
   */
  async applyStartup(scope: ScopedModel[]): Promise<void> {
    const { cli, settings } = this.#k.config;
    this.#scope = scope;
    this.reevaluateLock();
    let choice = resolveStartupModel(this.#models, cli, settings, scope);
    if (choice.error) throw new UsageError(choice.error);
    if (cli.apiKey) {
      const provider = cli.provider ?? (cli.model ? choice.model?.provider : scope[0]?.model.provider);
      if (!provider) throw new UsageError("--api-key needs a model to apply to: pass --model, --provider or --models");
      this.#models.setRuntimeApiKey(provider, cli.apiKey);
      // The scope's first model with a key may be the one the key just unlocked.
      if (!hasCliModel(cli)) choice = resolveStartupModel(this.#models, cli, settings, scope);
    }
    if (choice.warning) this.#k.log.warn(choice.warning);
    if (choice.model) await this.#agent.setModel(choice.model, "startup");
    const level = cliThinkingLevel(cli) ?? choice.thinkingLevel;
    if (level) await this.#agent.setThinkingLevel(level);
  }

  /** A replaced session starts from the same saved defaults, so the condition applies again. */
  reevaluateLock(): void {
    this.#lock = unsupportedDefault(this.#models, this.#k.config.cli, this.#k.config.settings);
  }

  /** Why a prompt cannot run now, or undefined. Checked before any event is emitted. */
  preflight(): string | undefined {
    const family = modeFamily(this.#k.config);
    // In RPC (and the SDK, which answers as RPC does) the protocol's exact text (clients match on it); elsewhere words that fit the mode.
    if (this.#lock) return family === "rpc" || family === "sdk" ? UNSUPPORTED_DEFAULT_ERROR : unsupportedDefaultHint(family);
    const model = this.#agent.getModel();
    if (!model) {
      // A models.json that failed validation is the likely reason: say so where the client looks.
      const { error, problems } = this.#models.diagnostics().modelsJson;
      if (error) return `${noModelSelected(family)} ${error} (models.json was ignored)`;
      if (problems?.[0]) return `${noModelSelected(family)} ${problems[0]}`;
      const anyKey = this.#models.providers().some((provider) => this.#models.authStatus(provider).source !== "none" && this.#models.authStatus(provider).configured);
      return anyKey
        ? noModelSelected(family)
        : `${noModelSelected(family)} ${noKeysHint(
            MAIN_PROVIDERS.flatMap((provider) => this.#models.providerInfo(provider)?.envKey ?? []),
            family,
          )}`;
    }
    return this.#models.blockedReason(model) ?? this.#unavailableReason(model);
  }

  /** Why a listed model cannot take a request: no credentials, or address variables unset. */
  #unavailableReason(model: Model): string | undefined {
    if (!this.#models.authStatus(model.provider).configured) {
      // An entry that is there but unusable is the reason, not a missing key.
      const stored = this.#models.storedCredentialProblem?.(model.provider);
      if (stored) return stored;
      const info = this.#models.providerInfo(model.provider);
      return `No API key found for ${model.provider}. ${keyHowTo(model.provider, info?.envKey, info?.login)}`;
    }
    const missing = this.#models.missingAddressVariables(model);
    return missing.length > 0 ? needsAddressVariables(model.provider, missing) : undefined;
  }

  state(): Record<string, unknown> {
    return this.#lock ? { modelFallbackReason: this.#lock.reason, modelFallbackMessage: this.#lock.message } : {};
  }

  async setModel(provider: string, modelId: string): Promise<Model> {
    const model = this.#models.find(provider, modelId);
    if (!model) throw new KernelError(ErrorCode.NOT_FOUND, `Model not found: ${provider}/${modelId}`);
    // A model the catalog lists but cannot be used yet: what it lacks, not "not found".
    const missing = this.#unavailableReason(model);
    if (missing) throw new KernelError(ErrorCode.NOT_FOUND, missing);
    // The session's model only, as pi 1.6: the saved default (the next session's model) stays.
    await this.#agent.setModel(model, "set");
    this.#lock = undefined;
    return model;
  }

  /** Next (or previous) model of the scope, else of the available ones; null with fewer than two. */
  async cycleModel(direction: "forward" | "backward" = "forward"): Promise<CycleResult | null> {
    const current = this.#agent.getModel();
    const { candidates, scoped } = cycleCandidates(this.#models, current, this.#scope);
    if (candidates.length < 2) return null;
    const next = nextCandidate(candidates, current, direction);
    const changed = !current || !sameModel(next.model, current);
    if (changed) {
      await this.#agent.setModel(next.model, "cycle");
      // Only a cycle that really moved to another model counts as the user's choice.
      this.#lock = undefined;
    }
    // A level the scope names for this model applies; otherwise the current one (clamped) stays.
    if (next.thinkingLevel) await this.setThinkingLevel(next.thinkingLevel);
    return { model: next.model, thinkingLevel: this.#agent.getThinkingLevel(), isScoped: scoped };
  }

  /** The session's level only, as pi 1.6: settings.json's defaultThinkingLevel (the next session's) stays. */
  async setThinkingLevel(level: ThinkingLevel): Promise<ThinkingLevel> {
    return this.#agent.setThinkingLevel(clampThinkingLevel(level, this.#agent.availableThinkingLevels()));
  }

  /** The next level in cycle order; null when the model has no thinking. */
  async cycleThinkingLevel(): Promise<{ level: ThinkingLevel } | null> {
    const levels = this.#agent.availableThinkingLevels();
    if (levels.length < 2) return null;
    const index = levels.indexOf(this.#agent.getThinkingLevel());
    const level = await this.setThinkingLevel(levels[(index + 1) % levels.length]!);
    return { level };
  }
}

export function sameModel(a: Model, b: Model): boolean {
  return a.provider === b.provider && a.id === b.id;
}
