/**
 * Anthropic Messages streaming through `@anthropic-ai/sdk` (this module is loaded on first use),
 * its body read by the provider kit's SSE reader, mapped onto the unified events. Content
 * blocks are keyed by Anthropic's block index.
 */
// The SDK's resource-less client and the one resource used: the full `Anthropic` client builds
// every API resource (beta, files, organization, ...), so the bundle would load ~3x the code.
import { BaseAnthropic } from "@anthropic-ai/sdk/client";
import { APIError } from "@anthropic-ai/sdk/core/error";
import { Messages } from "@anthropic-ai/sdk/resources/messages";
import type { AssistantMessageEvent } from "../../lib/llm/index.js";
import { splitBaseUrl } from "../../lib/provider-kit/base-url.js";
import { deferringWebBodies } from "../../lib/provider-kit/fetch-response.js";
import type { ProviderCall, ProviderYield } from "../../lib/provider-kit/provider-stream.js";
import type { AssistantStreamBuilder } from "../../lib/provider-kit/stream-builder.js";
import { sseBatches, type SseMessage } from "../../lib/provider-kit/sse.js";
import { asClaudeCode, fromClaudeCodeName, isSubscriptionToken, subscriptionHeaders } from "./oauth.js";
import { buildAnthropicRequest, type AnthropicRequestOptions } from "./request.js";

/** The raw stream events we read; anything else (pings, server tools) is skipped. */
interface RawEvent {
  type: string;
  index?: number;
  message?: { usage?: RawUsage };
  content_block?: { type: string; id?: string; name?: string; text?: string; thinking?: string; data?: string };
  delta?: { type?: string; text?: string; thinking?: string; signature?: string; partial_json?: string; stop_reason?: string | null };
  usage?: RawUsage;
}
interface RawUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  /** How the cache writes split by lifetime (1-hour writes cost more). */
  cache_creation?: { ephemeral_5m_input_tokens?: number | null; ephemeral_1h_input_tokens?: number | null } | null;
}

const STOP: Record<string, "stop" | "length" | "toolUse"> = {
  end_turn: "stop",
  pause_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  model_context_window_exceeded: "length",
  tool_use: "toolUse",
};

/** The client an adapter sends through: Anthropic's own API (default), or a cloud route (Bedrock). */
export type AnthropicClientFactory = (call: ProviderCall, headers: Record<string, string | null>) => BaseAnthropic | Promise<BaseAnthropic>;

export async function* streamAnthropic(
  call: ProviderCall,
  options: AnthropicRequestOptions = {},
  clientFor: AnthropicClientFactory = anthropicClient,
): AsyncGenerator<ProviderYield, void, undefined> {
  const { params, betas } = buildAnthropicRequest(call.request, options);
  // A Claude Pro/Max login's token: the request goes as Claude Code's (oauth.ts).
  const subscription = isSubscriptionToken(call.request.model, call.apiKey);
  if (subscription) asClaudeCode(params, betas);
  const client = await clientFor(call, {
    ...(subscription ? subscriptionHeaders() : {}),
    ...(betas.length > 0 ? { "anthropic-beta": betas.join(",") } : {}),
    ...endpointHeaders(call),
    ...call.headers,
  });
  const messages = new Messages(client);
  const response = await messages.create(params as never, { signal: call.signal }).asResponse();
  const b = call.builder;
  yield b.start();
  const tools = call.request.context.tools;
  const state: StreamState = { stopped: false, toolName: subscription ? (name) => fromClaudeCodeName(name, tools) : (name) => name };
  // One lazy batch per network read: mapped as the consumer walks it (see ProviderYield).
  for await (const events of rawEventBatches(response)) yield mapEvents(b, events, state);
  const { stopped, stopReason } = state;
  if (call.signal.aborted) return; // the frame reports the abort
  if (!stopped) throw new Error("Anthropic stream ended without message_stop");
  yield* b.endAll();
  const reason = stopReason ? STOP[stopReason] : undefined;
  if (reason) yield b.done(reason);
  else if (stopReason === "refusal") yield b.error("The model refused to respond (stop_reason: refusal)");
  else yield b.error(`Anthropic stream ended with unexpected stop_reason: ${stopReason ?? "none"}`);
}

function anthropicClient(call: ProviderCall, headers: Record<string, string | null>): BaseAnthropic {
  const { baseURL, query } = splitBaseUrl(call.baseUrl);
  const subscription = isSubscriptionToken(call.request.model, call.apiKey);
  return new BaseAnthropic({
    // A subscription token goes as a bearer token, never as x-api-key.
    apiKey: subscription ? null : call.apiKey,
    // Never let ANTHROPIC_AUTH_TOKEN or a credentials profile from the environment replace our key.
    authToken: subscription ? call.apiKey : null,
    baseURL,
    ...(query ? { defaultQuery: query } : {}),
    maxRetries: 0,
    // The SDK reads every response's `body` for a clean-up backstop; the SSE reader takes the
    // Node stream under it, so a web stream made for the look would load web streams for nothing.
    fetch: deferringWebBodies(call.fetch),
    defaultHeaders: headers,
  });
}

