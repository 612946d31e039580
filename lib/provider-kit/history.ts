/**
 * Conversation history as one particular model may see it. Replay data (thinking signatures,
 * item ids) only means something to the model that produced it, so turns from another model
 * lose it: their thinking becomes plain text and their tool-call ids are normalised to what the
 * target API accepts. Images are replaced by a note for text-only models, and unpaired UTF-16
 * surrogates (a tool output cut mid-character) are dropped, since the APIs refuse such JSON.
 */
import type { AssistantMessage, ImageContent, LlmMessage, Model, TextContent, ToolResultMessage, UserMessage } from "../llm/index.js";

export const IMAGE_OMITTED = "(image omitted: this model does not accept images)";

export interface HistoryOptions {
  /** Makes a foreign tool-call id acceptable to the target API (e.g. Anthropic's charset). */
  normalizeToolCallId?: (id: string) => string;
}

export function isSameModel(message: AssistantMessage, model: Model): boolean {
  return message.provider === model.provider && message.api === model.api && message.model === model.id;
}

export function prepareHistory(messages: readonly LlmMessage[], model: Model, options: HistoryOptions = {}): LlmMessage[] {
  const acceptsImages = model.input.includes("image");
  const idMap = new Map<string, string>();
  const out: LlmMessage[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      out.push(wellFormed(acceptsImages ? message : withoutImages(message)));
    } else if (message.role === "assistant") {
      out.push(isSameModel(message, model) ? message : foreignAssistant(message, idMap, options));
    } else {
      const mapped = idMap.get(message.toolCallId);
      const next: ToolResultMessage = mapped ? { ...message, toolCallId: mapped } : message;
      out.push(wellFormed(acceptsImages ? next : withoutImages(next)));
    }
  }
  return out;
}

function foreignAssistant(message: AssistantMessage, idMap: Map<string, string>, options: HistoryOptions): AssistantMessage {
  const content: AssistantMessage["content"] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      // Redacted thinking is opaque to anyone but its author; readable thinking becomes text.
      if (!block.redacted && block.thinking.trim() !== "") content.push({ type: "text", text: stripLoneSurrogates(block.thinking) });
    } else if (block.type === "text") {
      content.push({ type: "text", text: stripLoneSurrogates(block.text) });
    } else {
      const id = options.normalizeToolCallId ? options.normalizeToolCallId(block.id) : block.id;
      if (id !== block.id) idMap.set(block.id, id);
      content.push({ type: "toolCall", id, name: block.name, arguments: block.arguments });
    }
  }
  return { ...message, content };
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Text without unpaired surrogates (the same string when there are none). */
export function stripLoneSurrogates(text: string): string {
  return text.replace(LONE_SURROGATE, "");
}

function wellFormed<M extends UserMessage | ToolResultMessage>(message: M): M {
  if (typeof message.content === "string") {
    const text = stripLoneSurrogates(message.content);
    return text === message.content ? message : { ...message, content: text };
  }
  const blocks = message.content as (TextContent | ImageContent)[];
  if (!blocks.some((b) => b.type === "text" && stripLoneSurrogates(b.text) !== b.text)) return message;
  return { ...message, content: blocks.map((b) => (b.type === "text" ? { ...b, text: stripLoneSurrogates(b.text) } : b)) };
}

function withoutImages<M extends UserMessage | ToolResultMessage>(message: M): M {
  if (typeof message.content === "string") return message;
  const blocks = message.content as (TextContent | ImageContent)[];
  if (!blocks.some((b) => b.type === "image")) return message;
  return { ...message, content: blocks.map((b) => (b.type === "image" ? { type: "text", text: IMAGE_OMITTED } : b)) };
}

/**
 * A tool-call id made acceptable to an API that allows `[A-Za-z0-9_-]{1,max}`. Other characters
 * become `_`; an id that is too long keeps a prefix plus a hash of the whole id, so two long ids
 * that share a prefix stay distinct (and the same id always maps to the same result).
 */
export function fitToolCallId(id: string, max: number, fallback = "call"): string {
  const clean = id.replace(/[^A-Za-z0-9_-]/g, "_");
  if (clean === "") return fallback;
  if (clean.length <= max) return clean;
  return `${clean.slice(0, max - 9)}_${hash32(id)}`;
}

/** FNV-1a, 8 hex digits: a stable short fingerprint (not a security measure). */
function hash32(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, "0");
}

/** Text of user/tool-result content, images dropped (for APIs that take plain text there). */
export function textOf(content: string | (TextContent | ImageContent)[]): string {
  if (typeof content === "string") return content;
  return content
    .filter((b): b is TextContent => b.type === "text")
    .map((b) => b.text)
    .join("\n");
}

export function imagesOf(content: string | (TextContent | ImageContent)[]): ImageContent[] {
  return typeof content === "string" ? [] : content.filter((b): b is ImageContent => b.type === "image");
}

/** Default output budget: the caller's, else the model's limit capped at 32k (pi's choice). */
export function defaultMaxTokens(model: Model, requested?: number): number {
  return requested ?? Math.min(model.maxTokens, 32_000);
}
