/**
 * Provider error classification shared by every adapter, the retry plugin and compaction:
 * which failures are transient (retry) and which mean the prompt no longer fits (compact).
 * Pure functions of the error text, since that is all a stored message keeps; where a wording
 * means overflow only for some servers, the model (its base URL) decides.
 */
import type { AssistantMessage, Model } from "../llm/index.js";

/** Each provider's (and local server's) wording for "the prompt does not fit the context window". */
const OVERFLOW_PATTERNS: RegExp[] = [
  /prompt is too long/i, // Anthropic
  /request_too_large/i, // Anthropic 413: the request body is over the byte limit
  /request entity too large/i, // HTTP 413 from gateways, GitHub Copilot
  /input length exceeds the context length/i, // ollama (newer runners)
  /longer than the model's context length/i, // Together
  /exceeds the context window/i, // OpenAI Responses
  /input length and `?max_tokens`? exceed context limit/i, // Anthropic: input + max_tokens > window
  /input token count.*exceeds the maximum/i, // Gemini
  /maximum prompt length is \d+/i, // xAI
  /reduce the length of the messages/i, // Groq
  /maximum context length/i, // OpenAI Chat, vLLM, DeepSeek, OpenRouter, LiteLLM
  /exceeds the limit of \d+/i, // GitHub Copilot
  /context[_ ]length[_ ]exceeded/i, // OpenAI error code, OpenRouter
  /too many tokens/i, // generic
  /token limit exceeded/i,
  /exceeded model token limit/i, // Kimi
  /context window exceeds limit/i, // MiniMax
  /prompt too long/i, // ollama: "prompt too long; exceeded max context length by N tokens"
  /exceeded max context length/i, // ollama
  /exceeds (?:the )?(?:available )?context size/i, // llama.cpp
  /greater than the context length/i, // LM Studio
  /too large for model with \d+ maximum context length/i, // Mistral
  /`?inputs`? tokens \+ `?max_new_tokens`? must be <=/i, // TGI, Together
  /range of input length should be/i, // Qwen (DashScope)
  /prompt exceeds max length/i, // Z.ai (CN endpoint); its other wording is "Prompt too long"
  /model_context_window_exceeded/i, // Z.ai's finish_reason, surfaced as the error text
  /prompt has [\d,]+ tokens?, but the configured context size is [\d,]+ tokens?/i, // DS4 server
  /input (?:is )?too long for (?:the )?(?:requested )?model/i, // Bedrock
  /^413\s*(?:status code)?\s*\(no body\)/i, // an empty 413 is a body-size refusal anywhere
];

/** Servers known to answer an overflow with an empty 400 (elsewhere an empty 400 is just a bad request). */
const EMPTY_400_OVERFLOW_HOSTS = /cerebras\.ai|mistral\.ai/i;
const EMPTY_400 = /^400\s*(?:status code)?\s*\(no body\)/i;

/** Rate limits mention tokens too ("tokens per minute"): never an overflow. */
const RATE_LIMIT = /rate.?limit|per minute|tokens per min|\btpm\b|too many requests|resource.?exhausted/i;

/** Quota and billing problems look like 429s but retrying never helps. */
const NOT_RETRYABLE = /insufficient.?quota|exceeded your current quota|quota exceeded|billing|credit balance|payment required|out of credits|plan limit/i;

/**
 * Gemini words its per-minute quota 429 like a billing problem ("exceeded your current quota,
 * please check your plan and billing details") but marks it RESOURCE_EXHAUSTED with a
 * per-minute quota id and a RetryInfo delay: that one passes. A daily quota does not.
 */
const PER_MINUTE_QUOTA = /RESOURCE_EXHAUSTED/;
const DAILY_QUOTA = /PerDay|per[_ ]day|daily/i;

/** Transient HTTP statuses. */
const RETRY_STATUS = "(?:408|409|425|429|500|502|503|504|520|522|524|529)";

/**
 * Errors of the offline replay provider: a cassette that ran out or is broken stays broken.
 * (Replayed *recorded* provider errors keep their own wording and are classified as usual.)
 */
const REPLAY_ERROR = /^(?:Cassette exhausted: |Cassette turn \d+ of |Empty cassette: |Invalid cassette header in |Invalid (?:JSON|event) on line \d+ of |Line \d+ of )/;

/**
 * A proxy that refused the tunnel (http-fetch words it so): its status decides, as a server's
 * would. A 403 or 407 from a proxy's policy fails the same way again; a 502 or 503 may not.
 */
