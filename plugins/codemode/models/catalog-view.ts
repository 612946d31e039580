/**
 * The model catalog as scripts list it: chat models from the registry (type "chat"; listed, never
 * run from scripts) and the classifier and image models of the typed catalog, each with what a
 * request to it needs: the address (models.json's base URL for its provider wins, as in pi) and
 * the session's credential for its provider.
 */
import type { Model } from "../../../lib/llm/index.js";
import { readTypedCatalog, type TypedModel } from "../../../lib/model-catalog/typed.js";
import type { ModelsApi } from "../../models/api.js";
import { DECISIONS_API } from "./decisions.js";
import { asModel } from "./wire-common.js";
import type { ModelInfo, ModelType } from "./types.js";

export interface Credentials {
  apiKey?: string;
  headers: Record<string, string>;
  baseUrl: string;
}

export class ModelCatalogView {
  readonly #models: ModelsApi;
  readonly #env: Readonly<Record<string, string | undefined>>;
  #typed: Promise<{ models: TypedModel[]; envKeys: Map<string, string> }> | undefined;

  constructor(models: ModelsApi, env: Readonly<Record<string, string | undefined>>) {
    this.#models = models;
    this.#env = env;
  }

  async list(type: ModelType, provider?: string): Promise<ModelInfo[]> {
    if (type === "chat")
      return this.#models
        .all()
        .filter((model) => provider === undefined || model.provider === provider)
        .map(chatInfo);
    return (await this.#typedOf(type, provider)).map((model) => this.#typedInfo(model));
  }

  async available(type: ModelType, provider?: string): Promise<ModelInfo[]> {
    if (type === "chat")
      return this.#models
        .available()
        .filter((model) => provider === undefined || model.provider === provider)
        .map(chatInfo);
    const typed = await this.#typedOf(type, provider);
    const verdicts = new Map<string, boolean>();
    const usable = (model: TypedModel) => {
      const key = `${model.provider}\0${model.api}\0${model.baseUrl}`;
      let verdict = verdicts.get(key);
      if (verdict === undefined) verdicts.set(key, (verdict = this.#usable(model)));
      return verdict;
    };
    return typed.filter(usable).map((model) => this.#typedInfo(model));
  }

  async find(type: ModelType, provider: string, id: string): Promise<ModelInfo | undefined> {
    if (type === "chat") {
      const model = this.#models.find(provider, id);
      return model ? chatInfo(model) : undefined;
    }
    const model = await this.typed(type, provider, id);
    return model ? this.#typedInfo(model) : undefined;
  }

  /** The typed entry a call runs, with models.json's base URL for its provider. */
  async typed(type: Exclude<ModelType, "chat">, provider: string, id: string): Promise<TypedModel | undefined> {
    const model = (await this.#load()).models.find((entry) => entry.type === type && entry.provider === provider && entry.id === id);
    if (!model) return undefined;
    const baseUrl = this.#models.baseUrlOverride(provider);
    return baseUrl ? { ...model, baseUrl } : model;
  }

  /** The session's credential for the model's provider: the registry's (key, login, headers, address) where it knows the provider. */
  async credentials(model: TypedModel, signal: AbortSignal): Promise<Credentials> {
    if (this.#models.hasProvider(model.provider) && this.#models.requestCredentials) {
      const granted = await this.#models.requestCredentials(asModel(model), signal);
      return { ...(granted.apiKey ? { apiKey: granted.apiKey } : {}), headers: granted.headers ?? {}, baseUrl: granted.baseUrl ?? model.baseUrl };
    }
    const envKey = (await this.#load()).envKeys.get(model.provider);
    const apiKey = (await this.#models.apiKey(model.provider, signal)) ?? (envKey ? this.#env[envKey] : undefined);
    return { ...(apiKey ? { apiKey } : {}), headers: {}, baseUrl: model.baseUrl };
  }

  #usable(model: TypedModel): boolean {
    // The Decisions API takes API keys only: a ChatGPT login does not reach it.
    if (model.api === DECISIONS_API && this.#models.usesLogin(model.provider)) return false;
    // The registry fills its providers' `{VARIABLE}` addresses (Cloudflare's account id): one set nowhere fails every call.
    if (this.#models.hasProvider(model.provider) && this.#models.missingAddressVariables(model).length > 0) return false;
    if (this.#models.authStatus(model.provider).configured) return true;
    const envKey = this.#typedEnvKey(model.provider);
    return envKey !== undefined && Boolean(this.#env[envKey]);
  }

  #envKeys: Map<string, string> | undefined;
  #typedEnvKey(provider: string): string | undefined {
    return this.#envKeys?.get(provider);
  }

  async #typedOf(type: Exclude<ModelType, "chat">, provider?: string): Promise<TypedModel[]> {
    const { models } = await this.#load();
    const overrides = new Map<string, string | undefined>();
    return models
      .filter((model) => model.type === type && (provider === undefined || model.provider === provider))
      .map((model) => {
        if (!overrides.has(model.provider)) overrides.set(model.provider, this.#models.baseUrlOverride(model.provider));
        const baseUrl = overrides.get(model.provider);
        return baseUrl ? { ...model, baseUrl } : model;
      });
  }

  /** The entry as pi's catalog has it (its field order, price tiers under \`cost\`). */
  #typedInfo(model: TypedModel): ModelInfo {
    const { type, id, name, api, provider, baseUrl, input, output, cost, costTiers, contextWindow, compat, inputLimits } = model;
    const tiers = costTiers?.map((tier) => ({ inputTokensAbove: tier.aboveInputTokens, ...tier.cost }));
    return {
      type,
      id,
      name,
      api,
      provider,
      baseUrl,
      input: [...input],
      ...(output ? { output: [...output] } : {}),
      cost: { ...cost, ...(tiers ? { tiers } : {}) },
      ...(contextWindow !== undefined ? { contextWindow } : {}),
      ...(compat ? { compat } : {}),
      ...(inputLimits ? { inputLimits } : {}),
    };
  }

  #load(): Promise<{ models: TypedModel[]; envKeys: Map<string, string> }> {
    this.#typed ??= readTypedCatalog().then((files) => {
      const envKeys = new Map(files.flatMap((file) => (file.envKey ? [[file.provider, file.envKey] as const] : [])));
      this.#envKeys = envKeys;
      return { models: files.flatMap((file) => file.models.map((model) => ({ ...model, provider: file.provider }))), envKeys };
    });
    return this.#typed;
  }
}

/** A registry model for scripts: typed "chat", without `headers` (models.json's may carry credentials). */
function chatInfo(model: Model): ModelInfo {
  const { headers: _headers, ...info } = model as Model & { headers?: unknown };
  return { type: "chat", ...info } as ModelInfo;
}
