/**
 * Local OpenAI-compatible servers list their own models: `GET <baseUrl>/models` (the OpenAI
 * shape, `{"data":[{"id":...}]}`), asked once per start, all servers at once, each bounded by a
 * timeout. The context window comes from the server where it says (vLLM's `max_model_len`,
 * llama.cpp's `meta.n_ctx_train`, LM Studio's and others' `context_length`), else pi's default
 * for a model declared by id. The base URL: models.json's, else the provider's environment
 * variable, else the server's usual local address.
 */
import { expandModel, type CatalogEntry, type CatalogProvider } from "../../lib/model-catalog/index.js";
import { httpFetch } from "../../lib/provider-kit/http-fetch.js";
import type { ModelsApi } from "../models/api.js";
import type { LocalServer } from "./local.js";

const WANTED_TIMEOUT_MS = 3_000;
/** Listing every server: one that is not running refuses at once; a silent address is not waited for. */
const QUIET_TIMEOUT_MS = 1_000;
const MAX_MODELS = 1_000;
const DEFAULT_WINDOW = 128_000;
const DEFAULT_MAX_TOKENS = 16_384;

export async function discoverLocalModels(servers: readonly LocalServer[], models: ModelsApi, env: NodeJS.ProcessEnv, warn: (message: string) => void): Promise<void> {
  await Promise.all(
    servers.map(async ({ provider, wanted }) => {
      const baseUrl = localBaseUrl(provider, models, env);
      try {
        const key = await models.apiKey(provider.provider);
        const entries = await listModels(baseUrl, key, wanted ? WANTED_TIMEOUT_MS : QUIET_TIMEOUT_MS);
        const header = { ...provider, baseUrl };
        models.registerProvider({ name: provider.provider, api: provider.api, baseUrl, models: entries.map((entry) => expandModel(header, entry)) });
        if (entries.length === 0 && wanted) warn(`${provider.name} at ${baseUrl} lists no models (load or pull one first).`);
      } catch (error) {
        if (wanted)
          warn(
            `${provider.name}: cannot list the models at ${baseUrl}/models (${(error as Error).message}). Is the server running? Set ${provider.local!.baseUrlEnv} or providers.${provider.provider}.baseUrl in models.json to its address.`,
          );
      }
    }),
  );
}

/** models.json's base URL (the registration carries it), else the variable's, else the default. */
export function localBaseUrl(provider: CatalogProvider, models: ModelsApi, env: NodeJS.ProcessEnv): string {
  const registered = models.providerInfo(provider.provider)?.baseUrl;
  if (registered && registered !== provider.baseUrl) return registered;
  const fromEnv = env[provider.local!.baseUrlEnv]?.trim();
  return fromEnv ? withApiPath(fromEnv) : provider.baseUrl;
}

/** `http://gpu-box:11434` means the server's OpenAI API: `/v1` is added to a URL without a path. */
export function withApiPath(url: string): string {
  const trimmed = url.replace(/\/+$/, "");
  try {
    return new URL(trimmed).pathname === "/" ? `${trimmed}/v1` : trimmed;
  } catch {
    return trimmed;
  }
}

async function listModels(baseUrl: string, key: string | undefined, timeoutMs: number): Promise<CatalogEntry[]> {
  const response = await httpFetch(`${baseUrl}/models`, {
    headers: { accept: "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`HTTP ${response.status}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error("the answer is not JSON");
  }
  const data = (json as { data?: unknown }).data;
  if (!Array.isArray(data)) throw new Error('the answer has no "data" list');
  const seen = new Set<string>();
  const entries: CatalogEntry[] = [];
  for (const item of data.slice(0, MAX_MODELS)) {
    const id = (item as { id?: unknown })?.id;
    if (typeof id !== "string" || id === "" || seen.has(id)) continue;
    seen.add(id);
    const contextWindow = windowOf(item as Record<string, unknown>) ?? DEFAULT_WINDOW;
    entries.push({
      id,
      name: id,
      reasoning: false,
      input: ["text"],
      cost: { input: 0, output: 0 },
      contextWindow,
      maxTokens: Math.min(DEFAULT_MAX_TOKENS, contextWindow),
    });
  }
  return entries;
}

function windowOf(item: Record<string, unknown>): number | undefined {
  const meta = item.meta as Record<string, unknown> | undefined;
  for (const value of [item.max_model_len, item.context_length, item.max_context_length, meta?.n_ctx_train, meta?.n_ctx]) {
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
  }
  return undefined;
}
