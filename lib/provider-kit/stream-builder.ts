/**
 * The shared half of every provider adapter: one mutable partial AssistantMessage per stream and
 * the unified events that describe how it changed. Each method mutates the partial and returns
 * the event; adapters `yield` it at once, so the consumer serialises a snapshot that matches
 * the event (the partial is never changed while an event is in flight).
 */
import { parse as parsePartialJson } from "partial-json";
import type { AssistantMessage, AssistantMessageEvent, Model, TextContent, ThinkingContent, ToolCall } from "../llm/index.js";
import { emptyUsage } from "../llm/index.js";
import { computeCost } from "./pricing.js";
import { StreamingJson } from "./streaming-json.js";

export { computeCost } from "./pricing.js";

type BlockKey = string | number;
type DoneReason = "stop" | "length" | "toolUse";

export interface TokenCounts {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Of the cache writes, those with a one-hour lifetime (priced higher). */
  cacheWrite1h?: number;
  /** What the provider says it billed for the call (OpenRouter), in dollars: becomes `cost.total`. */
  billedTotal?: number;
}

/** Tool arguments from a possibly incomplete JSON text: full parse, then partial, then `{}`. */
export function parseToolArguments(raw: string): Record<string, unknown> {
  if (raw.trim() === "") return {};
  try {
    return asObject(JSON.parse(raw));
  } catch {
    try {
      return asObject(parsePartialJson(raw));
    } catch {
      return {};
    }
  }
}

