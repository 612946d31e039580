/**
 * The model catalog by type, as codemode scripts and extensions list it: chat models from the
 * registry (type "chat") and the classifier and image models of the typed catalog, each with what
 * a request to it needs: the address (models.json's base URL for its provider wins, as in pi) and
 * the session's credential for its provider. Synchronous (pi's registry lists typed models
 * synchronously): the typed catalog is read on the first typed lookup, never at startup.
 */
import type { Model } from "../llm/index.js";
import { typedCatalog, type TypedModel } from "../model-catalog/typed.js";
import type { ProviderModelsApi } from "../provider-kit/index.js";
import { DECISIONS_API, MODEL_TYPES, type ModelInfo, type ModelType } from "./types.js";

/** What the view reads of the model registry (the `models` service satisfies it). */
export interface TypedModelsRegistry extends Pick<ProviderModelsApi, "apiKey" | "requestCredentials"> {
  all(): Model[];
  available(): Model[];
  find(provider: string, id: string): Model | undefined;
  hasProvider(provider: string): boolean;
  baseUrlOverride(provider: string): string | undefined;
  authStatus(provider: string): { configured: boolean };
  usesLogin(provider: string): boolean;
  missingAddressVariables(model: Pick<Model, "provider" | "id" | "baseUrl">): string[];
  providerInfo?(provider: string): { envKey?: string } | undefined;
  /** The credential side read with a call's variables first (pi's `env` option). */
  withEnv?(env: Readonly<Record<string, string>>): Pick<TypedModelsRegistry, "apiKey" | "authStatus" | "missingAddressVariables" | "requestCredentials">;
}

export type TypedType = Exclude<ModelType, "chat">;

export interface Credentials {
  apiKey?: string;
  headers: Record<string, string>;
  baseUrl: string;
}

interface Loaded {
  models: TypedModel[];
  envKeys: Map<string, string>;
}

export class ModelCatalogView {
  readonly #models: TypedModelsRegistry;
  readonly #env: Readonly<Record<string, string | undefined>>;
  #typed: Loaded | undefined;

  constructor(models: TypedModelsRegistry, env: Readonly<Record<string, string | undefined>>) {
    this.#models = models;
    this.#env = env;
  }

