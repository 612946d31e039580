/** The catalog entries nearest to a model name that matched nothing, for the errors that name them. */
import type { Model } from "../llm/index.js";
import { closest, nearestName } from "./index.js";

/**
 * How many edits a model name may be from the wanted one and still be suggested: a third of it.
 * Model ids are long paths (`accounts/fireworks/models/...`): at half the length, as for settings
 * keys, "nosuch-model" is six edits from "s/models/k" and every Fireworks model came back.
 */
export function modelSlipLimit(pattern: string): number {
  return Math.max(1, Math.floor(pattern.trim().length / 3));
}

/** Up to `limit` models as `provider/id`, nearest first (a slip inside the id counts least), ties in catalog order; none when nothing is close. */
export function closestModels(models: readonly Model[], pattern: string, limit = 3, withNames = false): string[] {
  const candidates = models.map((model) => ({
    name: `${model.provider}/${model.id}`,
    texts: withNames ? [model.id, `${model.provider}/${model.id}`, model.name] : [model.id, `${model.provider}/${model.id}`],
  }));
  return closest(candidates, pattern, { limit, maxDistance: modelSlipLimit(pattern) });
}

/** The end of a "no model matches" error: the close names, or that none is close and how to list them. */
export function closestHint(near: readonly string[]): string {
  if (near.length > 0) return ` Closest: ${near.join(", ")}. Run 'atomic --list-models' to see every model.`;
  return " No model name is close to it. Run 'atomic --list-models' to see every model, or 'atomic --list-models <search>' to search them.";
}

/**
 * Model families people name when they mean the provider that serves them first. Checked before
 * spelling: `grok` is one letter from `groq`, and a user who typed it wants xAI.
 */
const FAMILY_PROVIDERS: Readonly<Record<string, string>> = {
  claude: "anthropic",
  gpt: "openai",
  chatgpt: "openai",
  codex: "openai-codex",
  gemini: "google",
  grok: "xai",
  kimi: "moonshotai",
  glm: "zai",
  copilot: "github-copilot",
  bedrock: "amazon-bedrock",
  vertex: "google-vertex",
};

/** The known provider `wanted` means: the one serving the model family it names (`claude`: `anthropic`), else a slip of its name. */
export function providerNamed(known: readonly string[], wanted: string): string | undefined {
  const family = FAMILY_PROVIDERS[wanted.trim().toLowerCase()];
  return family && known.includes(family) ? family : nearestName(known, wanted);
}

/** ` Did you mean "xai"?` for a model family or a slip of a known provider's name, else "". */
export function providerMeant(known: readonly string[], wanted: string): string {
  const meant = providerNamed(known, wanted);
  return meant ? ` Did you mean "${meant}"?` : "";
}
