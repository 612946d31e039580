/**
 * The LLM call and transcript shapes extensions see (pi-ai's `Context`, stream options, pi 1.x's
 * `system` messages). Declared here, below the compat modules that re-export them, so the
 * extension API types never depend on a module's implementation.
 */
import type { LlmMessage, TextContent, ThinkingLevel, ToolSpec } from "../../../lib/llm/index.js";

/** What one LLM call is given. */
export interface Context {
  systemPrompt?: string;
  messages: LlmMessage[];
  tools?: ToolSpec[];
}

/** Options of a one-off call; `apiKey`/`headers` are accepted but Atomic uses the configured credentials. */
export interface StreamOptions {
  signal?: AbortSignal;
  maxTokens?: number;
  apiKey?: string;
  headers?: Record<string, string>;
  sessionId?: string;
}

export interface SimpleStreamOptions extends StreamOptions {
  /** Thinking level of the call (`off` when absent). */
  reasoning?: ThinkingLevel;
}

/** pi 1.x's transcript message carrying the system prompt and tool changes. */
export interface SystemMessage {
  role: "system";
  content: string | TextContent[];
  /** Named prompt sections after `content`; a later message replaces one by name, `null` removes it. */
  sections?: Record<string, string | null>;
  toolsAdded?: ToolSpec[];
  toolsRemoved?: { name: string }[];
  timestamp: number;
}
