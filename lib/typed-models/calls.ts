/**
 * Running one classifier or image model: the request on its wire format, with the session's
 * credentials, and a result that never throws for the provider's failure (pi's `stopReason` and
 * `errorMessage`), under pi's call options (call-options.ts). Classifier requests are retried
 * twice on 429, 5xx and connection failures unless `maxRetries` says otherwise, as pi's are
 * (OpenAI Decisions not on a gateway timeout); image requests only when `maxRetries` asks.
 */
import type OpenAI from "openai";
import type { TypedModel } from "../model-catalog/typed.js";
import { httpFetch } from "../provider-kit/http-fetch.js";
import { headerRecord } from "../provider-kit/request-hooks.js";
import type { Credentials } from "./catalog-view.js";
import { DECISIONS_API, DECISIONS_LABEL, decisionsAnswers, decisionsErrorText, decisionsRequest } from "./decisions.js";
import { imagesOutput, imagesParams, imagesUsage } from "./images.js";
import { SYSTEM_ONE_TRANSPORTS, systemOneAnswers, systemOneRequest } from "./system-one.js";
import { ProviderHttpError, type ClassifierContext, type ClassifierResult, type ImagesContext, type ImagesResult } from "./types.js";
import { classifierUsage, isRecord, providerErrorText } from "./wire-common.js";
import { requestHeaders, type TypedCallOptions } from "./call-options.js";
import { attemptSignal, timeoutError, withRetries } from "./retries.js";

/** pi's default retries: a classifier's request twice, an image request not at all. */
const CLASSIFIER_RETRIES = 2;

/** A call's options, checked (`callOptionsProblem`), with the signal it runs under. */
export type CallOptions = TypedCallOptions & { signal: AbortSignal };

export async function classify(model: TypedModel, context: ClassifierContext, credentials: () => Promise<Credentials>, options: CallOptions): Promise<ClassifierResult> {
  const { signal } = options;
  const result: ClassifierResult = { api: model.api, provider: model.provider, model: model.id, answers: {}, stopReason: "stop", timestamp: Date.now() };
  const transport = SYSTEM_ONE_TRANSPORTS[model.api];
  const label = transport?.label ?? DECISIONS_LABEL;
  try {
    if (!transport && model.api !== DECISIONS_API) throw new Error(`Unsupported classifier API: ${model.api}`);
    const request = transport ? systemOneRequest(transport, model, context) : { body: decisionsRequest(model.id, context), headers: {} };
    const granted = await credentials();
    const apiKey = options.apiKey ?? granted.apiKey;
    if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
    const url = new URL(transport?.path ?? "decisions", `${granted.baseUrl.replace(/\/+$/u, "")}/`);
    const own = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
    const headers = await requestHeaders(model, own, granted.headers, options, request.headers);
    const body = await postJson(model, url, headers, request.body, options, { label, noRetry: transport ? [] : [504] });
    const output = transport ? transport.output(body) : isRecord(body) ? body : undefined;
    if (!output) throw new Error(`${label} returned an unexpected response`);
    // Set before the answers are read: a request with malformed answers was still billed.
    const usage = classifierUsage(output.usage, model);
    if (usage) result.usage = usage;
    result.answers = transport ? systemOneAnswers(label, output.answers, context) : decisionsAnswers(output.answers, context);
  } catch (error) {
    result.answers = {};
    result.stopReason = signal.aborted ? "aborted" : "error";
    const text = providerErrorText(error, label);
    result.errorMessage = transport ? text : decisionsErrorText(error instanceof ProviderHttpError ? error.status : undefined, text);
  }
  return result;
}

