/**
 * The HTTP requests of logins and refreshes: to the provider's address (or, in tests only, the
 * loopback test origin: lib/oauth/endpoints.ts), through the same fetch as provider requests (the
 * environment's proxy honoured), each bounded by 30 s. A request cut short because the login was
 * cancelled says so rather than showing the abort's internals.
 */
import { oauthEndpoint } from "../../lib/oauth/index.js";
import { httpFetch } from "../../lib/provider-kit/http-fetch.js";
import type { FlowContext } from "./flow.js";

const REQUEST_TIMEOUT_MS = 30_000;

export const LOGIN_CANCELLED = "Login cancelled";

export interface OAuthResponse {
  status: number;
  ok: boolean;
  /** The body as JSON when it is an object, else undefined. */
  json: Record<string, unknown> | undefined;
  text: string;
}

type Body = { form: Record<string, string> } | { json: unknown } | undefined;

export async function oauthRequest(context: FlowContext, url: string, signal: AbortSignal, body?: Body, headers: Record<string, string> = {}): Promise<OAuthResponse> {
  const target = oauthEndpoint(url, context.env);
  const init: RequestInit = {
    method: body ? "POST" : "GET",
    headers: { Accept: "application/json", ...headers },
    signal: AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)]),
  };
  if (body && "form" in body) {
    init.body = new URLSearchParams(body.form).toString();
    (init.headers as Record<string, string>)["Content-Type"] = "application/x-www-form-urlencoded";
  } else if (body) {
    init.body = JSON.stringify(body.json);
    (init.headers as Record<string, string>)["Content-Type"] = "application/json";
  }
  let response: Response;
  let text: string;
  try {
    response = await httpFetch(target, init);
    text = await response.text();
  } catch (error) {
    if (signal.aborted) throw new Error(LOGIN_CANCELLED);
    throw new Error(`Cannot reach ${new URL(url).host}: ${(error as Error).message}`);
  }
  return { status: response.status, ok: response.ok, json: parseObject(text), text };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The server's own words about a failure: `error_description`, `message`, `error` (a string or `{message}`), else the body. */
export function errorDetail(response: OAuthResponse): string {
  const json = response.json;
  for (const key of ["error_description", "detail", "message"]) {
    const value = json?.[key];
    if (typeof value === "string" && value.trim()) return value.trim();
  }
  const error = json?.error;
  if (typeof error === "string") return error;
  if (error && typeof error === "object" && typeof (error as { message?: unknown }).message === "string") return (error as { message: string }).message;
  return response.text.trim().slice(0, 300) || `HTTP ${response.status}`;
}

/** The OAuth error code (`invalid_grant`, `authorization_pending`, ...), from `error` or `error.code`. */
export function errorCode(response: OAuthResponse): string | undefined {
  const error = response.json?.error;
  if (typeof error === "string") return error;
  if (error && typeof error === "object" && typeof (error as { code?: unknown }).code === "string") return (error as { code: string }).code;
  return undefined;
}

/** A refresh the server refused for good: the token is revoked, expired or spent (RFC 6749 `invalid_grant`, 401, 403). */
export function refusedRefresh(response: OAuthResponse): boolean {
  const code = errorCode(response);
  return response.status === 401 || response.status === 403 || code === "invalid_grant" || code === "invalid_token" || code === "unauthorized_client";
}

/** An `http:`/`https:` address from a server (one the user is told to open), normalized; else undefined. */
export function trustedUrl(value: unknown, httpsOnly = false): string | undefined {
  if (typeof value !== "string" || !URL.canParse(value)) return undefined;
  const url = new URL(value);
  if (url.protocol === "https:" || (!httpsOnly && url.protocol === "http:")) return url.href;
  return undefined;
}

export function requiredString(json: Record<string, unknown> | undefined, field: string, what: string): string {
  const value = json?.[field];
  if (typeof value !== "string" || value === "") throw new Error(`${what}: the answer has no ${field}`);
  return value;
}

export function positiveNumber(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : undefined;
}
