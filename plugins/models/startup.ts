/** Which model a fresh process starts with: CLI flags first, then saved defaults. */
import { THINKING_LEVELS, type CliOptions, type Model, type Settings, type ThinkingLevel } from "../../kernel/index.js";
import type { ModelsApi } from "./api.js";

export interface StartupChoice {
  model?: Model;
  thinkingLevel?: ThinkingLevel;
  warning?: string;
}

export function resolveStartupModel(models: ModelsApi, cli: CliOptions, settings: Settings): StartupChoice {
  if (cli.model || cli.provider) {
    const { pattern, thinkingLevel } = splitThinking(cli.model ?? "");
    const model = resolvePattern(models, cli.provider, pattern);
    if (!model) return { warning: `No model matches ${[cli.provider, cli.model].filter(Boolean).join("/")}` };
    return thinkingLevel ? { model, thinkingLevel } : { model };
  }
  if (settings.defaultProvider && settings.defaultModel) {
    const model = models.find(settings.defaultProvider, settings.defaultModel);
    if (model) return { model };
  }
  const first = models.available()[0];
  return first ? { model: first } : {};
}

/** `pattern:high` -> pattern + level, only when the suffix is a real level. */
export function splitThinking(pattern: string): { pattern: string; thinkingLevel?: ThinkingLevel } {
  const at = pattern.lastIndexOf(":");
  if (at < 0) return { pattern };
  const suffix = pattern.slice(at + 1) as ThinkingLevel;
  return THINKING_LEVELS.includes(suffix) ? { pattern: pattern.slice(0, at), thinkingLevel: suffix } : { pattern };
}

export function resolvePattern(models: ModelsApi, provider: string | undefined, pattern: string): Model | undefined {
  let candidates = models.all();
  let id = pattern;
  const slash = pattern.indexOf("/");
  if (!provider && slash > 0 && models.hasProvider(pattern.slice(0, slash))) {
    provider = pattern.slice(0, slash);
    id = pattern.slice(slash + 1);
  }
  if (provider) candidates = candidates.filter((m) => m.provider === provider);
  if (id === "") return candidates[0];
  const lower = id.toLowerCase();
  const exact = candidates.filter((m) => m.id.toLowerCase() === lower);
  if (exact.length === 1) return exact[0];
  const fuzzy = candidates.filter((m) => m.id.toLowerCase().includes(lower) || m.name.toLowerCase().includes(lower));
  return fuzzy[0];
}
