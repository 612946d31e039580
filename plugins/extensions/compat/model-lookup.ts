/**
 * pi's model lookups for extensions, answered by Atomic's own `--model` / `--models` rules over
 * the running agent's catalog (`models`): `provider/id`, a bare id or a fragment of an id or
 * name, an optional `:<thinking>` suffix; a known provider with an unknown id gives that id with
 * the provider's first model's settings, and a warning. pi's `modelRuntime` argument is accepted
 * for its signature; the catalog is always the running agent's (what `ctx.modelRegistry` shows).
 */
import type { Model, ThinkingLevel } from "../../../lib/llm/index.js";
import { type ModelsApi, resolveModelPattern, resolveScope, type ScopedModel } from "../../models/api.js";

export interface ResolveCliModelResult {
  model: Model | undefined;
  thinkingLevel?: ThinkingLevel;
  warning: string | undefined;
  /** Set (and `model` undefined) when nothing can be used. */
  error: string | undefined;
}

export interface ResolveCliModelOptions {
  cliProvider?: string;
  cliModel?: string;
  cliThinking?: ThinkingLevel;
  inlineApiKey?: boolean;
  modelRuntime?: unknown;
}

export interface ModelScopeDiagnostic {
  type: "warning";
  code: "no-match" | "invalid-thinking-level" | "ambiguous";
  message: string;
  pattern: string;
}

export interface ResolveModelScopeResult {
  scopedModels: ScopedModel[];
  diagnostics: ModelScopeDiagnostic[];
}

const failed = (error: string): ResolveCliModelResult => ({ model: undefined, warning: undefined, error });

/** The model `--provider` / `--model` would choose (nothing asked: nothing chosen, no error). */
export function resolveCliModelWith(models: ModelsApi, options: ResolveCliModelOptions): ResolveCliModelResult {
  const { cliProvider, cliModel, cliThinking } = options;
  if (!cliModel) return { model: undefined, warning: undefined, error: undefined };
  if (models.providers().length === 0) return failed("No models available: no provider is registered (add one in models.json or from an extension).");
  const provider = cliProvider ? models.providers().find((name) => name.toLowerCase() === cliProvider.toLowerCase()) : undefined;
  if (cliProvider && !provider) return failed(`Unknown provider "${cliProvider}". Run atomic --list-models to see the providers and models.`);
  const match = resolveModelPattern(models, provider, cliModel);
  if (!match) return failed(`Model "${cliModel}" not found. Run atomic --list-models to see the models.`);
  // A custom id asked for with a thinking level must be able to think.
  const thinking = cliThinking ?? match.thinkingLevel;
  const model = match.warning && thinking && thinking !== "off" ? { ...match.model, reasoning: true } : match.model;
  return { model, ...(match.thinkingLevel ? { thinkingLevel: match.thinkingLevel } : {}), warning: match.warning, error: undefined };
}

/** The models `--models` patterns name, each once, with a `no-match` warning for a pattern that names none. */
export async function resolveModelScopeWith(models: ModelsApi, patterns: string[]): Promise<ResolveModelScopeResult> {
  const { entries, unmatched } = resolveScope(models, patterns);
  return {
    scopedModels: entries,
    diagnostics: unmatched.map((pattern) => ({ type: "warning", code: "no-match", message: `No models match pattern "${pattern}"`, pattern })),
  };
}
