/**
 * The text a failed request leaves in `errorMessage`: the SDK's own wording ("<status> <body>")
 * when it has one, the server's body when the SDK dropped it, numeric in-stream error codes,
 * and the retry delay a `retry-after` header asked for. Retry and overflow checks read it.
 */
import { retryAfterNote } from "./retry-delay.js";

/** The last HTTP error response of a request, as the capturing fetch saw it. */
export interface HttpFailure {
  status: number;
  body: string;
  retryAfterMs?: number;
}

const MAX_BODY_CHARS = 2000;
/**
 * The most an error text keeps: an SDK puts the whole error body in its message, and a body
 * may be a megabyte (http-body.ts). The status and the message lead; the rest is cut.
 */
export const MAX_ERROR_CHARS = 4000;

/** The error text for `error`, completed from the HTTP response the SDK read, if any. */
export function failureText(error: unknown, http?: HttpFailure): string {
  // Shortened first: the retry delay noted after it must stay.
  let text = shortened(errorText(error));
  const status = statusOf(error);
  if (http && (status === undefined || status === http.status)) {
    const lost = /\(no body\)|^\d{3} status code/i.test(text) || (status !== undefined && text.trim() === String(status));
    const body = bodyMessage(http.body);
    if (body && lost) text = `${http.status} ${body}`;
    if (http.retryAfterMs !== undefined) text = `${text} ${retryAfterNote(http.retryAfterMs)}`;
  }
  return text;
}

function shortened(text: string): string {
  if (text.length <= MAX_ERROR_CHARS) return text;
  return `${text.slice(0, MAX_ERROR_CHARS)}… (${text.length - MAX_ERROR_CHARS} more characters)`;
}

/** The SDK's own wording (status + body text) is kept: retry and overflow checks read it. */
export function errorText(error: unknown): string {
  // A JSON parse failure inside an SDK means the provider sent a broken stream record.
  if (error instanceof SyntaxError) return `Malformed response from provider: ${error.message}`;
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const detail = cause instanceof Error && cause.message && !error.message.includes(cause.message) ? ` (${cause.message})` : "";
    const message = (error.message || error.name) + detail;
    // Keep "<status> <text>" for every SDK (some put the status only in a property).
    const status = statusOf(error);
    if (status !== undefined) return message.startsWith(String(status)) ? message : `${status} ${message}`;
    // An in-stream error has no status: its code/type ("server_error", OpenRouter's 502) is
    // what tells a transient failure apart, and some SDKs keep it only in a property.
    const { code, type } = error as { code?: unknown; type?: unknown };
    if (typeof code === "number" && !message.includes(String(code))) return `${message} (code ${code})`;
    const kind = [code, type].find((value): value is string => typeof value === "string" && value !== "" && !message.includes(value));
    return kind ? `${message} (${kind})` : message;
  }
  if (typeof error === "string") return error;
  try {
    return JSON.stringify(error);
  } catch {
    return String(error);
  }
}

function statusOf(error: unknown): number | undefined {
  // The AWS SDK keeps it in `$metadata.httpStatusCode`.
  const found = error as { status?: unknown; $metadata?: { httpStatusCode?: unknown } } | null;
  const status = found?.status ?? found?.$metadata?.httpStatusCode;
  return typeof status === "number" ? status : undefined;
}

/**
 * What an error body says: `error.message`, a top-level `message` (vLLM, FastAPI-style
 * `{"object":"error","message":...}`), `detail`, else the raw text, shortened.
 */
function bodyMessage(body: string): string | undefined {
  const trimmed = body.trim();
  if (trimmed === "") return undefined;
  try {
    const json = JSON.parse(trimmed) as Record<string, unknown>;
    const nested = json.error as Record<string, unknown> | string | undefined;
    const candidates = [typeof nested === "object" && nested ? nested.message : nested, json.message, json.detail];
    const found = candidates.find((value): value is string => typeof value === "string" && value !== "");
    if (found) return found;
  } catch {
    // not JSON: the text itself
  }
  return trimmed.length > MAX_BODY_CHARS ? `${trimmed.slice(0, MAX_BODY_CHARS)}…` : trimmed;
}
