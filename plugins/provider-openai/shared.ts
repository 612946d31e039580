/**
 * What both OpenAI APIs share: the thinking level as a reasoning effort, image data URLs,
 * tool-call ids and tool-result runs.
 */
import type { ImageContent, LlmMessage, Model, ThinkingLevel } from "../../lib/llm/index.js";
import { clampThinkingLevel, thinkingLevelsFor } from "../../lib/llm/index.js";
import { mappedLevelValue } from "../../lib/provider-kit/compat.js";
import { fitToolCallId, imagesOf, textOf } from "../../lib/provider-kit/history.js";

const EFFORT: Record<Exclude<ThinkingLevel, "off">, string> = {
  minimal: "minimal",
  low: "low",
  medium: "medium",
  high: "high",
  xhigh: "xhigh",
  max: "xhigh",
};

/**
 * The reasoning effort for the request, or undefined to send none: the model's
 * `thinkingLevelMap` value when it names one, else OpenAI's effort for the level. "off" maps to
 * "none" only where the model accepts it (GPT-5.1+); other reasoning models cannot switch
 * thinking off.
 */
export function reasoningEffort(model: Model, requested: ThinkingLevel, supportsNone = model.compat?.supportsReasoningNone === true): string | undefined {
  if (!model.reasoning) return undefined;
  const level = clampThinkingLevel(requested, thinkingLevelsFor(model));
  const mapped = mappedLevelValue(model, level);
  if (mapped !== undefined) return mapped;
  if (level === "off") return supportsNone ? "none" : undefined;
  return EFFORT[level];
}

export function dataUrl(image: ImageContent): string {
  return `data:${image.mimeType};base64,${image.data}`;
}

/** The call part of a Responses-style `call_id|item_id` id (the whole id otherwise). */
export function callIdOf(id: string): string {
  return id.split("|")[0] ?? id;
}

/** Chat Completions rejects tool-call ids longer than 40 characters. */
export function normalizeChatToolCallId(id: string): string {
  return fitToolCallId(callIdOf(id), 40);
}

/**
 * Mistral takes exactly nine letters and digits: its own ids pass as they are, any other id
 * (another model's, from an earlier turn) becomes a stable nine-character fingerprint of itself.
 */
export function mistralToolCallId(id: string): string {
  const clean = callIdOf(id).replace(/[^A-Za-z0-9]/g, "");
  if (clean.length === 9) return clean;
  return (fnv1a(id) + fnv1a(`${id}#`)).slice(0, 9);
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36).padStart(7, "0");
}

/** Responses `call_id`s: at most 64 characters; a foreign `call|item` id keeps its call part. */
export function normalizeResponsesToolCallId(id: string): string {
  return fitToolCallId(callIdOf(id), 64);
}

/** One tool result as OpenAI wants it: text only (images travel in a following user message). */
export interface ToolOutput {
  toolCallId: string;
  text: string;
}

/**
 * The run of consecutive tool results starting at `start`: their text outputs (a placeholder
 * when a result had only images or nothing), the images they carried, and the index of the
 * run's last message. Both OpenAI APIs take results as text and images as a user message.
 */
export function toolResultRun(messages: LlmMessage[], start: number): { outputs: ToolOutput[]; images: ImageContent[]; end: number } {
  const outputs: ToolOutput[] = [];
  const images: ImageContent[] = [];
  let end = start;
  for (let i = start; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role !== "toolResult") break;
    const attached = imagesOf(message.content);
    images.push(...attached);
    outputs.push({ toolCallId: message.toolCallId, text: textOf(message.content) || (attached.length > 0 ? "(see attached image)" : "(no output)") });
    end = i;
  }
  return { outputs, images, end };
}
