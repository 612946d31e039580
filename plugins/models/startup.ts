/**
 * Which model a fresh process (or a replaced session) starts with: CLI `--provider`/`--model`
 * first, then the saved defaults, then the first available model. Also detects the spec's
 * "unsupported saved default provider" condition, which blocks prompts instead of falling back.
 */
import type { CliOptions, Model, Settings, ThinkingLevel } from "../../kernel/index.js";
import type { ModelsApi } from "./api.js";
import { resolveModelPattern } from "./resolve.js";

export const UNSUPPORTED_DEFAULT_ERROR =
  "Configured default model is unavailable or unsupported. Update defaultProvider/defaultModel or use /model.";
export const UNSUPPORTED_DEFAULT_REASON = "configured-provider-unsupported";

export interface StartupChoice {
  model?: Model;
  thinkingLevel?: ThinkingLevel;
  warning?: string;
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
    message: `Saved default model ${defaultProvider}/${defaultModel} uses provider "${defaultProvider}", which is not available in this build. Update defaultProvider/defaultModel or use /model.`,
  };
}

export function resolveStartupModel(models: ModelsApi, cli: CliOptions, settings: Settings): StartupChoice {
  if (hasCliModel(cli)) {
    const match = resolveModelPattern(models, cli.provider, cli.model ?? "");
    if (match) return { model: match.model, ...(match.thinkingLevel ? { thinkingLevel: match.thinkingLevel } : {}), ...(match.warning ? { warning: match.warning } : {}) };
    const asked = [cli.provider, cli.model].filter(Boolean).join("/");
    const fallback = savedOrFirst(models, settings);
    return { ...fallback, warning: `No model matches "${asked}"${fallback.model ? `; using ${fallback.model.provider}/${fallback.model.id}` : ""}.` };
  }
  return savedOrFirst(models, settings);
}

/** The saved default when it exists and has credentials, else the first available model. */
function savedOrFirst(models: ModelsApi, settings: Settings): StartupChoice {
  const { defaultProvider, defaultModel } = settings;
  if (defaultProvider && defaultModel) {
    const model = models.find(defaultProvider, defaultModel);
    if (model && models.authStatus(model.provider).configured) return { model };
  }
  if (defaultProvider && !defaultModel) {
    const model = models.available().find((m) => m.provider === defaultProvider);
    if (model) return { model };
  }
  // Keyless offline providers (replay) are available but never chosen unless asked for.
  const first = models.available().find((m) => models.authStatus(m.provider).source !== "none");
  return first ? { model: first } : {};
}
