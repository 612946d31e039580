/**
 * The options of a typed call as pi 1.6 takes them (`ModelsClassifierOptions`,
 * `ModelsImagesOptions`: pi-ai's provider request options and `transformHeaders`), checked
 * before the call so a wrong type is refused naming the option, and the request headers they
 * make, assembled in pi's order: identity headers, then the wire's own, the model's, the
 * credential's and the caller's (a `null` removes a header), `transformHeaders` last but for
 * the wire's own.
 */
import type { TypedModel } from "../model-catalog/typed.js";
import { presentHeaders, type RequestHeaders } from "../provider-kit/request-headers.js";
import { isRecord } from "./wire-common.js";

/** Header values; `null` suppresses a default header of that name (the provider toolkit's). */
export type CallHeaders = RequestHeaders;

/** How a request names its caller (pi's `ClientIdentity`): the User-Agent and a provider's attribution headers. */
export interface CallIdentity {
  userAgent?: "short" | "detailed" | { custom: string };
  attribution?: { name: string; url: string; categories?: readonly string[] };
  version?: string;
}

export interface TypedCallOptions {
  signal?: AbortSignal;
  /** Used instead of the provider's credential. */
  apiKey?: string;
  headers?: CallHeaders;
  /** Rewrites the credential's and caller's headers before the request is sent. */
  transformHeaders?: (headers: Record<string, string>) => CallHeaders | Promise<CallHeaders>;
  /** Per attempt. */
  timeoutMs?: number;
  /** Retries of a retryable failure (429, 5xx, a lost connection); pi's defaults: 2 for a classifier, 0 for images. */
  maxRetries?: number;
  /** The longest server-requested wait (`retry-after`) honoured; longer fails at once. 0: no limit. Default 60 s. */
  maxRetryDelayMs?: number;
  /** Sees (and may replace, by returning it) the request body before it is sent. */
  onPayload?: (payload: unknown, model: TypedModel) => unknown;
  onResponse?: (response: { status: number; headers: Record<string, string> }, model: TypedModel) => void | Promise<void>;
  fetch?: typeof globalThis.fetch;
  /** Provider-scoped variables over the environment: the key variable, `$VAR` values, address placeholders. */
  env?: Record<string, string>;
  identity?: CallIdentity;
  /** pi's telemetry span: Atomic records no telemetry, so it is accepted and unused. */
  telemetry?: unknown;
  /** A logit temperature (classifiers): only llama.cpp's classifier applies it, which Atomic does not serve. */
  temperature?: number;
  /** Request metadata (images): OpenRouter's image API takes none. */
  metadata?: Record<string, unknown>;
}

type Check = (value: unknown) => boolean;
const isFunction: Check = (value) => typeof value === "function";
const isCount: Check = (value) => typeof value === "number" && Number.isInteger(value) && value >= 0;
const isHeaders: Check = (value) => isRecord(value) && Object.values(value).every((v) => typeof v === "string" || v === null);
const isIdentity: Check = (value) => {
  if (!isRecord(value)) return false;
  const { userAgent, attribution, version } = value;
  const agentOk = userAgent === undefined || userAgent === "short" || userAgent === "detailed" || (isRecord(userAgent) && typeof userAgent.custom === "string");
  const attributionOk =
    attribution === undefined ||
    (isRecord(attribution) &&
      typeof attribution.name === "string" &&
      typeof attribution.url === "string" &&
      (attribution.categories === undefined || (Array.isArray(attribution.categories) && attribution.categories.every((c) => typeof c === "string"))));
  return agentOk && attributionOk && (version === undefined || typeof version === "string");
};

/** Each option's check and what it must be (the error names it). */
const CHECKS: Record<string, [Check, string]> = {
  signal: [(value) => value instanceof AbortSignal, "an AbortSignal"],
  apiKey: [(value) => typeof value === "string" && value !== "", "a non-empty string"],
  headers: [isHeaders, "an object of string (or null) values"],
  transformHeaders: [isFunction, "a function"],
  timeoutMs: [(value) => typeof value === "number" && Number.isFinite(value) && value > 0, "a positive number of milliseconds"],
  maxRetries: [isCount, "a whole number of 0 or more"],
  maxRetryDelayMs: [(value) => typeof value === "number" && Number.isFinite(value) && value >= 0, "a number of milliseconds, 0 or more"],
  onPayload: [isFunction, "a function"],
  onResponse: [isFunction, "a function"],
  fetch: [isFunction, "a function"],
  env: [(value) => isRecord(value) && Object.values(value).every((v) => typeof v === "string" || v === undefined), "an object of string values"],
  identity: [isIdentity, '{ userAgent?: "short" | "detailed" | { custom }, attribution?: { name, url, categories? }, version? }'],
  telemetry: [(value) => typeof value === "object" && value !== null, "an object"],
};
const ONLY: Record<string, [string, Check, string]> = {
  temperature: ["classify", (value) => typeof value === "number" && Number.isFinite(value) && value > 0, "a positive number"],
  metadata: ["generateImages", isRecord, "an object"],
};