const PROXY_REFUSED = /\bThe proxy \S+ refused the connection to \S+: (\d{3})\b/;

/**
 * Connection failures that fail the same way again (http-fetch.ts keeps the cause's code in
 * the text): a name that does not exist (EAI_AGAIN, a resolver that did not answer, may
 * pass), a certificate or TLS setup that is rejected, a redirect that is not followed. Checked
 * before the retryable wordings, which "Connection error." would match.
 */
const PERMANENT_CONNECTION: RegExp[] = [
  /\bENOTFOUND\b/,
  /\b(?:CERT_[A-Z_]+|UNABLE_TO_[A-Z_]+|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|ERR_TLS_CERT_ALTNAME_INVALID|HOSTNAME_MISMATCH|ERR_SSL_[A-Z_]+)\b/,
  /\bthe redirect was not followed\b/,
];

/** An error that starts with its HTTP status (every adapter keeps the SDK's "<status> <body>"). */
const LEADING_STATUS = /^(\d{3})\b/;
const TRANSIENT_STATUS = new RegExp(`^${RETRY_STATUS}$`);

const RETRYABLE: RegExp[] = [
  /overloaded/i,
  /rate.?limit/i,
  /too many requests/i,
  /resource.?exhausted/i,
  // A status leads the message, or is named as one ("status 503", `"code":503`, "(code 502)").
  // A bare number elsewhere (a message index, a token count) is not a status.
  new RegExp(`^${RETRY_STATUS}\\b`),
  new RegExp(`\\b(?:status(?: code)?|http|code)["':=\\s]*${RETRY_STATUS}\\b`, "i"),
  /service.?unavailable/i,
  /bad gateway|gateway time-?out/i,
  /server.?error/i,
  /internal.?error/i,
  /connection.?(?:error|refused|reset|closed|lost)/i,
  /\bE(?:CONNRESET|CONNREFUSED|CONNABORTED|TIMEDOUT|PIPE|AI_AGAIN|HOSTUNREACH|NETUNREACH)\b/,
  /socket hang up|other side closed|premature close|network.?error/i,
  /fetch failed/i,
  /upstream.?connect|reset before headers/i,
  /\bterminated\b/i,
  /timed? ?out|timeout/i,
  /retry delay/i,
  /ended without|unexpected end of/i,
  /zlib|decompress/i,
];

/** The model an error came from, as far as classification needs it. */
export type ErrorSource = Pick<Model, "baseUrl"> | undefined;

/** True when the message says the request was larger than the model's context window. */
export function isContextOverflow(message: string | undefined, model?: ErrorSource): boolean {
  if (!message) return false;
  if (RATE_LIMIT.test(message)) return false;
  if (EMPTY_400.test(message)) return Boolean(model && EMPTY_400_OVERFLOW_HOSTS.test(model.baseUrl));
  return OVERFLOW_PATTERNS.some((pattern) => pattern.test(message));
}

/** True when retrying the same request later can succeed: rate limits, overload, 5xx, network. */
export function isRetryableError(message: string | undefined, model?: ErrorSource): boolean {
  if (!message) return false;
  if (isContextOverflow(message, model)) return false;
  if (REPLAY_ERROR.test(message)) return false;
  if (NOT_RETRYABLE.test(message) && !(PER_MINUTE_QUOTA.test(message) && !DAILY_QUOTA.test(message))) return false;
  if (PERMANENT_CONNECTION.some((pattern) => pattern.test(message))) return false;
  const refused = PROXY_REFUSED.exec(message)?.[1];
  if (refused) return TRANSIENT_STATUS.test(refused);
  // A client error (400, 401, 404, 422...) fails the same way again, whatever its text mentions.
  const status = LEADING_STATUS.exec(message)?.[1];
  if (status?.startsWith("4") && !TRANSIENT_STATUS.test(status)) return false;
  return RETRYABLE.some((pattern) => pattern.test(message));
}

/**
 * A provider that silently truncates instead of failing: the reply "succeeded" but the input
 * it billed is larger than the window.
 */
export function isSilentOverflow(message: AssistantMessage, contextWindow: number): boolean {
  if (message.stopReason !== "stop" && message.stopReason !== "toolUse") return false;
  return contextWindow > 0 && message.usage.input + message.usage.cacheRead > contextWindow;
}

export type ErrorClass = "overflow" | "retryable" | "fatal";

export function classifyError(message: string | undefined, model?: ErrorSource): ErrorClass {
  if (isContextOverflow(message, model)) return "overflow";
  return isRetryableError(message, model) ? "retryable" : "fatal";
}
