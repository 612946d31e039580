/**
 * pi's `ModelRuntime` and `ModelRegistry` classes, as views of the running agent's catalog and
 * credentials (the `models` service) and its providers (the `agent` service): what an extension
 * reads (models, availability, auth status) and one-off calls. Atomic keeps one catalog per
 * agent, built from its own auth.json and models.json, so `ModelRuntime.create()` refuses options
 * that would build another one, and the operations that change the catalog or run a login are
 * refused with the Atomic way named; an extension changes providers with `pi.registerProvider`.
 */
import { join, resolve } from "node:path";
import type { AssistantMessage, Model } from "../../../lib/llm/index.js";
import type { AgentApi } from "../../agent/api.js";
import type { ModelsApi } from "../../models/api.js";
import type { Context, SimpleStreamOptions } from "../types/llm.js";
import type { ModelRegistryView } from "../types/context.js";
import { completeWith, modelRegistryView, streamWith } from "../views.js";
import { typedModelFunctions, type LookupOptions, type ModelRef, type TypedCallOptions } from "../typed-models.js";
import type { ClassifierContext, ImagesContext, ModelType } from "../../../lib/typed-models/index.js";

type Services = { models: (what: string) => ModelsApi; agent: (what: string) => AgentApi; env: (what: string) => Readonly<Record<string, string | undefined>>; agentDir: string };

/** Options of pi's `ModelRuntime.create`; Atomic honours only those that name its own files. */
export interface CreateModelRuntimeOptions {
  authPath?: string;
  modelsPath?: string | null;
  [option: string]: unknown;
}

const refuse = (what: string, instead: string) => () => {
  throw new Error(`${what} is not available in Atomic: ${instead}`);
};
const IGNORED = new Set(["signal", "refreshOnCreate", "allowModelNetwork", "modelRefreshTimeoutMs"]);
/** pi's runtime operations Atomic refuses, with what to do instead. */
const RUNTIME_ONLY = {
  getProviders: "Atomic's providers are plugins; list them with getRegisteredProviderIds()",
  getProvider: "Atomic's providers are plugins; list them with getRegisteredProviderIds()",
  getRegisteredProviderConfig: "Atomic's providers are plugins; list them with getRegisteredProviderIds()",
  getRegisteredNativeProvider: "Atomic's providers are plugins; list them with getRegisteredProviderIds()",
  getCompatibilityRequestConfig: "Atomic's providers apply models.json's compat settings themselves",
  getAuth: "use ctx.modelRegistry.getApiKeyAndHeaders(model)",
  checkAuth: "use hasConfiguredAuth(providerId) or getProviderAuthStatus(providerId)",
  removeRuntimeApiKey: "a runtime key lasts for the process",
  listCredentials: "run `atomic auth list`",
  login: "run `atomic login <provider>` (or the `login` RPC command)",
  logout: "run `atomic logout <provider>` (or the `logout_provider` RPC command)",
  refresh: "Atomic reads auth.json again before every prompt; models.json is read at startup",
  registerNativeProvider: "register providers with pi.registerProvider() from an extension",
  registerProvider: "register providers with pi.registerProvider() from an extension",
  unregisterProvider: "use pi.unregisterProvider() from an extension",
  registerVirtualModel: "register virtual models with pi.registerVirtualModel() from an extension",
  unregisterVirtualModel: "use pi.unregisterVirtualModel() from an extension",
  resolveModel: "virtual models resolve inside the agent's own turns",
  streamDeferred: "no provider in Atomic answers deferred requests",
  fetchDeferred: "no provider in Atomic answers deferred requests",
  cancelDeferred: "no provider in Atomic answers deferred requests",
} as const;
/** The registry methods that are runtime operations above. */
const REGISTRY_REFUSED = [
  "refresh",
  "getProvider",
  "registerProvider",
  "unregisterProvider",
  "registerVirtualModel",
  "unregisterVirtualModel",
  "getRegisteredProviderConfig",
  "getRegisteredNativeProvider",
] as const satisfies readonly (keyof typeof RUNTIME_ONLY)[];
type Refused<K extends string> = { [name in K]: (...args: unknown[]) => never };

const CREATED = Symbol("created by ModelRuntime.create");

