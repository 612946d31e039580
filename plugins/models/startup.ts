/**
 * Which model a fresh process (or a replaced session) starts with: CLI `--provider`/`--model`
 * first (a pattern that matches nothing is an error naming the closest models, never a silent
 * fallback), then the scope (`--models`/`enabledModels`), then the saved defaults, then the first
 * available model. Also detects the protocol's "unsupported saved default provider" condition, which
 * blocks prompts instead of falling back.
 */
import type { CliOptions, Settings } from "../../kernel/index.js";
import { optionName } from "../../lib/cli-io/index.js";
import type { Model, ThinkingLevel } from "../../lib/llm/index.js";
import type { ModelsApi } from "./api.js";
import { closestHint, closestModels, providerMeant } from "./closest.js";
import { resolveModelPattern, splitThinking } from "./resolve.js";
import type { ScopedModel } from "./scope.js";
import { keyHowTo } from "./hints.js";
import { needsAddressVariables } from "./address-variables.js";

export const UNSUPPORTED_DEFAULT_ERROR = "Configured default model is unavailable or unsupported. Update defaultProvider/defaultModel or use /model.";
export const UNSUPPORTED_DEFAULT_REASON = "configured-provider-unsupported";

export interface StartupChoice {
  model?: Model;
  thinkingLevel?: ThinkingLevel;
  warning?: string;
  /** The command line names no model: a usage error (the process does not start). */
  error?: string;
}

export interface UnsupportedDefault {
  reason: typeof UNSUPPORTED_DEFAULT_REASON;
  message: string;
}

export function hasCliModel(cli: CliOptions): boolean {
  return Boolean(cli.model || cli.provider);
}

/**
 * The condition, word for word: a *complete* saved default (provider and model), no CLI model,
 * and the provider still unknown once every provider has registered. A known provider with an
 * unknown model, or one without credentials, falls back normally instead.
 */
export function unsupportedDefault(models: ModelsApi, cli: CliOptions, settings: Settings): UnsupportedDefault | undefined {
  if (hasCliModel(cli)) return undefined;
  const { defaultProvider, defaultModel } = settings;
  if (!defaultProvider || !defaultModel || models.hasProvider(defaultProvider)) return undefined;
  return {
    reason: UNSUPPORTED_DEFAULT_REASON,
    message: `Saved default model ${defaultProvider}/${defaultModel} uses provider "${defaultProvider}", which is not available in this build. Update defaultProvider/defaultModel in settings.json, or choose another model.`,
  };
}

export function resolveStartupModel(models: ModelsApi, cli: CliOptions, settings: Settings, scope: readonly ScopedModel[] = []): StartupChoice {
  if (hasCliModel(cli)) {
    if (cli.provider && !models.hasProvider(cli.provider)) {
      return {
        error: `Unknown provider "${cli.provider}" (${optionName(cli, "--provider", "the provider option")}).${providerMeant(models.providers(), cli.provider)} Known providers: ${models.providers().join(", ")}.`,
      };
    }
    const match = resolveModelPattern(models, cli.provider, cli.model ?? "");
    if (match) return { model: match.model, ...(match.thinkingLevel ? { thinkingLevel: match.thinkingLevel } : {}), ...(match.warning ? { warning: match.warning } : {}) };
    return { error: noModelMatches(models, `${optionName(cli, "--model", "the model option")} "${cli.model}"`, cli.model ?? "") };
  }
  // pi's order: the saved default when the scope holds it, else the first scoped model with a key.
  const inScope = scope.filter((entry) => models.isAvailable(entry.model));
  if (inScope.length > 0) {
    const saved = inScope.find((entry) => entry.model.provider === settings.defaultProvider && entry.model.id === settings.defaultModel);
    const pick = saved ?? inScope[0]!;
    return { model: pick.model, ...(pick.thinkingLevel ? { thinkingLevel: pick.thinkingLevel } : {}) };
  }
  return savedOrFirst(models, settings);
}

/**
 * `No model matches <what>. Closest: ...`. A models.json that failed validation (the likely
 * reason a model of it is missing) was reported on stderr just before: not repeated here.
 */
export function noModelMatches(models: ModelsApi, what: string, pattern: string): string {
  return `No model matches ${what}.${closestHint(closestModels(models.all(), splitThinking(pattern).pattern))}`;
}

/**
 * The saved default when it exists and is available, else the first available model. A saved
 * default without a key (or an address variable) is said so (a warning), never replaced in
 * silence; with no other model to use it stays chosen, so a prompt fails naming what is missing.
 */
function savedOrFirst(models: ModelsApi, settings: Settings): StartupChoice {
  const { defaultProvider, defaultModel } = settings;
  if (defaultProvider && defaultModel) {
    const model = models.find(defaultProvider, defaultModel);
    if (model && models.isAvailable(model)) return { model };
    if (model) {
      const first = models.available().find((m) => models.authStatus(m.provider).source !== "none");
      const missing = `The default model ${defaultProvider}/${defaultModel} (settings defaultProvider/defaultModel) ${whyUnavailable(models, model)}`;
      return first ? { model: first, warning: `${missing} Using ${first.provider}/${first.id} instead.` } : { model, warning: missing };
    }
  }
  if (defaultProvider && !defaultModel) {
    const model = models.modelsOf(defaultProvider).find((m) => models.isAvailable(m));
    if (model) return { model };
  }
  // Keyless offline providers (replay) are available but never chosen unless asked for.
  const first = models.available().find((m) => models.authStatus(m.provider).source !== "none");
  return first ? { model: first } : {};
}

/** "has no API key. Set ..." or "is unavailable. <provider> needs CLOUDFLARE_ACCOUNT_ID ...": what keeps a catalog model unavailable. */
function whyUnavailable(models: ModelsApi, model: Model): string {
  if (!models.authStatus(model.provider).configured) {
    const info = models.providerInfo(model.provider);
    return `has no API key. ${keyHowTo(model.provider, info?.envKey, info?.login)}`;
  }
  return `is unavailable. ${needsAddressVariables(model.provider, models.missingAddressVariables(model))}`;
}