export async function generateImages(model: TypedModel, context: ImagesContext, credentials: () => Promise<Credentials>, options: CallOptions): Promise<ImagesResult> {
  const { signal } = options;
  const result: ImagesResult = { api: model.api, provider: model.provider, model: model.id, output: [], stopReason: "stop", timestamp: Date.now() };
  try {
    if (model.api !== "openrouter-images") throw new Error(`Unsupported image API: ${model.api}`);
    const granted = await credentials();
    const apiKey = options.apiKey ?? granted.apiKey;
    if (!apiKey) throw new Error(`No API key for provider: ${model.provider}`);
    const client = await imagesClient(model, { ...granted, apiKey }, options);
    let params: unknown = imagesParams(model, context);
    const replaced = await options.onPayload?.(params, model);
    if (replaced !== undefined) params = replaced;
    const request = { signal, maxRetries: 0, ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}) };
    const { data, response: raw } = await withRetries(() => client.chat.completions.create(params as never, request).withResponse(), {
      maxRetries: options.maxRetries ?? 0,
      ...(options.maxRetryDelayMs !== undefined ? { maxRetryDelayMs: options.maxRetryDelayMs } : {}),
      signal,
    });
    await options.onResponse?.({ status: raw.status, headers: headerRecord(raw.headers) }, model);
    const response = data as unknown;
    if (isRecord(response) && typeof response.id === "string") result.responseId = response.id;
    if (isRecord(response) && isRecord(response.usage)) result.usage = imagesUsage(response.usage, model);
    result.output = imagesOutput(response);
  } catch (error) {
    result.stopReason = signal.aborted ? "aborted" : "error";
    result.errorMessage = sdkErrorText(error);
  }
  return result;
}

async function imagesClient(model: TypedModel, granted: Credentials & { apiKey: string }, options: CallOptions): Promise<OpenAI> {
  const [{ default: OpenAIClient }, { VERSION }] = await Promise.all([import("openai"), import("openai/version")]);
  // The SDK's own User-Agent unless the caller's identity names one.
  const own: Record<string, string> = options.identity ? {} : { "User-Agent": `OpenAI/JS ${VERSION}` };
  const fetch = options.fetch ?? ((input: unknown, init?: RequestInit) => httpFetch(input as string | URL, init));
  return new OpenAIClient({
    apiKey: granted.apiKey,
    baseURL: granted.baseUrl,
    maxRetries: 0,
    fetch: fetch as never,
    organization: null,
    project: null,
    defaultHeaders: await requestHeaders(model, own, granted.headers, options),
  });
}

/** The SDK's HTTP error as pi shows it (`<status>: <error body>`), else its message. */
function sdkErrorText(error: unknown): string {
  const status = (error as { status?: unknown } | null)?.status;
  const body = (error as { error?: unknown } | null)?.error;
  if (typeof status === "number" && isRecord(body) && Object.keys(body).length > 0) {
    const text = JSON.stringify(body);
    if (!(error as Error).message.includes(text)) return providerErrorText(new ProviderHttpError(status, text));
  }
  return providerErrorText(error);
}

/** One JSON request (retried by the policy), each attempt within the caller's timeout; the parsed answer. */
async function postJson(
  model: TypedModel,
  url: URL,
  headers: Record<string, string>,
  body: unknown,
  options: CallOptions,
  wire: { label: string; noRetry: number[] },
): Promise<unknown> {
  let payload = body;
  const replaced = await options.onPayload?.(payload, model);
  if (replaced !== undefined) payload = replaced;
  const text = JSON.stringify(payload);
  const send = options.fetch ?? httpFetch;
  const response = await withRetries(
    async () => {
      const attempt = attemptSignal(options.signal, options.timeoutMs);
      let answer: Response;
      try {
        answer = (await send(url, { method: "POST", headers, body: text, signal: attempt.signal })) as Response;
      } catch (error) {
        if (attempt.timedOut()) throw timeoutError(options.timeoutMs!);
        throw error;
      }
      if (!answer.ok) throw new ProviderHttpError(answer.status, await answer.text(), answer.headers);
      return answer;
    },
    {
      maxRetries: options.maxRetries ?? CLASSIFIER_RETRIES,
      ...(options.maxRetryDelayMs !== undefined ? { maxRetryDelayMs: options.maxRetryDelayMs } : {}),
      signal: options.signal,
      noRetry: wire.noRetry,
      label: wire.label,
    },
  );
  await options.onResponse?.({ status: response.status, headers: headerRecord(response.headers) }, model);
  return response.json();
}