function asObject(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export class AssistantStreamBuilder {
  readonly partial: AssistantMessage;
  readonly model: Model;
  /** Provider block key -> content index of the open block. */
  readonly #open = new Map<BlockKey, number>();
  /** Raw JSON text of each tool call, by content index (kept off the wire). */
  readonly #rawArgs = new Map<number, StreamingJson>();
  #finished = false;
  #cacheWrite1h = 0;

  constructor(model: Model) {
    this.model = model;
    this.partial = {
      role: "assistant",
      content: [],
      api: model.api,
      provider: model.provider,
      model: model.id,
      usage: emptyUsage(),
      stopReason: "stop",
      timestamp: Date.now(),
    };
  }

  get finished(): boolean {
    return this.#finished;
  }

  start(): AssistantMessageEvent {
    return { type: "start", partial: this.partial };
  }

  isOpen(key: BlockKey): boolean {
    return this.#open.has(key);
  }

  /** Content index of an open block. */
  indexOf(key: BlockKey): number | undefined {
    return this.#open.get(key);
  }

  /** Keys of the open blocks in content order (to close them at the end of a stream). */
  openKeys(): BlockKey[] {
    return [...this.#open.entries()].sort((a, b) => a[1] - b[1]).map(([key]) => key);
  }

  textStart(key: BlockKey): AssistantMessageEvent {
    const contentIndex = this.#push(key, { type: "text", text: "" });
    return { type: "text_start", contentIndex, partial: this.partial };
  }

  textDelta(key: BlockKey, delta: string): AssistantMessageEvent {
    const contentIndex = this.#index(key);
    (this.partial.content[contentIndex] as TextContent).text += delta;
    return { type: "text_delta", contentIndex, delta, partial: this.partial };
  }

  thinkingStart(key: BlockKey, init: Partial<ThinkingContent> = {}): AssistantMessageEvent {
    const contentIndex = this.#push(key, { type: "thinking", thinking: "", ...init });
    return { type: "thinking_start", contentIndex, partial: this.partial };
  }

  thinkingDelta(key: BlockKey, delta: string): AssistantMessageEvent {
    const contentIndex = this.#index(key);
    (this.partial.content[contentIndex] as ThinkingContent).thinking += delta;
    return { type: "thinking_delta", contentIndex, delta, partial: this.partial };
  }

  /** Opaque replay data (signatures, item ids): set silently, no event of its own. */
  setSignature(key: BlockKey, signature: string, mode: "append" | "replace" = "replace"): void {
    const block = this.partial.content[this.#index(key)]!;
    if (block.type === "thinking") block.thinkingSignature = mode === "append" ? (block.thinkingSignature ?? "") + signature : signature;
    else if (block.type === "text") block.textSignature = mode === "append" ? (block.textSignature ?? "") + signature : signature;
    else block.thoughtSignature = signature;
  }

  toolCallStart(key: BlockKey, call: { id: string; name: string; thoughtSignature?: string }): AssistantMessageEvent {
    const block: ToolCall = { type: "toolCall", id: call.id, name: call.name, arguments: {} };
    if (call.thoughtSignature) block.thoughtSignature = call.thoughtSignature;
    const contentIndex = this.#push(key, block);
    this.#rawArgs.set(contentIndex, new StreamingJson());
    return { type: "toolcall_start", contentIndex, partial: this.partial };
  }

  /** A raw JSON fragment of the arguments; the arguments object is re-parsed leniently. */
  toolCallDelta(key: BlockKey, delta: string): AssistantMessageEvent {
    const contentIndex = this.#index(key);
    let args = this.#rawArgs.get(contentIndex);
    if (!args) this.#rawArgs.set(contentIndex, (args = new StreamingJson()));
    args.push(delta);
    (this.partial.content[contentIndex] as ToolCall).arguments = asObject(args.value());
    return { type: "toolcall_delta", contentIndex, delta, partial: this.partial };
  }

  /** Late identity details (an id or name that arrives after the first fragment). */
  patchToolCall(key: BlockKey, patch: Partial<Pick<ToolCall, "id" | "name">>): void {
    Object.assign(this.partial.content[this.#index(key)] as ToolCall, patch);
  }

  /** Raw JSON accumulated so far for an open tool call. */
  rawArguments(key: BlockKey): string {
    return this.#rawArgs.get(this.#index(key))?.raw ?? "";
  }

  /** Closes any open block with its `*_end` event. `finalArgs` replaces the streamed JSON. */
  end(key: BlockKey, finalArgs?: string): AssistantMessageEvent {
    const contentIndex = this.#index(key);
    this.#open.delete(key);
    const block = this.partial.content[contentIndex]!;
    if (block.type === "text") return { type: "text_end", contentIndex, content: block.text, partial: this.partial };
    if (block.type === "thinking") return { type: "thinking_end", contentIndex, content: block.thinking, partial: this.partial };
    const raw = finalArgs ?? this.#rawArgs.get(contentIndex)?.raw ?? "";
    block.arguments = parseToolArguments(raw);
    this.#rawArgs.delete(contentIndex);
    return { type: "toolcall_end", contentIndex, toolCall: block, partial: this.partial };
  }

  /** Ends every open block, in content order. */
  *endAll(): Generator<AssistantMessageEvent> {
    for (const key of this.openKeys()) yield this.end(key);
  }

  /** Overwrites the given token counts, then recomputes the total and the cost. */
  setUsage(counts: TokenCounts): void {
    const usage = this.partial.usage;
    if (counts.input !== undefined) usage.input = counts.input;
    if (counts.output !== undefined) usage.output = counts.output;
    if (counts.cacheRead !== undefined) usage.cacheRead = counts.cacheRead;
    if (counts.cacheWrite !== undefined) usage.cacheWrite = counts.cacheWrite;
    if (counts.cacheWrite1h !== undefined) this.#cacheWrite1h = counts.cacheWrite1h;
    usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
    usage.cost = computeCost(this.model, usage, this.#cacheWrite1h);
    // The provider's own bill, when it reports one (OpenRouter), is the total; the parts stay at the model's prices.
    if (counts.billedTotal !== undefined) usage.cost.total = counts.billedTotal;
  }

  hasToolCalls(): boolean {
    return this.partial.content.some((block) => block.type === "toolCall");
  }

  done(reason: DoneReason): AssistantMessageEvent {
    this.#finished = true;
    this.partial.stopReason = reason;
    return { type: "done", reason, message: this.partial, partial: this.partial };
  }

  /** The terminal error event; an aborted signal makes it `aborted`. Partial content is kept. */
  error(errorMessage: string, aborted = false): AssistantMessageEvent {
    this.#finished = true;
    const reason = aborted ? "aborted" : "error";
    this.partial.stopReason = reason;
    this.partial.errorMessage = errorMessage;
    return { type: "error", reason, error: this.partial, partial: this.partial };
  }

  #push(key: BlockKey, block: AssistantMessage["content"][number]): number {
    const contentIndex = this.partial.content.push(block) - 1;
    this.#open.set(key, contentIndex);
    return contentIndex;
  }

  #index(key: BlockKey): number {
    const index = this.#open.get(key);
    if (index === undefined) throw new Error(`Provider stream referenced block ${String(key)} that is not open`);
    return index;
  }
}
