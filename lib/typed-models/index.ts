/**
 * Typed models (pi 1.6): classifiers and image generators beside the chat catalog, listed by
 * type and called on their own wire formats (TypeSafe's and Cloudflare's System One, OpenAI's
 * Decisions API, OpenRouter's image generation) with the session's credentials. Codemode's
 * `models` global and an extension's `ctx.modelRegistry` both run on this one implementation.
 * Nothing loads at startup: the typed catalog is read on the first typed lookup, and the wire
 * code with `loadTypedCalls()` on the first call.
 */
export { callOptionsProblem, type CallHeaders, type CallIdentity, type TypedCallOptions } from "./call-options.js";
export { ModelCatalogView, type Credentials, type TypedModelsRegistry, type TypedType } from "./catalog-view.js";
export {
  DECISIONS_API,
  MODEL_TYPES,
  type ClassifierAnswer,
  type ClassifierContext,
  type ClassifierQuestion,
  type ClassifierResult,
  type ImageBlock,
  type ImagesContext,
  type ImagesResult,
  type ModelInfo,
  type ModelType,
  type ModelUsage,
  type StopReason,
  type TextBlock,
} from "./types.js";

/** The calls (`classify`, `generateImages`) and their wire code, loaded on first use. */
export const loadTypedCalls = () => import("./calls.js");
