/**
 * Chat Completions streaming mapped onto the unified events. Chunks carry no block boundaries:
 * a text/thinking block ends when the other kind (or a tool call) starts; tool calls are keyed
 * by their `index` (a new id on the same index starts a new call); all close at the end.
 */
import type { AssistantMessageEvent } from "../../lib/llm/index.js";
import type { AssistantStreamBuilder } from "../../lib/provider-kit/stream-builder.js";
import type { ProviderCall, ProviderYield } from "../../lib/provider-kit/provider-stream.js";
import { completionsCompat } from "./completions-compat.js";
import { REASONING_FIELDS, buildChatRequest } from "./completions-request.js";
import { openAiClient, streamedPayloads } from "./client.js";

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}
interface ReasoningDetail {
  type?: string;
  id?: string;
  data?: string;
}
interface Chunk {
  choices?: {
    delta?: Record<string, unknown> & { content?: string | ContentChunk[] | null; tool_calls?: ChunkToolCall[]; reasoning_details?: ReasoningDetail[] };
    finish_reason?: string | null;
  }[];
  usage?: ChunkUsage | null;
}

type ContentChunk = string | { type?: string; text?: string; thinking?: { type?: string; text?: string }[] };

interface ChunkUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  /** DeepSeek reports cache hits here. */
  prompt_cache_hit_tokens?: number;
  /** Kimi and Moonshot report cache hits at the top level of the final usage chunk. */
  cached_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; cache_write_tokens?: number } | null;
  /** OpenRouter: what the call was billed, and how (bring-your-own-key calls add the upstream's cost). */
  cost?: number;
  is_byok?: boolean;
  cost_details?: { upstream_inference_cost?: number | null; upstream_inference_prompt_cost?: number; upstream_inference_completions_cost?: number } | null;
}

const FINISH: Record<string, "stop" | "length" | "toolUse"> = { stop: "stop", end: "stop", length: "length", tool_calls: "toolUse", function_call: "toolUse" };

export async function* streamChatCompletions(call: ProviderCall): AsyncGenerator<ProviderYield, void, undefined> {
  const compat = completionsCompat(call.request.model);
  const sessionId = call.request.options.sessionId;
  const affinity = compat.sendSessionAffinityHeaders && sessionId ? { session_id: sessionId, "x-session-affinity": sessionId } : undefined;
  yield* streamChat(call, buildChatRequest(call.request, compat), affinity);
}

/** Streams one Chat Completions request body (OpenAI-compatible hosts, Mistral's own endpoint). */
export async function* streamChat(call: ProviderCall, params: Record<string, unknown>, headers?: Record<string, string>): AsyncGenerator<ProviderYield, void, undefined> {
  const client = openAiClient(call);
  const response = await client.chat.completions.create(params as never, { signal: call.signal, ...(headers ? { headers } : {}) }).asResponse();
  const b = call.builder;
  yield b.start();
  const blocks = new ChunkBlocks(b, isOpenRouter(call.request.model));
  // One lazy batch per network read: mapped as the consumer walks it (see ProviderYield).
  for await (const batch of streamedPayloads<Chunk>(response)) yield blocks.chunkEvents(batch);
  if (call.signal.aborted) return;
  yield blocks.finalEvents();
}

/** The first reasoning field that holds text, if any. */
function reasoningField(delta: Record<string, unknown>): (typeof REASONING_FIELDS)[number] | undefined {
  for (const name of REASONING_FIELDS) {
    const value = delta[name];
    if (typeof value === "string" && value !== "") return name;
  }
  return undefined;
}

/**
 * Token counts: the prompt includes cache reads and writes. `cached_tokens` counts reads only
 * (OpenAI's and OpenRouter's documented meaning); a gateway that reports writes says so apart, in
 * `cache_write_tokens`.
 */
function usageOf(usage: ChunkUsage) {
  const writes = usage.prompt_tokens_details?.cache_write_tokens ?? 0;
  const reads = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? usage.cached_tokens ?? 0;
  return { input: Math.max(0, (usage.prompt_tokens ?? 0) - reads - writes), output: usage.completion_tokens ?? 0, cacheRead: reads, cacheWrite: writes };
}