/** What option `name` of `call` must be, as the errors word it (codemode's check words its own alike); undefined for an option `call` does not take. */
export function optionExpectation(call: "classify" | "generateImages", name: string): string | undefined {
  const only = ONLY[name];
  if (only) return only[0] === call ? only[2] : undefined;
  return CHECKS[name]?.[1];
}

/** Why `options` cannot be taken by `call` (the first wrong option), or undefined. Unset (`undefined`) options are absent. */
export function callOptionsProblem(call: "classify" | "generateImages", options: unknown): string | undefined {
  if (options === undefined || options === null) return undefined;
  if (!isRecord(options)) return `${call}: options must be an object, got ${describeOptionValue(options)}`;
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined) continue;
    const only = ONLY[name];
    const [check, expected] = only && only[0] === call ? [only[1], only[2]] : (CHECKS[name] ?? [() => true, ""]);
    if (!check(value)) return `${call}: options.${name} must be ${expected}, got ${describeOptionValue(value)}`;
  }
  return undefined;
}

/** A wrong option's value in an error: a string (cut at 40 characters), a number, or its kind. */
export function describeOptionValue(value: unknown): string {
  if (typeof value === "function") return "a function";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === "object" && value !== null) return "an object";
  return String(value);
}

/**
 * The headers of one request: identity's (when given), the request's own (auth, content type),
 * the model's, the wire's extras (TypeSafe's image opt-in), then the credential's and the
 * caller's through `transformHeaders`; a `null` at any step removes the name (case-insensitively)
 * from what came before.
 */
export async function requestHeaders(
  model: TypedModel,
  own: Record<string, string>,
  granted: Record<string, string>,
  options: TypedCallOptions,
  wire: Record<string, string> = {},
): Promise<Record<string, string>> {
  // The caller's layer keeps its nulls: they remove the request's own headers below it.
  let caller: CallHeaders = merge(granted, options.headers);
  if (options.transformHeaders) caller = await options.transformHeaders({ ...caller } as Record<string, string>);
  const identity = options.identity ? identityHeaders(model, options.identity) : {};
  const all = merge(identity, own, (model as { headers?: CallHeaders }).headers, wire, caller);
  return presentHeaders(all);
}

/** Later layers win, names compared case-insensitively; a `null` stays as the name's removal. */
function merge(...layers: (CallHeaders | undefined)[]): CallHeaders {
  const out: CallHeaders = {};
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {})) {
      for (const key of Object.keys(out)) if (key.toLowerCase() === name.toLowerCase()) delete out[key];
      out[name] = value;
    }
  }
  return out;
}

/** pi's identity headers, with Atomic as the product (its version only when the identity names one): the User-Agent, and attribution where the target takes it. */
function identityHeaders(model: TypedModel, identity: CallIdentity): Record<string, string> {
  const mode = identity.userAgent ?? "detailed";
  const product = identity.version ? `atomic/${identity.version}` : "atomic";
  const userAgent = typeof mode === "object" ? mode.custom : mode === "short" ? "atomic" : `${product} (${process.platform}; node/${process.version}; ${process.arch})`;
  const headers: Record<string, string> = { "User-Agent": userAgent };
  const attribution = identity.attribution;
  if (!attribution) return headers;
  const host = (() => {
    try {
      return new URL(model.baseUrl).hostname;
    } catch {
      return "";
    }
  })();
  if (model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai")) {
    headers["HTTP-Referer"] = attribution.url;
    headers["X-OpenRouter-Title"] = attribution.name;
    if (attribution.categories?.length) headers["X-OpenRouter-Categories"] = attribution.categories.join(",");
  } else if (model.provider === "nvidia" || host === "integrate.api.nvidia.com") {
    headers["X-BILLING-INVOKE-ORIGIN"] = attribution.name.charAt(0).toUpperCase() + attribution.name.slice(1);
  } else if (model.provider === "opencode" || model.provider === "opencode-go" || host === "opencode.ai") {
    headers["x-opencode-client"] = attribution.name;
  }
  return headers;
}
