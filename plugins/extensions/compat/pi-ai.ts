/**
 * Atomic's `@mariozechner/pi-ai` for extensions: the message and model types (Atomic's own,
 * which have pi-ai's shapes), `Type`, `StringEnum`, the event stream a custom provider fills, and
 * one-off LLM calls (`complete`, `stream`, ...) through Atomic's providers. Values bound to the
 * running agent are declared here for TypeScript and supplied by the loader (`modules.ts`).
 */
import type { AssistantMessage, AssistantMessageEvent, LlmMessage, Model, ThinkingLevel, ToolSpec } from "../../../lib/llm/index.js";
import { randomBytes } from "node:crypto";
import { clampThinkingLevel as clampLevel, THINKING_LEVELS, thinkingLevelsFor } from "../../../lib/llm/index.js";
import { Type, type SchemaOptions, type TSchema } from "./typebox.js";
import type { Context, SimpleStreamOptions, StreamOptions } from "../types/llm.js";

export type {
  AssistantMessage,
  AssistantMessageEvent,
  ImageContent,
  Model,
  StopReason,
  TextContent,
  ThinkingContent,
  ThinkingLevel,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "../../../lib/llm/index.js";
export { Type, type Static, type TSchema } from "./typebox.js";
export { AssistantMessageEventStream, createAssistantMessageEventStream } from "./event-stream.js";
export { createInitialSystemMessage, getCurrentSystemMessage, getCurrentSystemPrompt, getCurrentTools, getInitialSystemMessage, type SystemMessage } from "./transcript.js";
export type { Context, SimpleStreamOptions, StreamOptions } from "../types/llm.js";

/** An API name (`anthropic-messages`, `openai-completions`, ... or a custom one). */
export type Api = string;
/** pi 1.x names a thinking level of a model so. */
export type ModelThinkingLevel = ThinkingLevel;
export type Message = LlmMessage;
export type Tool = ToolSpec;

/** A string enum as a JSON Schema (`{type: "string", enum}`), which every provider accepts. */
export function StringEnum<const T extends readonly string[]>(values: T, options?: SchemaOptions): TSchema<T[number]> {
  return Type.Unsafe<T[number]>({ type: "string", enum: [...values], ...options });
}

/** A version 7 UUID: 48 bits of milliseconds, then random bits (RFC 9562), so ids sort by creation time. */
export function uuidv7(timestampMs: number = Date.now()): string {
  const bytes = randomBytes(16);
  let time = Math.max(0, Math.floor(timestampMs));
  for (let i = 5; i >= 0; i--) {
    bytes[i] = time % 256;
    time = Math.floor(time / 256);
  }
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The thinking levels `model` accepts, in order: Atomic's `thinkingLevels`, or pi's
 * `thinkingLevelMap` on a model an extension built (a level mapped to null is unsupported;
 * `xhigh` and `max` only when mapped).
 */
export function getSupportedThinkingLevels(model: Model & { thinkingLevelMap?: Partial<Record<ThinkingLevel, unknown>> }): ThinkingLevel[] {
  const map = model.thinkingLevelMap;
  if (!map || model.thinkingLevels?.length || !model.reasoning) return thinkingLevelsFor(model);
  return THINKING_LEVELS.filter((level) => level === "off" || (map[level] !== null && (map[level] !== undefined || (level !== "xhigh" && level !== "max"))));
}

/** `level` if `model` accepts it, else the nearest level it does accept (upward first). */
export function clampThinkingLevel(model: Model, level: ThinkingLevel): ThinkingLevel {
  return clampLevel(level, getSupportedThinkingLevels(model));
}

/** The same model: provider and id (pi also compares its api). */
export function modelsAreEqual(a: Model | null | undefined, b: Model | null | undefined): boolean {
  return !!a && !!b && a.provider === b.provider && a.id === b.id && a.api === b.api;
}

/** One LLM call through Atomic's providers, resolving with the final assistant message. */
export declare const complete: (model: Model, context: Context, options?: StreamOptions) => Promise<AssistantMessage>;
export declare const completeSimple: (model: Model, context: Context, options?: SimpleStreamOptions) => Promise<AssistantMessage>;
/** The same call as a stream of unified events. */
export declare const stream: (model: Model, context: Context, options?: StreamOptions) => AsyncIterable<AssistantMessageEvent>;
export declare const streamSimple: (model: Model, context: Context, options?: SimpleStreamOptions) => AsyncIterable<AssistantMessageEvent>;
/** A model of Atomic's catalog (built-in, models.json or registered by an extension). */
export declare const getModel: (provider: string, modelId: string) => Model | undefined;
export declare const getModels: (provider: string) => Model[];
export declare const getProviders: () => string[];
