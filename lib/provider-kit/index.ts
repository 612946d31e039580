/**
 * The provider toolkit: what a provider plugin (built-in or a user's own) needs to turn a
 * vendor SDK stream into Atomic's unified assistant events.
 *
 * This entry holds the parts a plugin uses at load time, which stay small: API names, the
 * model-table helper, the error classification, the registry contract and the lazy stream
 * frame. The parts an adapter uses per request are in `atomic-agent/provider-kit/adapter`
 * (import it from the adapter module that the plugin imports lazily):
 *
 * - `provider-stream.js`: `providerStream` (the frame: key, headers, abort, one final event;
 *   an adapter yields events, or a lazy batch of them per network read: `ProviderYield`)
 * - `stream-builder.js`: `AssistantStreamBuilder` (the partial message and its events)
 * - `history.js`: `prepareHistory` and helpers (history as one model may see it)
 * - `streaming-json.js`: `StreamingJson` (tool-call arguments parsed as they stream)
 */
export * from "./api-names.js";
export { classifyError, isContextOverflow, isRetryableError, isSilentOverflow, type ErrorClass, type ErrorSource } from "./errors.js";
export { modelTable, type ModelRow } from "./model-table.js";
export { requestedRetryDelayMs, retryAfterFromHeaders, retryAfterNote } from "./retry-delay.js";
export { lazyProviderStream, providerModels, warmSdkWhenUsed } from "./provider-plugin.js";
export type { CatalogModel, CostTier, ProviderHttpOptions, ProviderModelsApi, ProviderRegistration, RequestCredentials } from "./types.js";
export { computeCost, priceFor } from "./pricing.js";
export type { ProviderBody, ProviderCall, ProviderStreamOptions, ProviderYield } from "./provider-stream.js";
export type { AssistantStreamBuilder, TokenCounts } from "./stream-builder.js";
export type { HistoryOptions } from "./history.js";
export { COMPAT_KEYS, PI_COMPAT_NOT_APPLIED, samplingParamsFor, levelsOfMap, mappedLevelValue, thinkingLevelMapOf, unknownCompatKeys, type ThinkingLevelMap } from "./compat.js";
export type { ProviderRequestHooks } from "./request-hooks.js";
export { presentHeaders, requestHeaders, type RequestHeaders } from "./request-headers.js";