/**
 * What an Anthropic-compatible endpoint needs that the SDK does not send. The SDK sends the key as
 * `Authorization: Bearer` with its own API version; compatible services (MiniMax, Kimi, gateways,
 * a hand-written models.json provider) read `x-api-key` and take `2023-06-01`, as pi sends them.
 * So every `anthropic-messages` provider but Anthropic itself gets those unless its compat says
 * otherwise (`apiKeyHeader: "authorization"` keeps the bearer header; `anthropicVersion`).
 */
export function endpointHeaders(call: Pick<ProviderCall, "request" | "apiKey">): Record<string, string | null> {
  const { compat = {}, provider, api } = call.request.model;
  const compatible = api === ANTHROPIC_MESSAGES && provider !== "anthropic";
  const keyHeader = compat.apiKeyHeader ?? (compatible ? "x-api-key" : undefined);
  const version = typeof compat.anthropicVersion === "string" && compat.anthropicVersion !== "" ? compat.anthropicVersion : compatible ? COMPATIBLE_VERSION : undefined;
  const out: Record<string, string | null> = {};
  if (keyHeader === "x-api-key" && call.apiKey) {
    out["x-api-key"] = call.apiKey;
    out.Authorization = null;
  }
  if (version) out["anthropic-version"] = version;
  return out;
}

const ANTHROPIC_MESSAGES = "anthropic-messages";
/** The API version Anthropic-compatible services accept (the first one, which pi's SDK sends). */
const COMPATIBLE_VERSION = "2023-06-01";

interface StreamState {
  stopped: boolean;
  stopReason?: string | null;
  /** A tool name in the answer as the session knows it (a subscription request renames tools). */
  toolName: (name: string) => string;
}

/** The unified events of one batch, mapped as they are walked; the stop reason goes to `state`. */
function* mapEvents(b: AssistantStreamBuilder, events: Iterable<RawEvent>, state: StreamState): Generator<AssistantMessageEvent, void, undefined> {
  for (const event of events) {
    const index = event.index ?? -1;
    switch (event.type) {
      case "message_start":
        if (event.message?.usage) b.setUsage(usageOf(event.message.usage));
        break;
      case "content_block_start": {
        const block = event.content_block;
        if (block?.type === "text") {
          yield b.textStart(index);
          if (block.text) yield b.textDelta(index, block.text);
        } else if (block?.type === "thinking") {
          yield b.thinkingStart(index);
          if (block.thinking) yield b.thinkingDelta(index, block.thinking);
        } else if (block?.type === "redacted_thinking") {
          yield b.thinkingStart(index, { thinking: "[Reasoning redacted]", redacted: true, thinkingSignature: block.data ?? "" });
        } else if (block?.type === "tool_use") {
          yield b.toolCallStart(index, { id: block.id ?? "", name: state.toolName(block.name ?? "") });
        }
        break;
      }
      case "content_block_delta": {
        const delta = event.delta;
        if (!delta || !b.isOpen(index)) break;
        if (delta.type === "text_delta" && delta.text) yield b.textDelta(index, delta.text);
        else if (delta.type === "thinking_delta" && delta.thinking) yield b.thinkingDelta(index, delta.thinking);
        else if (delta.type === "signature_delta" && delta.signature) b.setSignature(index, delta.signature, "append");
        else if (delta.type === "input_json_delta" && delta.partial_json) yield b.toolCallDelta(index, delta.partial_json);
        break;
      }
      case "content_block_stop":
        if (b.isOpen(index)) yield b.end(index);
        break;
      case "message_delta":
        if (event.delta?.stop_reason) state.stopReason = event.delta.stop_reason;
        if (event.usage) b.setUsage(usageOf(event.usage));
        break;
      case "message_stop":
        state.stopped = true;
        break;
    }
  }
}

/** message_delta repeats only the counts that changed; null or missing ones keep their value. */
function usageOf(usage: RawUsage) {
  const pick = (value: number | null | undefined) => (typeof value === "number" ? value : undefined);
  return {
    input: pick(usage.input_tokens),
    output: pick(usage.output_tokens),
    cacheRead: pick(usage.cache_read_input_tokens),
    cacheWrite: pick(usage.cache_creation_input_tokens),
    cacheWrite1h: pick(usage.cache_creation?.ephemeral_1h_input_tokens),
  };
}

/**
 * The stream's events, one lazy iterable per network read, each parsed as it is reached, as the
 * SDK's own stream gives them (pings and unnamed events skipped, an `error` event thrown as its
 * `APIError` where it comes), read by the provider kit's SSE reader (see sse.ts for why).
 */
async function* rawEventBatches(response: Response): AsyncGenerator<Iterable<RawEvent>, void, undefined> {
  for await (const messages of sseBatches(response)) yield rawEvents(messages, response.headers);
}

function* rawEvents(messages: readonly SseMessage[], headers: Headers): Generator<RawEvent, void, undefined> {
  for (const message of messages) {
    if (message.event === undefined || message.event === "ping") continue;
    if (message.event === "error") {
      const body = parsedOrText(message.data) as { error?: { type?: string } } | string;
      const type = typeof body === "object" ? body?.error?.type : undefined;
      throw new APIError(undefined, body as object, undefined, headers, type as never);
    }
    if (message.data) yield JSON.parse(message.data) as RawEvent;
  }
}

function parsedOrText(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}