  list(type: ModelType, provider?: string): ModelInfo[] {
    if (type === "chat") return chatOf(this.#models.all(), provider);
    return this.#typedOf(type, provider).map(typedInfo);
  }

  available(type: ModelType, provider?: string): ModelInfo[] {
    if (type === "chat") return chatOf(this.#models.available(), provider);
    const verdicts = new Map<string, boolean>();
    const usable = (model: TypedModel) => {
      const key = `${model.provider}\0${model.api}\0${model.baseUrl}`;
      let verdict = verdicts.get(key);
      if (verdict === undefined) verdicts.set(key, (verdict = this.unavailableReason(model) === undefined));
      return verdict;
    };
    return this.#typedOf(type, provider).filter(usable).map(typedInfo);
  }

  find(type: ModelType, provider: string, id: string): ModelInfo | undefined {
    if (type === "chat") {
      const model = this.#models.find(provider, id);
      return model ? chatInfo(model) : undefined;
    }
    const model = this.typed(type, provider, id);
    return model ? typedInfo(model) : undefined;
  }

  /** The typed entry a call runs, with models.json's base URL for its provider. */
  typed(type: TypedType, provider: string, id: string): TypedModel | undefined {
    const model = this.#load().models.find((entry) => entry.type === type && entry.provider === provider && entry.id === id);
    if (!model) return undefined;
    const baseUrl = this.#models.baseUrlOverride(provider);
    return baseUrl ? { ...model, baseUrl } : model;
  }

  /** Of what other type `provider`/`id` is, when it is not of `type` (a chat model passed to classify). */
  otherType(type: ModelType, provider: string, id: string): ModelType | undefined {
    return MODEL_TYPES.find((other) => other !== type && this.find(other, provider, id) !== undefined);
  }

  /**
   * Why a call to the model would fail for want of a credential or an address; undefined when it
   * can be made. A call may bring its own key (`keyGiven`) and variables (`env`, over the environment).
   */
  unavailableReason(model: TypedModel, call: { keyGiven?: boolean; env?: Readonly<Record<string, string>> } = {}): string | undefined {
    const creds = this.#withEnv(call.env);
    if (!call.keyGiven && model.api === DECISIONS_API && this.#models.usesLogin(model.provider))
      return `OpenAI's Decisions API takes an API key, and ${model.provider} is used through a login (set an API key for it)`;
    // The registry fills its providers' `{VARIABLE}` addresses (Cloudflare's account id): one set nowhere fails every call.
    if (this.#models.hasProvider(model.provider)) {
      const missing = creds.missingAddressVariables(model);
      if (missing.length > 0) return `its address needs ${missing.join(" and ")}, which ${missing.length > 1 ? "are" : "is"} not set`;
    }
    if (call.keyGiven || creds.authStatus(model.provider).configured) return undefined;
    const envKey = this.#load().envKeys.get(model.provider) ?? this.#models.providerInfo?.(model.provider)?.envKey;
    if (envKey && (call.env?.[envKey] ?? this.#env[envKey])) return undefined;
    return `provider ${model.provider} has no credential${envKey ? ` (set ${envKey}, or store a key with \`atomic login ${model.provider}\`)` : ""}`;
  }

  /** The session's credential for the model's provider: the registry's (key, login, headers, address) where it knows the provider; `env` read first. */
  async credentials(model: TypedModel, signal: AbortSignal, env?: Readonly<Record<string, string>>): Promise<Credentials> {
    const creds = this.#withEnv(env);
    if (this.#models.hasProvider(model.provider) && creds.requestCredentials) {
      const granted = await creds.requestCredentials(asModel(model), signal);
      return { ...(granted.apiKey ? { apiKey: granted.apiKey } : {}), headers: granted.headers ?? {}, baseUrl: granted.baseUrl ?? model.baseUrl };
    }
    const envKey = this.#load().envKeys.get(model.provider);
    const apiKey = (await creds.apiKey(model.provider, signal)) ?? (envKey ? (env?.[envKey] ?? this.#env[envKey]) : undefined);
    return { ...(apiKey ? { apiKey } : {}), headers: {}, baseUrl: model.baseUrl };
  }

  /** The registry's credential side, through the caller's variables when there are some. */
  #withEnv(env: Readonly<Record<string, string>> | undefined): Pick<TypedModelsRegistry, "apiKey" | "authStatus" | "missingAddressVariables" | "requestCredentials"> {
    return env && this.#models.withEnv ? this.#models.withEnv(env) : this.#models;
  }

  #typedOf(type: TypedType, provider?: string): TypedModel[] {
    const overrides = new Map<string, string | undefined>();
    return this.#load()
      .models.filter((model) => model.type === type && (provider === undefined || model.provider === provider))
      .map((model) => {
        if (!overrides.has(model.provider)) overrides.set(model.provider, this.#models.baseUrlOverride(model.provider));
        const baseUrl = overrides.get(model.provider);
        return baseUrl ? { ...model, baseUrl } : model;
      });
  }

  #load(): Loaded {
    if (this.#typed) return this.#typed;
    const files = typedCatalog();
    const envKeys = new Map(files.flatMap((file) => (file.envKey ? [[file.provider, file.envKey] as const] : [])));
    this.#typed = { models: files.flatMap((file) => file.models.map((model) => ({ ...model, provider: file.provider }))), envKeys };
    return this.#typed;
  }
}

/** The entry as pi's catalog has it (its field order, price tiers under `cost`). */
function typedInfo(model: TypedModel): ModelInfo {
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

/** The chat models of `provider` (all when undefined) among `models`, as typed-model infos. */
function chatOf(models: readonly Model[], provider: string | undefined): ModelInfo[] {
  return models.filter((model) => provider === undefined || model.provider === provider).map(chatInfo);
}

/** A registry model typed "chat", without `headers` (models.json's may carry credentials). */
function chatInfo(model: Model): ModelInfo {
  const { headers: _headers, ...info } = model as Model & { headers?: unknown };
  return { type: "chat", ...info } as ModelInfo;
}

/** A typed entry as the registry's credential lookup takes a model. */
function asModel(model: TypedModel): Model {
  return { ...model, reasoning: false, contextWindow: model.contextWindow ?? 0, maxTokens: 0 } as unknown as Model;
}
