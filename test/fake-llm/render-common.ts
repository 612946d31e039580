/** Helpers shared by the wire-format renderers of the fake LLM server. */
import type { FakeReply, FakeToolCall, FakeUsage } from "./types.js";

export interface RenderContext {
  /** The model id the request asked for. */
  model: string;
  /** 1-based request number, used to make ids unique. */
  seq: number;
}

export interface Rendered {
  /** SSE text, or binary event-stream messages (Bedrock). */
  frames: (string | Buffer)[];
  /** Frame index after which a `malformed` reply injects its broken record. */
  malformedAfter: number;
}

export const MALFORMED_DATA = "{this is not json";

export function usageOf(reply: FakeReply): Required<FakeUsage> {
  return { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, ...reply.usage } as Required<FakeUsage>;
}

export function stopOf(reply: FakeReply): NonNullable<FakeReply["stop"]> {
  return reply.stop ?? (reply.toolCalls?.length ? "toolUse" : "stop");
}

/** Word-by-word chunks (spaces kept), so a text streams as several deltas. */
export function chunksOf(text: string, explicit?: string[]): string[] {
  if (explicit) return explicit;
  const parts = text.match(/\S+\s*|\s+/g) ?? [];
  return parts.length > 0 ? parts : [text];
}

/** The JSON of a call's arguments, in one piece or cut into fragments mid-token. */
export function argFragments(call: FakeToolCall, split: boolean | undefined): string[] {
  const json = JSON.stringify(call.args);
  if (!split || json.length < 4) return [json];
  const size = Math.max(1, Math.ceil(json.length / 4));
  const out: string[] = [];
  for (let i = 0; i < json.length; i += size) out.push(json.slice(i, i + size));
  return out;
}

export function sse(data: unknown, event?: string, newline = "\n"): string {
  const body = typeof data === "string" ? data : JSON.stringify(data);
  return `${event ? `event: ${event}${newline}` : ""}data: ${body}${newline}${newline}`;
}

export function toolId(prefix: string, ctx: RenderContext, index: number, call: FakeToolCall): string {
  return call.id ?? `${prefix}${ctx.seq}_${index}`;
}
