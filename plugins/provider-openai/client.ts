/**
 * The SDK client both OpenAI adapters use: retries off (the retry plugin decides), no ambient
 * org/project headers, the frame's fetch; and the streamed payloads of its responses. Only the
 * adapters import this module, and they are loaded on first use, so the SDK is too.
 */
import OpenAI from "openai";
import { VERSION } from "openai/version";
import { splitBaseUrl } from "../../lib/provider-kit/base-url.js";
import type { ProviderCall } from "../../lib/provider-kit/provider-stream.js";
import { sseBatches, type SseMessage } from "../../lib/provider-kit/sse.js";

/** The SDK refuses to start without a key; a keyless local server gets a placeholder it never sees. */
const NO_KEY = "no-key";

export function openAiClient(call: ProviderCall): OpenAI {
  const template = /\{[a-z]+\}/.exec(call.baseUrl)?.[0];
  if (template) {
    const { provider, id } = call.request.model;
    throw new Error(`${provider}/${id} has no address: its base URL ${call.baseUrl} names ${template}. Set providers.${provider}.baseUrl (or this model's) in models.json.`);
  }
  const { baseURL, query } = splitBaseUrl(call.baseUrl);
  return new OpenAI({
    apiKey: call.apiKey || NO_KEY,
    baseURL,
    ...(query ? { defaultQuery: query } : {}),
    maxRetries: 0,
    fetch: call.fetch,
    // The environment's OPENAI_ORG_ID / OPENAI_PROJECT_ID would otherwise leak into every request.
    organization: null,
    project: null,
    // No key: no Authorization header at all (the placeholder is removed).
    defaultHeaders: { ...sdkUserAgent("OpenAI"), ...(call.apiKey ? {} : { Authorization: null }), ...call.headers },
  });
}

/**
 * The SDK's own User-Agent. It builds it from its class name, which the bundler renames (every
 * request said `$/JS <version>`); models.json headers still win.
 */
export function sdkUserAgent(client: "OpenAI" | "AzureOpenAI"): Record<string, string> {
  return { "User-Agent": `${client}/JS ${VERSION}` };
}

/**
 * The JSON payloads of a streamed response, one lazy iterable per network read (see sse.ts for
 * why batches): each payload is parsed as the consumer reaches it, so a read's parsed objects
 * are never all alive at once. What the SDK's own stream gives, with the same `[DONE]` end and
 * the same `APIError` for an `error` payload, thrown where it comes (what came before it is
 * delivered). Reads to the end of the body after `[DONE]`, as the SDK does, so the connection
 * can be reused.
 */
export async function* streamedPayloads<T>(response: Response): AsyncGenerator<Iterable<T>, void, undefined> {
  const state = { done: false };
  for await (const messages of sseBatches(response)) if (!state.done) yield payloads<T>(messages, state, response.headers);
}

function* payloads<T>(messages: readonly SseMessage[], state: { done: boolean }, headers: Headers): Generator<T, void, undefined> {
  for (const message of messages) {
    if (message.data.startsWith("[DONE]")) {
      state.done = true;
      return;
    }
    // Assistants API events: never asked for by these adapters.
    if (message.event?.startsWith("thread.")) continue;
    const payload = JSON.parse(message.data) as { error?: unknown } | null;
    if (payload?.error) throw new OpenAI.APIError(undefined, payload.error as object, undefined, headers);
    yield payload as T;
  }
}