/** The two classes, bound to the agent whose extension code is running. */
export function modelRuntimeClasses({ models, agent, env, agentDir }: Services) {
  const typed = typedModelFunctions(
    () => models("ModelRuntime"),
    () => env("ModelRuntime"),
  );
  class ModelRuntime {
    /** A view of the running agent's catalog; options naming other files (or stores) are refused. */
    static async create(options: CreateModelRuntimeOptions = {}): Promise<ModelRuntime> {
      for (const [option, value] of Object.entries(options)) {
        if (value === undefined || IGNORED.has(option)) continue;
        const own = option === "authPath" ? join(agentDir, "auth.json") : option === "modelsPath" ? join(agentDir, "models.json") : undefined;
        if (own && typeof value === "string" && resolve(value) === own) continue;
        throw new Error(
          `ModelRuntime.create({ ${option} }) is not supported in Atomic: the runtime is a view of the running agent's catalog (${agentDir}/auth.json and models.json)`,
        );
      }
      return new ModelRuntime(CREATED);
    }

    constructor(token?: unknown) {
      if (token !== CREATED) throw new Error("ModelRuntime: use `await ModelRuntime.create()`");
    }

    getModels(providerId?: string): readonly Model[] {
      const service = models("ModelRuntime.getModels()");
      return providerId === undefined ? service.all() : service.modelsOf(providerId);
    }
    getAllModels(providerId?: string): readonly Model[] {
      return this.getModels(providerId);
    }
    getModel(providerId: string, modelId: string): Model | undefined {
      return models("ModelRuntime.getModel()").find(providerId, modelId);
    }
    /** Chat, classifier and image models (lib/typed-models), as `ctx.modelRegistry` lists them. */
    getModelsOfType(type: ModelType, providerId?: string) {
      return typed.getModelsOfType(type, providerId);
    }
    getModelOfType(type: ModelType, providerId: string, modelId: string) {
      return typed.getModelOfType(type, providerId, modelId);
    }
    getAvailableSnapshot(): readonly Model[] {
      return models("ModelRuntime.getAvailableSnapshot()").available();
    }
    async getAvailable(providerId?: string): Promise<readonly Model[]> {
      await models("ModelRuntime.getAvailable()").reloadCredentials();
      return this.getAvailableSnapshot().filter((model) => providerId === undefined || model.provider === providerId);
    }
    getAllAvailable(providerId?: string): Promise<readonly Model[]> {
      return this.getAvailable(providerId);
    }
    getAvailableOfType(type: ModelType, providerId?: string, options?: LookupOptions) {
      return typed.getAvailableOfType(type, providerId, options);
    }
    classify(model: ModelRef, context: ClassifierContext, options?: TypedCallOptions) {
      return typed.classify(model, context, options);
    }
    generateImages(model: ModelRef, context: ImagesContext, options?: TypedCallOptions) {
      return typed.generateImages(model, context, options);
    }
    /** The models.json problem that keeps the catalog from loading, if any. */
    getError(): string | undefined {
      return models("ModelRuntime.getError()").diagnostics().modelsJson.error;
    }
    getRegisteredProviderIds(): readonly string[] {
      return models("ModelRuntime.getRegisteredProviderIds()").providers();
    }
    hasConfiguredAuth(providerId: string): boolean {
      return models("ModelRuntime.hasConfiguredAuth()").authStatus(providerId).configured;
    }
    getProviderAuthStatus(providerId: string) {
      return models("ModelRuntime.getProviderAuthStatus()").authStatus(providerId);
    }
    isUsingOAuth(providerId: string): boolean {
      return models("ModelRuntime.isUsingOAuth()").usesLogin(providerId);
    }
    isUsingSubscription(providerId: string): boolean {
      return this.isUsingOAuth(providerId);
    }
    /** A key for this process only, as `--api-key`: used first, never stored. */
    async setRuntimeApiKey(providerId: string, apiKey: string): Promise<void> {
      models("ModelRuntime.setRuntimeApiKey()").setRuntimeApiKey(providerId, apiKey);
    }
    async settleCredentialWrites(): Promise<void> {}
    complete(model: Model, context: Context, options?: SimpleStreamOptions): Promise<AssistantMessage> {
      return completeWith(agent("ModelRuntime.complete()"), model, context, options);
    }
    completeSimple(model: Model, context: Context, options?: SimpleStreamOptions): Promise<AssistantMessage> {
      return completeWith(agent("ModelRuntime.completeSimple()"), model, context, options);
    }
    stream(model: Model, context: Context, options?: SimpleStreamOptions) {
      return streamWith(agent("ModelRuntime.stream()"), model, context, options);
    }
    streamSimple(model: Model, context: Context, options?: SimpleStreamOptions) {
      return streamWith(agent("ModelRuntime.streamSimple()"), model, context, options);
    }
  }
  for (const [name, instead] of Object.entries(RUNTIME_ONLY)) Object.defineProperty(ModelRuntime.prototype, name, { value: refuse(`ModelRuntime.${name}()`, instead) });

  /** pi's registry over a runtime: here the same view extensions get as `ctx.modelRegistry`. */
  class ModelRegistry {
    constructor(runtime: RuntimeInstance) {
      if (!(runtime instanceof ModelRuntime)) throw new Error("ModelRegistry: pass the runtime `await ModelRuntime.create()` returns");
      Object.assign(
        this,
        modelRegistryView(
          () => models("ModelRegistry"),
          () => agent("ModelRegistry"),
          () => env("ModelRegistry"),
        ),
      );
    }
  }
  Object.defineProperty(ModelRegistry.prototype, "getRegisteredProviderIds", { value: () => models("ModelRegistry.getRegisteredProviderIds()").providers() });
  for (const name of REGISTRY_REFUSED) Object.defineProperty(ModelRegistry.prototype, name, { value: refuse(`ModelRegistry.${name}()`, RUNTIME_ONLY[name]) });
  Object.defineProperty(ModelRegistry.prototype, "getProviderAuth", { value: refuse("ModelRegistry.getProviderAuth()", "use getApiKeyAndHeaders(model)") });
  // The refused methods are on the prototypes (defined above); the types say so.
  type RuntimeInstance = ModelRuntime & Refused<keyof typeof RUNTIME_ONLY>;
  type RegistryInstance = ModelRegistryView & Refused<(typeof REGISTRY_REFUSED)[number] | "getProviderAuth"> & { getRegisteredProviderIds(): readonly string[] };
  return {
    ModelRuntime: ModelRuntime as unknown as { create(options?: CreateModelRuntimeOptions): Promise<RuntimeInstance>; new (token?: unknown): RuntimeInstance },
    ModelRegistry: ModelRegistry as unknown as new (runtime: RuntimeInstance) => RegistryInstance,
  };
}