function isOpenRouter(model: { provider: string; baseUrl: string }): boolean {
  return model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai");
}

const validCost = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;

/**
 * What OpenRouter billed for the call, when its usage says so completely: `cost` for a call on
 * OpenRouter's credits; `cost` plus the upstream's inference cost for a bring-your-own-key call.
 */
export function openRouterBilled(usage: ChunkUsage): number | undefined {
  if (!validCost(usage.cost)) return undefined;
  if (usage.is_byok === false) return usage.cost;
  if (usage.is_byok !== true || !usage.cost_details) return undefined;
  const details = usage.cost_details;
  let upstream = details.upstream_inference_cost;
  if (upstream === null || upstream === undefined) {
    if (!validCost(details.upstream_inference_prompt_cost) || !validCost(details.upstream_inference_completions_cost)) return undefined;
    upstream = details.upstream_inference_prompt_cost + details.upstream_inference_completions_cost;
  }
  return validCost(upstream) ? usage.cost + upstream : undefined;
}

/** Tracks which block each chunk continues. */
class ChunkBlocks {
  readonly #b: AssistantStreamBuilder;
  #prose: { kind: "text" | "thinking"; key: string } | undefined;
  readonly #tools = new Map<number, { key: string; id: string; name: string }>();
  #count = 0;
  #finish: string | null | undefined;

  readonly #billed: boolean;

  constructor(builder: AssistantStreamBuilder, billedByProvider: boolean) {
    this.#b = builder;
    this.#billed = billedByProvider;
  }

  *chunkEvents(chunks: Iterable<Chunk>): Generator<AssistantMessageEvent, void, undefined> {
    for (const chunk of chunks) {
      const continued = this.#continuation(chunk);
      if (continued) yield continued;
      else yield* this.#events(chunk);
    }
  }

