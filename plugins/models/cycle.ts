/**
 * What `cycle_model` moves through: the scope's available models (credentials, a complete address) when a scope is set
 * (`--models`, `enabledModels`), else every available model except the offline replay ones,
 * which join only when the current model is one of them (docs/decisions.md).
 */
import type { Model, ThinkingLevel } from "../../lib/llm/index.js";
import type { ModelsApi } from "./api.js";
import type { ScopedModel } from "./scope.js";

export interface CycleCandidate {
  model: Model;
  thinkingLevel?: ThinkingLevel;
}

/**
 * What `get_available_models` lists: the available models, without the offline replay ones
 * unless one is current or the scope (`--models`, `enabledModels`) names one (docs/decisions.md, The offline default: a client
 * choosing "another model" from the list must never land on a cassette).
 */
export function listedModels(models: ModelsApi, current: Model | null, scope: readonly ScopedModel[]): Model[] {
  const offline = (model: Model) => models.authStatus(model.provider).source === "none";
  const inUse = (current !== null && offline(current)) || scope.some((entry) => offline(entry.model));
  return models.available().filter((model) => inUse || !offline(model));
}

export function cycleCandidates(models: ModelsApi, current: Model | null, scope: readonly ScopedModel[]): { candidates: CycleCandidate[]; scoped: boolean } {
  if (scope.length > 0) return { candidates: scope.filter((entry) => models.isAvailable(entry.model)), scoped: true };
  const offline = (model: Model) => models.authStatus(model.provider).source === "none";
  const includeOffline = current !== null && offline(current);
  return {
    candidates: models
      .available()
      .filter((model) => includeOffline || !offline(model))
      .map((model) => ({ model })),
    scoped: false,
  };
}

/** The next candidate after `current` (wrapping); the first (or last, backward) when it is not in the list. */
export function nextCandidate(candidates: readonly CycleCandidate[], current: Model | null, direction: "forward" | "backward"): CycleCandidate {
  const index = current ? candidates.findIndex((entry) => entry.model.provider === current.provider && entry.model.id === current.id) : -1;
  if (index < 0) return candidates[direction === "backward" ? candidates.length - 1 : 0]!;
  const step = direction === "backward" ? -1 : 1;
  return candidates[(index + step + candidates.length) % candidates.length]!;
}
