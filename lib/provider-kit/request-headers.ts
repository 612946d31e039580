/**
 * Headers a provider's requests carry beyond the key, from the model's `compat` (data in the
 * catalog, so a models.json provider can ask for them too): the session id in a routing header
 * (`sessionHeader`: OpenCode's `x-opencode-session`), who started the request (`initiatorHeaders`:
 * GitHub Copilot's `X-Initiator`, `Openai-Intent`, and `Copilot-Vision-Request` with images), and
 * the key in a header of the service's own instead of the SDK's (`keyHeader`: Cloudflare AI
 * Gateway's `cf-aig-authorization`; the SDK's `Authorization` and `x-api-key` are removed).
 */
import type { LlmMessage, StreamRequest } from "../llm/index.js";

/** Header values; `null` removes a header the SDK would send. */
export type RequestHeaders = Record<string, string | null>;

export function requestHeaders(request: StreamRequest, apiKey: string | undefined, configured: Record<string, string>): RequestHeaders {
  const { model, context, options } = request;
  const compat = model.compat ?? {};
  const out: RequestHeaders = { ...configured };
  if (typeof compat.sessionHeader === "string" && options.sessionId && !hasHeader(out, compat.sessionHeader)) out[compat.sessionHeader] = options.sessionId;
  if (compat.initiatorHeaders === true) {
    const last = context.messages.at(-1);
    out["X-Initiator"] = last && last.role !== "user" ? "agent" : "user";
    out["Openai-Intent"] = "conversation-edits";
    if (hasImages(context.messages)) out["Copilot-Vision-Request"] = "true";
  }
  if (typeof compat.keyHeader === "string" && apiKey) {
    out[compat.keyHeader] = `Bearer ${apiKey}`;
    out.Authorization = null;
    out["x-api-key"] = null;
  }
  return out;
}

/** The headers without the removals, for an SDK that takes only strings. */
export function presentHeaders(headers: RequestHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== null));
}

function hasHeader(headers: RequestHeaders, name: string): boolean {
  const lower = name.toLowerCase();
  return Object.keys(headers).some((key) => key.toLowerCase() === lower);
}

function hasImages(messages: readonly LlmMessage[]): boolean {
  return messages.some(
    (message) => (message.role === "user" || message.role === "toolResult") && Array.isArray(message.content) && message.content.some((part) => part.type === "image"),
  );
}
