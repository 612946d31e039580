/**
 * The SDK client both OpenAI adapters use: retries off (the retry plugin decides), no ambient
 * org/project headers, the frame's fetch. Only the adapters import this module, and they are
 * loaded on first use, so the SDK is too.
 */
import OpenAI from "openai";
import { splitBaseUrl } from "../../lib/provider-kit/base-url.js";
import type { ProviderCall } from "../../lib/provider-kit/provider-stream.js";

export function openAiClient(call: ProviderCall): OpenAI {
  const { baseURL, query } = splitBaseUrl(call.baseUrl);
  return new OpenAI({
    apiKey: call.apiKey,
    baseURL,
    ...(query ? { defaultQuery: query } : {}),
    maxRetries: 0,
    fetch: call.fetch,
    // The environment's OPENAI_ORG_ID / OPENAI_PROJECT_ID would otherwise leak into every request.
    organization: null,
    project: null,
    defaultHeaders: call.headers,
  });
}
