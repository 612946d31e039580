/**
 * `atomic-agent/provider-kit/adapter`: the parts a provider adapter uses per request. Kept
 * apart from the toolkit's entry so a provider plugin loads them with its adapter, lazily.
 */
export { providerStream, ABORTED_MESSAGE, errorText, type ProviderBody, type ProviderCall, type ProviderYield, type ProviderStreamOptions } from "./provider-stream.js";
export { AssistantStreamBuilder, parseToolArguments, type TokenCounts } from "./stream-builder.js";
export { prepareHistory, textOf, imagesOf, fitToolCallId, stripLoneSurrogates, defaultMaxTokens, isSameModel, IMAGE_OMITTED, type HistoryOptions } from "./history.js";
export { StreamingJson } from "./streaming-json.js";
