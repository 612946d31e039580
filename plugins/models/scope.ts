/**
 * The model scope (`--models`, setting `enabledModels`): the models `cycle_model` moves through.
 * A pattern is a glob (`anthropic/*`, `*sonnet*`, matched case-insensitively against `provider/id`
 * or the bare id) or a `--model` pattern, each with an optional `:<thinking>` suffix.
 */
import type { Model, ThinkingLevel } from "../../lib/llm/index.js";
import type { ModelsApi } from "./api.js";
import { matchModel, splitThinking } from "./resolve.js";

export interface ScopedModel {
  model: Model;
  /** Set when the pattern named a level: cycling to the model switches to it. */
  thinkingLevel?: ThinkingLevel;
}

export interface ResolvedScope {
  entries: ScopedModel[];
  /** Patterns that matched no model of any provider. */
  unmatched: string[];
}

const GLOB_CHARS = /[*?[]/;

/** `--models a,b` / `enabledModels` entries: trimmed, empty ones dropped. */
export function scopePatterns(source: string | readonly string[] | undefined): string[] {
  if (source === undefined) return [];
  const list = typeof source === "string" ? source.split(",") : source;
  return list.map((pattern) => pattern.trim()).filter((pattern) => pattern !== "");
}

/** Every model the patterns name, in pattern order, each once. Globs range over the whole catalog. */
export function resolveScope(models: ModelsApi, patterns: readonly string[]): ResolvedScope {
  const entries: ScopedModel[] = [];
  const unmatched: string[] = [];
  const add = (model: Model, thinkingLevel: ThinkingLevel | undefined) => {
    if (entries.some((entry) => entry.model.provider === model.provider && entry.model.id === model.id)) return;
    entries.push(thinkingLevel ? { model, thinkingLevel } : { model });
  };
  for (const pattern of patterns) {
    const { pattern: body, thinkingLevel } = splitThinking(pattern);
    if (GLOB_CHARS.test(body)) {
      const glob = globToRegExp(body);
      // `anthropic/*` names the provider, not OpenRouter's `anthropic/...` ids: a glob that starts
      // with a provider's name matches `provider/id` only.
      const slash = body.indexOf("/");
      const head = slash > 0 ? body.slice(0, slash) : "";
      const namesProvider = head !== "" && !GLOB_CHARS.test(head) && models.hasProvider(head);
      const matching = models.all().filter((m) => glob.test(`${m.provider}/${m.id}`) || (!namesProvider && glob.test(m.id)));
      if (matching.length === 0) unmatched.push(pattern);
      for (const model of matching) add(model, thinkingLevel);
      continue;
    }
    // The full pattern first: ids such as `llama3:8b` contain colons.
    const whole = matchModel(models, undefined, pattern);
    const model = whole ?? (thinkingLevel ? matchModel(models, undefined, body) : undefined);
    if (!model) unmatched.push(pattern);
    else add(model, whole ? undefined : thinkingLevel);
  }
  return { entries, unmatched };
}

/** `*` (not across `/`), `?` and `[...]` classes, case-insensitive, anchored. */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "[") {
      const end = glob.indexOf("]", i + 2);
      if (end < 0) {
        source += "\\[";
        continue;
      }
      const body = glob.slice(i + 1, end).replace(/\\/g, "\\\\");
      source += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
      i = end;
    } else source += char.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  return new RegExp(`^${source}$`, "i");
}
