/**
 * `--model` pattern resolution: `provider/id`, a bare id, or a fuzzy fragment of an id or name,
 * with an optional `:<thinking>` suffix. Available candidates (credentials, a complete address) win ties, and an alias
 * (`claude-sonnet-4-5`) beats a dated snapshot (`claude-sonnet-4-5-20250929`).
 */
import { THINKING_LEVELS, type Model, type ThinkingLevel } from "../../lib/llm/index.js";
import type { ModelsApi } from "./api.js";

export interface PatternMatch {
  model: Model;
  thinkingLevel?: ThinkingLevel;
  /** Set when the match is a guess the user should know about. */
  warning?: string;
}

const DATED = /-\d{8}$/;

/** `pattern:high` -> pattern + level, only when the suffix is a real level. */
export function splitThinking(pattern: string): { pattern: string; thinkingLevel?: ThinkingLevel; invalidSuffix?: string } {
  const at = pattern.lastIndexOf(":");
  if (at < 0) return { pattern };
  const suffix = pattern.slice(at + 1);
  if ((THINKING_LEVELS as readonly string[]).includes(suffix)) return { pattern: pattern.slice(0, at), thinkingLevel: suffix as ThinkingLevel };
  return { pattern, invalidSuffix: suffix };
}

/**
 * Resolves a CLI model pattern. The full string is tried first (ids such as `llama3:8b` contain
 * colons); only then is a trailing `:<level>` split off.
 */
export function resolveModelPattern(models: ModelsApi, provider: string | undefined, pattern: string): PatternMatch | undefined {
  const direct = matchModel(models, provider, pattern);
  if (direct) return { model: direct };
  const split = splitThinking(pattern);
  if (split.thinkingLevel) {
    const model = matchModel(models, provider, split.pattern);
    if (model) return { model, thinkingLevel: split.thinkingLevel };
  }
  return cloneForUnknownId(models, provider, split.thinkingLevel ? split.pattern : pattern, split.thinkingLevel);
}

/** Exact `provider/id`, then exact id, then a substring of id or name. */
export function matchModel(models: ModelsApi, provider: string | undefined, pattern: string): Model | undefined {
  let id = pattern.trim();
  const slash = id.indexOf("/");
  if (slash > 0 && models.hasProvider(id.slice(0, slash)) && (!provider || provider === id.slice(0, slash))) {
    provider = id.slice(0, slash);
    id = id.slice(slash + 1);
  }
  const lower = id.toLowerCase();
  const withKey = (list: Model[]) => new Set(list.filter((m) => models.isAvailable(m)));
  // A bare id: only the catalogs that list it are built (a fuzzy pattern needs them all).
  if (!provider && id !== "") {
    const exact = models.modelsWithId(id);
    if (exact.length > 0) return preferAvailable(exact, withKey(exact))[0];
  }
  // One provider's models when the pattern names it: only that catalog is built.
  const candidates = provider ? models.modelsOf(provider) : models.all();
  const available = withKey(candidates);
  if (candidates.length === 0) return undefined;
  if (id === "") return preferAvailable(candidates, available)[0];

  const exact = candidates.filter((m) => m.id.toLowerCase() === lower);
  if (exact.length > 0) return preferAvailable(exact, available)[0];

  const fuzzy = candidates.filter((m) => m.id.toLowerCase().includes(lower) || m.name.toLowerCase().includes(lower));
  if (fuzzy.length === 0) return undefined;
  const ranked = preferAvailable(fuzzy, available);
  const best = ranked.filter((m) => available.has(m) === available.has(ranked[0]!));
  // Catalogs list a family's newest model first ("sonnet": Sonnet 5.5 before Sonnet 5).
  const aliases = best.filter((m) => !DATED.test(m.id));
  if (aliases.length > 0) return aliases[0];
  // Only dated snapshots: the newest one.
  return best.sort((a, b) => b.id.localeCompare(a.id))[0];
}

function preferAvailable(models: Model[], available: Set<Model>): Model[] {
  return [...models.filter((m) => available.has(m)), ...models.filter((m) => !available.has(m))];
}

/** A known provider with an unknown id: the provider's default model under the new id. */
function cloneForUnknownId(models: ModelsApi, provider: string | undefined, pattern: string, thinkingLevel?: ThinkingLevel): PatternMatch | undefined {
  let id = pattern.trim();
  const slash = id.indexOf("/");
  if (!provider && slash > 0 && models.hasProvider(id.slice(0, slash))) {
    provider = id.slice(0, slash);
    id = id.slice(slash + 1);
  }
  if (!provider || id === "" || !models.hasProvider(provider)) return undefined;
  const template = models.modelsOf(provider)[0];
  if (!template) return undefined;
  return {
    model: { ...template, id, name: id },
    ...(thinkingLevel ? { thinkingLevel } : {}),
    warning: `Model "${id}" is not in the ${provider} catalog; using it with the settings of ${template.id}.`,
  };
}
