/**
 * Typed models' values as pi 1.6 has them (codemode's `models` global, an extension's
 * `ctx.modelRegistry`): catalog entries, classifier and image contexts, and their results. Results never throw for a provider's
 * failure: `stopReason` and `errorMessage` say what went wrong.
 */
import type { Usage } from "../llm/index.js";

/** OpenAI's Decisions API: it takes API keys only (a ChatGPT login does not reach it). */
export const DECISIONS_API = "openai-decisions";

export const MODEL_TYPES = ["chat", "image", "classifier"] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

/** A catalog entry for scripts: `provider` and `id` identify it; other fields depend on the type. */
export interface ModelInfo {
  type: ModelType;
  provider: string;
  id: string;
  name: string;
  api: string;
  input: ("text" | "image")[];
  contextWindow?: number;
  [key: string]: unknown;
}

export type ImageBlock = { type: "image"; data: string; mimeType: string };
export type TextBlock = { type: "text"; text: string };

export type ClassifierQuestion =
  | { type: "choice"; instructions: string; criteria: Record<string, string> }
  | { type: "score"; instructions: string; criteria: string[] }
  | { type: "bool"; instructions: string; criteria: { true: string; false: string } };

export interface ClassifierContext {
  state: Record<string, unknown>;
  images?: ImageBlock[];
  questions: Record<string, ClassifierQuestion>;
}

export type ClassifierAnswer =
  | { type: "choice"; choice: string; probabilities: Record<string, number>; confidence: number }
  | { type: "score"; score: number; confidence: number }
  | { type: "bool"; probability: number };

export type StopReason = "stop" | "error" | "aborted";

/** Usage as pi reports it for these calls: its cost reckoned from the catalog's prices, not the provider's. */
export type ModelUsage = Usage & { cost: Usage["cost"] & { totalFromProvider: false } };

export interface ClassifierResult {
  api: string;
  provider: string;
  model: string;
  answers: Record<string, ClassifierAnswer>;
  stopReason: StopReason;
  /** When the call started (ms since the epoch). */
  timestamp: number;
  usage?: ModelUsage;
  errorMessage?: string;
}

export interface ImagesContext {
  input: (TextBlock | ImageBlock)[];
}

export interface ImagesResult {
  api: string;
  provider: string;
  model: string;
  output: (TextBlock | ImageBlock)[];
  stopReason: StopReason;
  timestamp: number;
  /** The provider's id of the response. */
  responseId?: string;
  usage?: ModelUsage;
  errorMessage?: string;
}

/** A request that failed with an HTTP status: the message pi composes names the status and the body. */
export class ProviderHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    /** The response's headers (a retry reads `retry-after` from them). */
    readonly headers?: { get(name: string): string | null },
  ) {
    super(`returned ${status}`);
  }
}
