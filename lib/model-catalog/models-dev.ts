/**
 * A provider's catalog refreshed from the public models.dev catalog (`https://models.dev/api.json`:
 * `{ "<provider>": { "models": { "<id>": { name, reasoning, modalities, cost, limit, tool_call } } } }`,
 * read leniently: unknown fields are ignored, a model missing what the agent needs is skipped).
 * Prices follow the catalog; models it adds are appended with its limits; a model Atomic already
 * lists keeps its curated window, output limit, thinking levels and request quirks (those are
 * checked against the adapters, models.dev's are not), and a model the catalog no longer lists is
 * kept (a lagging or renamed entry must not remove a working model).
 */
import type { CatalogEntry, CatalogFile } from "./schema.js";

export interface RefreshResult {
  file: CatalogFile;
  added: string[];
  /** Models whose prices or name changed. */
  updated: string[];
}

/** The catalog's models for the agent: tool calling, text out, a context window. */
export function modelsDevEntries(provider: unknown, only?: RegExp): CatalogEntry[] {
  const models = (provider as { models?: unknown } | undefined)?.models;
  if (typeof models !== "object" || models === null) return [];
  const out: CatalogEntry[] = [];
  for (const [key, raw] of Object.entries(models as Record<string, unknown>)) {
    const entry = entryOf(key, raw);
    if (entry && (!only || only.test(entry.id))) out.push(entry);
  }
  return out;
}

export function refreshCatalog(shipped: CatalogFile, fetched: readonly CatalogEntry[], checked: string, url: string): RefreshResult {
  const byId = new Map(fetched.map((entry) => [entry.id, entry]));
  const added: string[] = [];
  const updated: string[] = [];
  const models = shipped.models.map((model) => {
    const fresh = byId.get(model.id);
    if (!fresh) return model;
    // A rate the public record does not give (often the cache prices) keeps the curated one.
    const next: CatalogEntry = { ...model, name: fresh.name, cost: { ...model.cost, ...fresh.cost }, ...(fresh.costTiers ? { costTiers: fresh.costTiers } : {}) };
    if (JSON.stringify([next.name, next.cost, next.costTiers]) !== JSON.stringify([model.name, model.cost, model.costTiers])) updated.push(model.id);
    return next;
  });
  const known = new Set(shipped.models.map((model) => model.id));
  for (const entry of fetched) {
    if (known.has(entry.id)) continue;
    models.push(entry);
    added.push(entry.id);
  }
  const file: CatalogFile = { ...shipped, source: { from: `models.dev (${url}), refreshing ${shipped.source.from} checked ${shipped.source.checked}`, checked }, models };
  return { file, added, updated };
}

function entryOf(key: string, raw: unknown): CatalogEntry | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const model = raw as Record<string, unknown>;
  const id = typeof model.id === "string" && model.id !== "" ? model.id : key;
  if (model.tool_call === false) return undefined;
  const modalities = model.modalities as { input?: unknown; output?: unknown } | undefined;
  const outputs = Array.isArray(modalities?.output) ? modalities.output : ["text"];
  if (!outputs.includes("text")) return undefined;
  const limit = model.limit as { context?: unknown; output?: unknown } | undefined;
  const contextWindow = positiveInt(limit?.context);
  if (!contextWindow) return undefined;
  const cost = costOf(model.cost);
  if (!cost) return undefined;
  const over = costOf((model.cost as Record<string, unknown> | undefined)?.context_over_200k);
  const reasoning = model.reasoning === true;
  return {
    id,
    name: typeof model.name === "string" && model.name !== "" ? model.name : id,
    reasoning,
    input: Array.isArray(modalities?.input) && modalities.input.includes("image") ? ["text", "image"] : ["text"],
    cost,
    ...(over && contextWindow > 200_000 ? { costTiers: [{ aboveInputTokens: 200_000, cost: over }] } : {}),
    contextWindow,
    maxTokens: Math.min(positiveInt(limit?.output) ?? 16_384, contextWindow),
  };
}

function costOf(raw: unknown): CatalogEntry["cost"] | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const cost = raw as Record<string, unknown>;
  const price = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : undefined);
  const input = price(cost.input);
  const output = price(cost.output);
  if (input === undefined || output === undefined) return undefined;
  const cacheRead = price(cost.cache_read);
  const cacheWrite = price(cost.cache_write);
  return { input, output, ...(cacheRead ? { cacheRead } : {}), ...(cacheWrite ? { cacheWrite } : {}) };
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}