  /**
   * The event of a chunk that only continues the open text or thinking block (almost every
   * chunk of an answer), else undefined. Kept apart from the general case so the loop that runs
   * per chunk stays small (V8 optimises it early and cheaply).
   */
  #continuation(chunk: Chunk): AssistantMessageEvent | undefined {
    const prose = this.#prose;
    if (!prose || chunk.usage) return undefined;
    const choice = chunk.choices?.[0];
    if (!choice || choice.finish_reason) return undefined;
    const delta = choice.delta;
    if (!delta || delta.tool_calls || delta.reasoning_details) return undefined;
    const field = reasoningField(delta);
    const content = typeof delta.content === "string" && delta.content !== "" ? delta.content : undefined;
    if (prose.kind === "text") return content !== undefined && !field ? this.#b.textDelta(prose.key, content) : undefined;
    return field && content === undefined ? this.#b.thinkingDelta(prose.key, delta[field] as string) : undefined;
  }

  *#events(chunk: Chunk): Generator<AssistantMessageEvent, void, undefined> {
    const b = this.#b;
    if (chunk.usage) {
      const billed = this.#billed ? openRouterBilled(chunk.usage) : undefined;
      b.setUsage({ ...usageOf(chunk.usage), ...(billed !== undefined ? { billedTotal: billed } : {}) });
    }
    const choice = chunk.choices?.[0];
    if (!choice) return;
    const delta = choice.delta ?? {};
    const field = reasoningField(delta);
    if (field) yield* this.thinking(delta[field] as string, field);
    if (typeof delta.content === "string" && delta.content !== "") yield* this.text(delta.content);
    else if (Array.isArray(delta.content)) yield* this.contentChunks(delta.content as ContentChunk[]);
    if (delta.tool_calls) for (const toolCall of delta.tool_calls) yield* this.toolCall(toolCall);
    if (delta.reasoning_details) for (const detail of delta.reasoning_details) this.reasoningDetail(detail);
    if (choice.finish_reason) this.#finish = choice.finish_reason;
  }

  /** The open blocks' ends and the final event, once the body is read. */
  *finalEvents(): Generator<AssistantMessageEvent, void, undefined> {
    const b = this.#b;
    this.fillMissingIds();
    yield* b.endAll();
    // No finish_reason at all is a clean end (some servers omit it); one we do not know
    // (content_filter, network_error, ...) means the answer did not finish properly.
    const finish = this.#finish;
    const reason = finish ? FINISH[finish] : "stop";
    if (!reason) {
      yield b.error(`Provider finish_reason: ${finish}`);
      return;
    }
    yield b.done(reason === "stop" && b.hasToolCalls() ? "toolUse" : reason);
  }

  *text(delta: string): Generator<AssistantMessageEvent> {
    yield* this.#openProse("text");
    yield this.#b.textDelta(this.#prose!.key, delta);
  }

  /** Mistral streams content as chunks: `{type:"text",text}` and `{type:"thinking",thinking:[{type:"text",text}]}`. */
  *contentChunks(chunks: ContentChunk[]): Generator<AssistantMessageEvent> {
    for (const chunk of chunks) {
      if (typeof chunk === "string") {
        if (chunk !== "") yield* this.text(chunk);
      } else if (chunk.type === "text" && chunk.text) yield* this.text(chunk.text);
      else if (chunk.type === "thinking") {
        const text = (chunk.thinking ?? []).map((part) => part.text ?? "").join("");
        if (text !== "") yield* this.thinking(text, "thinking");
      }
    }
  }

  *thinking(delta: string, field: string): Generator<AssistantMessageEvent> {
    const opened = this.#prose?.kind !== "thinking";
    yield* this.#openProse("thinking");
    // The signature names the field, so replay sends the thinking back where it came from.
    if (opened) this.#b.setSignature(this.#prose!.key, field);
    yield this.#b.thinkingDelta(this.#prose!.key, delta);
  }

  *toolCall(fragment: ChunkToolCall): Generator<AssistantMessageEvent> {
    const index = fragment.index ?? 0;
    let open = this.#tools.get(index);
    if (open && fragment.id && open.id && fragment.id !== open.id) {
      yield this.#b.end(open.key);
      open = undefined;
    }
    if (!open) {
      yield* this.#closeProse();
      open = { key: `tool${this.#count++}`, id: fragment.id ?? "", name: fragment.function?.name ?? "" };
      this.#tools.set(index, open);
      yield this.#b.toolCallStart(open.key, { id: open.id, name: open.name });
    } else {
      // Some compatible servers send the id or name on a later fragment.
      if (fragment.id && !open.id) {
        open.id = fragment.id;
        this.#b.patchToolCall(open.key, { id: fragment.id });
      }
      if (fragment.function?.name && !open.name) {
        open.name = fragment.function.name;
        this.#b.patchToolCall(open.key, { name: open.name });
      }
    }
    if (fragment.function?.arguments) yield this.#b.toolCallDelta(open.key, fragment.function.arguments);
  }

  /** OpenRouter's encrypted reasoning for a tool call: kept as the call's signature, for replay. */
  reasoningDetail(detail: ReasoningDetail): void {
    if (detail.type !== "reasoning.encrypted" || !detail.id || !detail.data) return;
    const call = this.#b.partial.content.find((block) => block.type === "toolCall" && block.id === detail.id);
    if (call?.type === "toolCall") call.thoughtSignature = JSON.stringify(detail);
  }

  /**
   * Some compatible servers never send a tool-call id. Results are paired with their call by
   * id (here and in every later request), so each call gets a unique one before it ends.
   */
  fillMissingIds(): void {
    const stamp = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    for (const [index, open] of this.#tools) {
      if (open.id || !this.#b.isOpen(open.key)) continue;
      open.id = `call_${stamp}_${index}`;
      this.#b.patchToolCall(open.key, { id: open.id });
    }
  }

  *#openProse(kind: "text" | "thinking"): Generator<AssistantMessageEvent> {
    if (this.#prose?.kind === kind) return;
    yield* this.#closeProse();
    const key = `${kind}${this.#count++}`;
    this.#prose = { kind, key };
    yield kind === "text" ? this.#b.textStart(key) : this.#b.thinkingStart(key);
  }

  *#closeProse(): Generator<AssistantMessageEvent> {
    if (this.#prose) yield this.#b.end(this.#prose.key);
    this.#prose = undefined;
  }
}
