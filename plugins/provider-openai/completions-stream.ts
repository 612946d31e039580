/**
 * Chat Completions streaming mapped onto the unified events. Chunks carry no block boundaries:
 * a text/thinking block ends when the other kind (or a tool call) starts; tool calls are keyed
 * by their `index` (a new id on the same index starts a new call); all close at the end.
 */
import type { AssistantMessageEvent } from "../../kernel/index.js";
import type { AssistantStreamBuilder } from "../../lib/provider-kit/stream-builder.js";
import type { ProviderCall } from "../../lib/provider-kit/provider-stream.js";
import { REASONING_FIELDS, buildChatRequest } from "./completions-request.js";
import { openAiClient } from "./shared.js";

interface ChunkToolCall {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}
interface Chunk {
  choices?: { delta?: Record<string, unknown> & { content?: string | null; tool_calls?: ChunkToolCall[] }; finish_reason?: string | null }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } | null } | null;
}

const FINISH: Record<string, "stop" | "length" | "toolUse"> = { stop: "stop", length: "length", tool_calls: "toolUse", function_call: "toolUse" };

export async function* streamChatCompletions(call: ProviderCall): AsyncGenerator<AssistantMessageEvent, void, undefined> {
  const client = await openAiClient(call);
  const stream = (await client.chat.completions.create(buildChatRequest(call.request) as never, { signal: call.signal })) as unknown as AsyncIterable<Chunk>;
  const b = call.builder;
  yield b.start();
  const blocks = new ChunkBlocks(b);
  let finish: string | null | undefined;
  for await (const chunk of stream) {
    if (chunk.usage) {
      const cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? 0;
      b.setUsage({ input: (chunk.usage.prompt_tokens ?? 0) - cached, output: chunk.usage.completion_tokens ?? 0, cacheRead: cached });
    }
    const choice = chunk.choices?.[0];
    if (!choice) continue;
    const delta = choice.delta ?? {};
    const field = REASONING_FIELDS.find((name) => typeof delta[name] === "string" && delta[name] !== "");
    if (field) yield* blocks.thinking(delta[field] as string, field);
    if (typeof delta.content === "string" && delta.content !== "") yield* blocks.text(delta.content);
    for (const toolCall of delta.tool_calls ?? []) yield* blocks.toolCall(toolCall);
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  if (call.signal.aborted) return;
  blocks.fillMissingIds();
  yield* b.endAll();
  if (finish === "content_filter") {
    yield b.error("The provider filtered the response (finish_reason: content_filter)");
    return;
  }
  const reason = (finish ? FINISH[finish] : undefined) ?? "stop";
  yield b.done(reason === "stop" && b.hasToolCalls() ? "toolUse" : reason);
}

/** Tracks which block each chunk continues. */
class ChunkBlocks {
  readonly #b: AssistantStreamBuilder;
  #prose: { kind: "text" | "thinking"; key: string } | undefined;
  readonly #tools = new Map<number, { key: string; id: string; name: string }>();
  #count = 0;

  constructor(builder: AssistantStreamBuilder) {
    this.#b = builder;
  }

  *text(delta: string): Generator<AssistantMessageEvent> {
    yield* this.#openProse("text");
    yield this.#b.textDelta(this.#prose!.key, delta);
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
