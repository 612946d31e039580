/**
 * Running one classifier or image model: the request on its wire format, with the session's
 * credentials, and a result that never throws for the provider's failure (pi's `stopReason` and
 * `errorMessage`). Classifier requests are retried twice on 429, 5xx and connection failures, as
 * pi's are (OpenAI Decisions not on a gateway timeout); image requests are not retried.
 */
import type OpenAI from "openai";
import type { TypedModel } from "../model-catalog/typed.js";
import { httpFetch } from "../provider-kit/http-fetch.js";
import type { Credentials } from "./catalog-view.js";
import { DECISIONS_API, DECISIONS_LABEL, decisionsAnswers, decisionsErrorText, decisionsRequest } from "./decisions.js";
import { imagesOutput, imagesParams, imagesUsage } from "./images.js";
import { SYSTEM_ONE_TRANSPORTS, systemOneAnswers, systemOneRequest } from "./system-one.js";
import { ProviderHttpError, type ClassifierContext, type ClassifierResult, type ImagesContext, type ImagesResult } from "./types.js";
import { classifierUsage, isRecord, providerErrorText } from "./wire-common.js";

const RETRIES = 2;
const RETRY_BASE_MS = 1000;
const RETRYABLE = (status: number) => status === 408 || status === 429 || status >= 500;

export async function classify(model: TypedModel, context: ClassifierContext, credentials: () => Promise<Credentials>, signal: AbortSignal): Promise<ClassifierResult> {
  const result: ClassifierResult = { api: model.api, provider: model.provider, model: model.id, answers: {}, stopReason: "stop", timestamp: Date.now() };
  const transport = SYSTEM_ONE_TRANSPORTS[model.api];
  const label = transport?.label ?? DECISIONS_LABEL;
  try {
    if (!transport && model.api !== DECISIONS_API) throw new Error(`Unsupported classifier API: ${model.api}`);
    const request = transport ? systemOneRequest(transport, model, context) : { body: decisionsRequest(model.id, context), headers: {} };
    const granted = await credentials();
    if (!granted.apiKey) throw new Error(`No API key for provider: ${model.provider}`);
    const url = new URL(transport?.path ?? "decisions", `${granted.baseUrl.replace(/\/+$/u, "")}/`);
    const headers = { authorization: `Bearer ${granted.apiKey}`, "content-type": "application/json", ...granted.headers, ...request.headers };
    const body = await postJson(url, headers, request.body, signal, transport ? [] : [504]);
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

export async function generateImages(model: TypedModel, context: ImagesContext, credentials: () => Promise<Credentials>, signal: AbortSignal): Promise<ImagesResult> {
  const result: ImagesResult = { api: model.api, provider: model.provider, model: model.id, output: [], stopReason: "stop", timestamp: Date.now() };
  try {
    if (model.api !== "openrouter-images") throw new Error(`Unsupported image API: ${model.api}`);
    const granted = await credentials();
    if (!granted.apiKey) throw new Error(`No API key for provider: ${model.provider}`);
    const client = await imagesClient(granted);
    const response = (await client.chat.completions.create(imagesParams(model, context) as never, { signal, maxRetries: 0 })) as unknown;
    if (isRecord(response) && typeof response.id === "string") result.responseId = response.id;
    if (isRecord(response) && isRecord(response.usage)) result.usage = imagesUsage(response.usage, model);
    result.output = imagesOutput(response);
  } catch (error) {
    result.stopReason = signal.aborted ? "aborted" : "error";
    result.errorMessage = sdkErrorText(error);
  }
  return result;
}

async function imagesClient(granted: Credentials): Promise<OpenAI> {
  const [{ default: OpenAIClient }, { VERSION }] = await Promise.all([import("openai"), import("openai/version")]);
  return new OpenAIClient({
    apiKey: granted.apiKey!,
    baseURL: granted.baseUrl,
    maxRetries: 0,
    fetch: (input, init) => httpFetch(input as string | URL, init),
    organization: null,
    project: null,
    defaultHeaders: { "User-Agent": `OpenAI/JS ${VERSION}`, ...granted.headers },
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

async function postJson(url: URL, headers: Record<string, string>, body: unknown, signal: AbortSignal, noRetry: readonly number[]): Promise<unknown> {
  const payload = JSON.stringify(body);
  for (let attempt = 0; ; attempt++) {
    let response: Response;
    try {
      response = await httpFetch(url, { method: "POST", headers, body: payload, signal });
    } catch (error) {
      if (signal.aborted || attempt >= RETRIES) throw error;
      await pause(attempt, signal);
      continue;
    }
    if (response.ok) return response.json();
    const text = await response.text();
    if (attempt >= RETRIES || !RETRYABLE(response.status) || noRetry.includes(response.status)) throw new ProviderHttpError(response.status, text);
    await pause(attempt, signal);
  }
}

function pause(attempt: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(done, RETRY_BASE_MS * 2 ** attempt);
    function done() {
      signal.removeEventListener("abort", stop);
      resolve();
    }
    function stop() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener("abort", stop, { once: true });
  });
}
