/** The fake LLM server's provider-neutral script language and its request log. */
import type { ModelsWireFormat } from "./render-models.js";

export interface FakeToolCall {
  name: string;
  args: Record<string, unknown>;
  /** Defaults to a per-provider generated id (`toolu_…`, `call_…`). */
  id?: string;
}

export interface FakeUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** Anthropic: of the cache writes, those written with a one-hour lifetime. */
  cacheWrite1h?: number;
}

/** One scripted reply, rendered in whatever wire format the request's endpoint speaks. */
export interface FakeReply {
  text?: string;
  thinking?: string;
  /** Anthropic only: a `redacted_thinking` block with this opaque data, before any thinking. */
  redactedThinking?: string;
  toolCalls?: FakeToolCall[];
  usage?: FakeUsage;
  /** Default: "toolUse" when there are tool calls, else "stop". "error" = refusal/filter/safety. */
  stop?: "stop" | "length" | "toolUse" | "error";
  /** HTTP error status; the body is the provider's error JSON (see `errorMessage`/`errorBody`). */
  status?: number;
  /** Message text used in the provider-shaped error body (status replies and `streamError`). */
  errorMessage?: string;
  /** Raw error body, sent verbatim instead of the provider-shaped one. */
  errorBody?: string;
  /** After the first frame, send an SSE record whose data is not JSON, then end. */
  malformed?: true;
  /** Send the provider's in-stream error record after the content (e.g. Anthropic `event: error`). */
  streamError?: string;
  /** Pause between frames. */
  chunkDelayMs?: number;
  /** Split each tool call's JSON arguments into several fragments, cut mid-token. */
  splitArgs?: true;
  /** Stop writing after N frames (true = 3) and hold the connection until the client leaves. */
  stall?: true | number;
  /** Text chunking: by default text streams word by word. */
  textChunks?: string[];
  /** Extra response headers (e.g. `retry-after`, `retry-after-ms` on a 429). */
  headers?: Record<string, string>;
  /** Raw in-stream error record (its JSON data), sent after the content instead of the provider-shaped one. */
  streamErrorBody?: unknown;
  /** Chat Completions: the raw `finish_reason` to end with (e.g. "network_error"). */
  finishReason?: string;
  /** Chat Completions: the raw `usage` object of the usage chunk (a provider's own fields); null sends no usage chunk. */
  chatUsage?: Record<string, unknown> | null;
  /** Chat Completions: thinking streamed as Mistral's content chunks (`{type:"thinking",thinking:[{type:"text",text}]}`). */
  thinkingChunks?: true;
  /** Chat Completions: the delta field thinking streams in (default `reasoning_content`). */
  reasoningField?: string;
  /** Chat Completions (OpenRouter): `reasoning_details` sent with each tool call, keyed to its id. */
  reasoningDetails?: true;
  /** Responses: the `phase` of the assistant message item (`commentary`, `final_answer`). */
  phase?: string;
  /** Responses: the `incomplete_details.reason` of an incomplete response (default max_output_tokens). */
  incompleteReason?: string;
  /** Classifier requests (System One, Decisions, Workers AI): the answers by question id. */
  answers?: Record<string, FakeAnswer>;
  /** Image generation (OpenRouter): the images returned, as base64 data. */
  images?: { mimeType: string; data: string }[];
}

/** A classifier's answer to one question, in the public shapes (the fake writes each wire format's own). */
export type FakeAnswer = { choice: string; probabilities: Record<string, number>; confidence: number } | { score: number; confidence: number } | { probability: number };

export type ReplySource = FakeReply | ((request: RecordedRequest) => FakeReply);

export type WireFormat = "anthropic" | "openai-chat" | "openai-responses" | "google" | "bedrock" | "bedrock-converse" | "pi-messages";

export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (or the raw text when it was not JSON). */
  body: any;
  format: WireFormat | ModelsWireFormat | "unknown";
  /** True once the client closed the connection before the reply was complete. */
  disconnected: boolean;
  /** True once the whole reply was written. */
  completed: boolean;
}
