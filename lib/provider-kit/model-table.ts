/**
 * A provider's model table as compact data: one row per model, expanded into full `Model`
 * objects that share the provider's name, API and base URL. Row order is catalog order: the
 * first row is the provider's default.
 */
import type { Model, ThinkingLevel } from "../../kernel/index.js";

export interface ModelRow {
  id: string;
  name: string;
  /** $ per million tokens: input, output, cache read, cache write. */
  cost: [input: number, output: number, cacheRead: number, cacheWrite: number];
  contextWindow: number;
  maxTokens: number;
  /** Default true. */
  reasoning?: boolean;
  /** Text input only (default: text and images). */
  textOnly?: boolean;
  thinkingLevels?: ThinkingLevel[];
  compat?: Record<string, unknown>;
}

export function modelTable(provider: string, api: string, baseUrl: string, rows: readonly ModelRow[]): Model[] {
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    api,
    provider,
    baseUrl,
    reasoning: row.reasoning ?? true,
    input: row.textOnly ? ["text"] : ["text", "image"],
    cost: { input: row.cost[0], output: row.cost[1], cacheRead: row.cost[2], cacheWrite: row.cost[3] },
    contextWindow: row.contextWindow,
    maxTokens: row.maxTokens,
    ...(row.thinkingLevels ? { thinkingLevels: [...row.thinkingLevels] } : {}),
    ...(row.compat ? { compat: { ...row.compat } } : {}),
  }));
}
