/**
 * ChatGPT subscriptions through OpenAI Codex (`openai-codex-responses`): the Responses request at
 * `<baseUrl>/codex/responses` with what the Codex backend needs, as pi sends it. The key is the
 * account's OAuth access token (a JWT: `atomic login` stores it in auth.json); the account id it
 * names goes in `chatgpt-account-id`. The system prompt is the leading developer item (the backend
 * puts `instructions` after the input, which would change the cached prefix every turn), text
 * verbosity is low, reasoning comes back encrypted for replay, and the session id names the
 * conversation (`session-id`, `x-client-request-id`, the prompt-cache key). The catalog's headers
 * add the `originator`.
 */
import OpenAI from "openai";
import type { ProviderCall } from "../../lib/provider-kit/provider-stream.js";
import { sdkUserAgent } from "./client.js";
import type { ResponsesRoute } from "./responses-stream.js";

const JWT_CLAIM = "https://api.openai.com/auth";

export function codexRoute(): ResponsesRoute {
  return {
    client: (call: ProviderCall) =>
      new OpenAI({
        apiKey: call.apiKey,
        baseURL: codexBaseUrl(call.baseUrl),
        maxRetries: 0,
        fetch: call.fetch,
        organization: null,
        project: null,
        defaultHeaders: { ...sdkUserAgent("OpenAI"), ...codexHeaders(call), ...call.headers },
      }),
    params: (call: ProviderCall, params: Record<string, unknown>) => codexBody(call, params),
  };
}

/** The SDK adds `/responses`: `<baseUrl>/codex`, whether the base URL names `/codex` or not. */
export function codexBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  if (trimmed.endsWith("/codex/responses")) return trimmed.slice(0, -"/responses".length);
  return trimmed.endsWith("/codex") ? trimmed : `${trimmed}/codex`;
}

function codexHeaders(call: ProviderCall): Record<string, string> {
  const sessionId = call.request.options.sessionId;
  return {
    "chatgpt-account-id": accountId(call.apiKey),
    "OpenAI-Beta": "responses=experimental",
    ...(sessionId ? { "session-id": sessionId, "x-client-request-id": sessionId } : {}),
  };
}

/** The ChatGPT account id the access token was issued for. */
export function accountId(token: string): string {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as Record<string, { chatgpt_account_id?: unknown } | undefined>;
    const id = payload[JWT_CLAIM]?.chatgpt_account_id;
    if (typeof id === "string" && id !== "") return id;
  } catch {
    // Not a JWT: said below.
  }
  throw new Error("The openai-codex key is not a ChatGPT access token (no account id in it): sign in with `atomic login openai-codex`.");
}

function codexBody(call: ProviderCall, params: Record<string, unknown>): Record<string, unknown> {
  const { instructions, ...rest } = params;
  const input = (rest.input as unknown[] | undefined) ?? [];
  return {
    ...rest,
    input: typeof instructions === "string" ? [{ role: "developer", content: instructions }, ...input] : input,
    text: { verbosity: "low" },
    include: ["reasoning.encrypted_content"],
    tool_choice: "auto",
    parallel_tool_calls: true,
    ...(call.request.options.sessionId ? { prompt_cache_key: call.request.options.sessionId } : {}),
  };
}
