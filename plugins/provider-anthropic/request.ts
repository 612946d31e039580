/**
 * The Messages API request body: conversation history in Anthropic's block format (tool results
 * merged into one user turn, signed thinking replayed to the same model), prompt caching marks
 * (5-minute or 1-hour), tools streamed eagerly, and the thinking level as a token budget or an
 * adaptive effort (see thinking.ts for which model gets which).
 */
import type { AssistantMessage, ImageContent, LlmMessage, Model, StreamRequest, TextContent, ThinkingLevel, ToolResultMessage } from "../../lib/llm/index.js";
import { clampThinkingLevel, thinkingLevelsFor } from "../../lib/llm/index.js";
import { defaultMaxTokens, fitToolCallId, isSameModel, prepareHistory } from "../../lib/provider-kit/history.js";
import { budgetFor, effortFor, isAdaptive, thinkingDisplay, thinksByDefault } from "./thinking.js";

type Block = Record<string, unknown>;
interface MessageParam {
  role: "user" | "assistant";
  content: string | Block[];
}

type CacheMark = { type: "ephemeral"; ttl?: "1h" };
/** The API's smallest thinking budget; max_tokens must exceed the budget. */
const MIN_BUDGET = 1024;

export const FINE_GRAINED_TOOL_STREAMING = "fine-grained-tool-streaming-2025-05-14";
export const INTERLEAVED_THINKING = "interleaved-thinking-2025-05-14";

/** Anthropic ids allow `[A-Za-z0-9_-]{1,64}`; foreign ids (e.g. `call_x|fc_y`) are made to fit. */
export function normalizeToolCallId(id: string): string {
  return fitToolCallId(id, 64, "tool_call");
}

export interface AnthropicRequestOptions {
  /** Prompt-cache lifetime (setting `anthropic.cacheTtl`): "5m" (default) or "1h" (writes cost more, reads last longer). */
  cacheTtl?: "5m" | "1h";
}

export function buildAnthropicRequest(request: StreamRequest, options: AnthropicRequestOptions = {}): { params: Record<string, unknown>; betas: string[] } {
  const { model, context } = request;
  const cache: CacheMark = options.cacheTtl === "1h" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
  const params: Record<string, unknown> = {
    model: model.id,
    max_tokens: defaultMaxTokens(model, request.options.maxTokens),
    stream: true,
    messages: convertMessages(prepareHistory(context.messages, model, { normalizeToolCallId }), model, cache),
  };
  if (context.systemPrompt) params.system = [{ type: "text", text: context.systemPrompt, cache_control: cache }];
  const betas: string[] = [];
  if (context.tools.length > 0) {
    // Tool arguments stream as they are written, per tool; a server without the field gets the old beta header.
    const eager = model.compat?.supportsEagerToolInputStreaming !== false;
    params.tools = context.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      input_schema: tool.parameters,
      ...(eager ? { eager_input_streaming: true } : {}),
    }));
    if (!eager) betas.push(FINE_GRAINED_TOOL_STREAMING);
  }
  applyThinking(params, betas, model, clampThinkingLevel(request.options.thinkingLevel, thinkingLevelsFor(model)));
  return { params, betas };
}

function applyThinking(params: Record<string, unknown>, betas: string[], model: Model, level: ThinkingLevel): void {
  if (!model.reasoning) return;
  if (level === "off") {
    // Omitting `thinking` means no thinking, except on models that think by default.
    if (thinksByDefault(model)) params.thinking = { type: "disabled" };
    return;
  }
  if (isAdaptive(model)) {
    const display = thinkingDisplay(model);
    params.thinking = { type: "adaptive", ...(display ? { display } : {}) };
    params.output_config = { effort: effortFor(model, level) };
    return;
  }
  if (model.maxTokens <= MIN_BUDGET) return;
  const wanted = budgetFor(model, level);
  const maxTokens = Math.min((params.max_tokens as number) + wanted, model.maxTokens);
  // The budget must leave room for the answer itself.
  const budget = maxTokens > wanted ? wanted : Math.max(MIN_BUDGET, maxTokens - MIN_BUDGET);
  params.max_tokens = maxTokens;
  params.thinking = { type: "enabled", budget_tokens: budget };
  betas.push(INTERLEAVED_THINKING);
}

export function convertMessages(messages: LlmMessage[], model: Model, cache: CacheMark = { type: "ephemeral" }): MessageParam[] {
  const out: MessageParam[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "user") {
      // Anthropic rejects empty and whitespace-only text.
      const content = typeof message.content === "string" ? message.content : contentBlocks(message.content);
      if (typeof content === "string" ? content.trim() !== "" : content.length > 0) out.push({ role: "user", content });
    } else if (message.role === "assistant") {
      const content = assistantBlocks(message, model);
      if (content.length > 0) out.push({ role: "assistant", content });
    } else {
      // Anthropic wants every result of a turn in one user message.
      const results: Block[] = [toolResultBlock(message)];
      while (messages[i + 1]?.role === "toolResult") results.push(toolResultBlock(messages[++i] as ToolResultMessage));
      out.push({ role: "user", content: results });
    }
  }
  markCacheBreakpoint(out, cache);
  return out;
}

function contentBlocks(content: (TextContent | ImageContent)[]): Block[] {
  const out: Block[] = [];
  for (const block of content) {
    if (block.type === "text") {
      if (block.text.trim() !== "") out.push({ type: "text", text: block.text });
    } else {
      out.push({ type: "image", source: { type: "base64", media_type: block.mimeType, data: block.data } });
    }
  }
  return out;
}

function assistantBlocks(message: AssistantMessage, model: Model): Block[] {
  const same = isSameModel(message, model);
  const out: Block[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text.trim() !== "") out.push({ type: "text", text: block.text });
    } else if (block.type === "thinking") {
      if (same && block.redacted && block.thinkingSignature) out.push({ type: "redacted_thinking", data: block.thinkingSignature });
      else if (same && block.thinkingSignature) out.push({ type: "thinking", thinking: block.thinking, signature: block.thinkingSignature });
      // Unsigned thinking cannot be replayed as thinking: keep it readable as text.
      else if (!block.redacted && block.thinking.trim() !== "") out.push({ type: "text", text: block.thinking });
    } else {
      out.push({ type: "tool_use", id: block.id, name: block.name, input: block.arguments });
    }
  }
  return out;
}

function toolResultBlock(message: ToolResultMessage): Block {
  const blocks = contentBlocks(message.content);
  if (!blocks.some((b) => b.type === "text")) blocks.unshift({ type: "text", text: blocks.length > 0 ? "(see attached image)" : "(no output)" });
  const onlyText = blocks.every((b) => b.type === "text");
  return {
    type: "tool_result",
    tool_use_id: message.toolCallId,
    content: onlyText ? blocks.map((b) => b.text as string).join("\n") : blocks,
    is_error: message.isError,
  };
}

/** Cache everything up to the newest user turn, so the next call re-reads it cheaply. */
function markCacheBreakpoint(messages: MessageParam[], cache: CacheMark): void {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role !== "user") continue;
    if (typeof message.content === "string") message.content = [{ type: "text", text: message.content }];
    const last = message.content[message.content.length - 1];
    if (last) last.cache_control = cache;
    return;
  }
}
