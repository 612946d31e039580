/**
 * pi 1.6's typed-model functions of `ctx.modelRegistry` (and of its `ModelRuntime`): chat,
 * classifier and image models listed by type, and `classify()` / `generateImages()` run on the
 * implementation codemode's `models` global uses (lib/typed-models). Lookups are synchronous, as
 * pi's are; the typed catalog is read on the first typed lookup and the wire code loads on the
 * first call. As in pi, the calls never reject: an unknown model, one of another type or one
 * whose provider cannot be reached is a result with `stopReason: "error"` and a message naming it,
 * and so is an option of the wrong type. pi's call options (`apiKey`, `headers`, `timeoutMs`,
 * `maxRetries`, `onPayload`, ...) are lib/typed-models/call-options.ts's.
 */
import type { Model } from "../../lib/llm/index.js";
import {
  callOptionsProblem,
  loadTypedCalls,
  ModelCatalogView,
  type ClassifierContext,
  type ClassifierResult,
  type ImagesContext,
  type ImagesResult,
  type ModelInfo,
  type ModelType,
  type TypedCallOptions,
  type TypedType,
} from "../../lib/typed-models/index.js";
import type { TypedModel } from "../../lib/model-catalog/typed.js";
import type { ModelsApi } from "../models/api.js";

/** pi's options of `getAvailableOfType` (`AuthOperationOptions`). */
export interface LookupOptions {
  signal?: AbortSignal;
}

export interface TypedModelFunctions {
  findOfType(type: ModelType, provider: string, modelId: string): Model | ModelInfo | undefined;
  getModelOfType(type: ModelType, provider: string, modelId: string): Model | ModelInfo | undefined;
  getModelsOfType(type: ModelType, provider?: string): readonly (Model | ModelInfo)[];
  getAvailableOfType(type: ModelType, provider?: string, options?: LookupOptions): Promise<readonly (Model | ModelInfo)[]>;
  classify(model: ModelRef, context: ClassifierContext, options?: TypedCallOptions): Promise<ClassifierResult>;
  generateImages(model: ModelRef, context: ImagesContext, options?: TypedCallOptions): Promise<ImagesResult>;
}

export type { TypedCallOptions };

/** A model as an extension passes it: what `getModelOfType()` returned, or any object naming `provider` and `id`. */
export type ModelRef = { provider: string; id: string; api?: string } | null | undefined;

const isTyped = (type: unknown): type is TypedType => type === "classifier" || type === "image";
/** One view per registry: the typed catalog is mapped once. */
const views = new WeakMap<ModelsApi, ModelCatalogView>();

export function typedModelFunctions(models: () => ModelsApi, env: () => Readonly<Record<string, string | undefined>>): TypedModelFunctions {
  const view = () => {
    const api = models();
    let found = views.get(api);
    if (!found) views.set(api, (found = new ModelCatalogView(api, env())));
    return found;
  };
  const inProvider = (provider: string | undefined) => (model: Model) => provider === undefined || model.provider === provider;
  const modelOfType = (type: ModelType, provider: string, modelId: string) =>
    type === "chat" ? models().find(provider, modelId) : isTyped(type) ? view().find(type, provider, modelId) : undefined;

  /** The catalog entry the call runs, or why there is none to run. */
  const resolve = (type: TypedType, model: ModelRef, options: TypedCallOptions | undefined): { model: TypedModel; error?: undefined } | { model?: undefined; error: string } => {
    const article = type === "image" ? "an" : "a";
    if (typeof model?.provider !== "string" || typeof model.id !== "string")
      return { error: `${article} ${type} model must name its provider and id (ctx.modelRegistry.getModelOfType("${type}", provider, id) returns one)` };
    const ref = `${model.provider}/${model.id}`;
    const resolved = view().typed(type, model.provider, model.id);
    if (!resolved) {
      const actual = view().otherType(type, model.provider, model.id);
      return {
        error: actual
          ? `"${ref}" is ${actual === "image" ? "an" : "a"} ${actual} model, not ${article} ${type} model`
          : `Unknown ${type} model "${ref}": ctx.modelRegistry.getModelsOfType("${type}") lists them`,
      };
    }
    // A key the caller passes stands in for the provider's credential, as in pi.
    const env = callEnv(options);
    const unavailable = view().unavailableReason(resolved, { keyGiven: options?.apiKey !== undefined, ...(env ? { env } : {}) });
    return unavailable ? { error: `${type === "image" ? "Image" : "Classifier"} model "${ref}" cannot be called: ${unavailable}` } : { model: resolved };
  };

  /** The checked options, the model to call and its credentials' reader, or why there is no call. */
  const prepare = (name: "classify" | "generateImages", type: TypedType, model: ModelRef, given: TypedCallOptions | undefined) => {
    const problem = callOptionsProblem(name, given);
    const target = problem ? { error: problem } : resolve(type, model, given);
    if (!target.model) return { error: target.error };
    const resolved = target.model;
    const signal = given?.signal ?? new AbortController().signal;
    const env = callEnv(given);
    return { model: resolved, credentials: () => view().credentials(resolved, signal, env), options: { ...given, signal } };
  };

  const failed = (model: ModelRef, errorMessage: string) => ({
    api: typeof model?.api === "string" ? model.api : "",
    provider: typeof model?.provider === "string" ? model.provider : "",
    model: typeof model?.id === "string" ? model.id : "",
    stopReason: "error" as const,
    timestamp: Date.now(),
    errorMessage,
  });

  return {
    findOfType: modelOfType,
    getModelOfType: modelOfType,
    getModelsOfType: (type, provider) => (type === "chat" ? models().all().filter(inProvider(provider)) : isTyped(type) ? view().list(type, provider) : []),
    async getAvailableOfType(type, provider, options) {
      // Availability is the credentials' of now: auth.json may have changed (a login in another process).
      await models().reloadCredentials();
      options?.signal?.throwIfAborted();
      return type === "chat" ? models().available().filter(inProvider(provider)) : isTyped(type) ? view().available(type, provider) : [];
    },
    async classify(model, context, options) {
      const call = prepare("classify", "classifier", model, options);
      if (!call.model) return { ...failed(model, call.error), answers: {} };
      const { classify } = await loadTypedCalls();
      return classify(call.model, context, call.credentials, call.options);
    },
    async generateImages(model, context, options) {
      const call = prepare("generateImages", "image", model, options);
      if (!call.model) return { ...failed(model, call.error), output: [] };
      const { generateImages } = await loadTypedCalls();
      return generateImages(call.model, context, call.credentials, call.options);
    },
  };
}

/** The set variables of a call's `env` (an unset one is no override), or undefined without one. */
function callEnv(options: TypedCallOptions | undefined): Record<string, string> | undefined {
  if (!options?.env) return undefined;
  return Object.fromEntries(Object.entries(options.env as Record<string, string | undefined>).filter((entry): entry is [string, string] => typeof entry[1] === "string"));
}
