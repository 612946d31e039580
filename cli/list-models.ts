/**
 * `atomic --list-models [pattern]`: the catalog as a table (provider, model, context window,
 * output limit, reasoning, images, where the provider's credential comes from, or the variable
 * that would give it, and the address variables still unset), from the booted host's `models`
 * service. Every word of the pattern must appear in `provider/id name`.
 */
import { closestHint, closestModels } from "../lib/closest/models.js";
import type { Model } from "../lib/llm/index.js";
import type { AuthStatus, ModelsApi } from "../plugins/models/api.js";

export function modelListing(models: ModelsApi, pattern: string | true): { text: string; count: number } {
  const words = pattern === true ? [] : pattern.toLowerCase().split(/\s+/).filter(Boolean);
  const rows = models.all().filter((model) => {
    const haystack = `${model.provider}/${model.id} ${model.name}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
  if (rows.length === 0) return { text: "", count: 0 };
  const table = [
    ["provider", "model", "context", "max-out", "thinking", "images", "credentials"],
    ...rows.map((model: Model) => [
      model.provider,
      model.id,
      tokens(model.contextWindow),
      tokens(model.maxTokens),
      model.reasoning ? "yes" : "no",
      model.input.includes("image") ? "yes" : "no",
      credentials(
        models.authStatus(model.provider),
        models.providerInfo(model.provider)?.envKey,
        models.providerInfo(model.provider)?.login,
        models.missingAddressVariables(model),
      ),
    ]),
  ];
  const widths = table[0]!.map((_, column) => Math.max(...table.map((row) => row[column]!.length)));
  const text = table.map((row) => row.map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column]!))).join("  ")).join("\n") + "\n";
  return { text, count: rows.length };
}

/** The error for a pattern that lists nothing: the nearest models by name, as --model names them. */
export function noListingMatches(models: ModelsApi, pattern: string): string {
  return `No models match "${pattern}".${closestHint(closestModels(models.all(), pattern, 3, true))}`;
}

/**
 * Where the key comes from, never the key; for a provider without one, the variable that would
 * give it. `login`: the provider takes `atomic login` (said when it has no key variable to name).
 * `unsetAddress`: the base URL's `{VARIABLE}`s set nowhere (`; needs CLOUDFLARE_ACCOUNT_ID`), which
 * keep the model unavailable even with a key.
 */
export function credentials(status: AuthStatus, envKey?: string, login = false, unsetAddress: readonly string[] = []): string {
  const key = keySource(status, envKey, login);
  return unsetAddress.length > 0 ? `${key}; needs ${unsetAddress.join(", ")}` : key;
}

/** The address variables unset for any of the provider's models, each once. */
export function providerAddressGaps(models: ModelsApi, provider: string): string[] {
  return [...new Set(models.modelsOf(provider).flatMap((model) => models.missingAddressVariables(model)))];
}

function keySource(status: AuthStatus, envKey: string | undefined, login: boolean): string {
  if (!status.configured) return envKey ? `none (${envKey})` : login ? "none (atomic login)" : "none";
  switch (status.source) {
    case "none":
      return "not needed";
    case "environment":
      return `env ${status.label}`;
    case "runtime":
      return "--api-key";
    default:
      return status.label ?? status.source ?? "yes";
  }
}

/** 200000 -> 200K, 1000000 -> 1M, 1048576 -> 1.0M: pi's format, so the two listings compare line by line. */
export function tokens(count: number): string {
  if (count >= 1_000_000) return scaled(count / 1_000_000, "M");
  if (count >= 1_000) return scaled(count / 1_000, "K");
  return String(count);
}

function scaled(value: number, unit: string): string {
  return value % 1 === 0 ? `${value}${unit}` : `${value.toFixed(1)}${unit}`;
}
