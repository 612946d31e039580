/**
 * What the classifier and image wire formats share: JSON checks, usage priced from the catalog
 * (as chat usage is), and the error text pi composes for a failed request.
 */
import type { Usage } from "../llm/index.js";
import type { TypedModel } from "../model-catalog/typed.js";
import { ProviderHttpError, type ModelUsage } from "./types.js";

/** Longest provider error body a result quotes (pi's cap). */
const MAX_ERROR_BODY_CHARS = 4000;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function requiredNumber(label: string, value: unknown, field: string): number {
  if (typeof value !== "number" || !Number.isFinite(value)) throw new Error(`${label} returned an invalid ${field}`);
  return value;
}

const tokenCount = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);

type Counts = Omit<Usage, "cost" | "totalTokens">;

/**
 * Counts priced as pi prices classifier calls: at the tier the prompt falls in, each part
 * (rate / 1M) × tokens, in pi's order of operations so the sums are the same to the last bit.
 */
export function classifierCost(model: TypedModel, counts: Counts): ModelUsage {
  const prompt = counts.input + counts.cacheRead + counts.cacheWrite;
  let rates = model.cost;
  let threshold = -1;
  for (const tier of model.costTiers ?? []) {
    if (prompt > tier.aboveInputTokens && tier.aboveInputTokens > threshold) {
      rates = tier.cost;
      threshold = tier.aboveInputTokens;
    }
  }
  const input = (rates.input / 1000000) * counts.input;
  const output = (rates.output / 1000000) * counts.output;
  const cacheRead = (rates.cacheRead / 1000000) * counts.cacheRead;
  const cacheWrite = (rates.cacheWrite * counts.cacheWrite) / 1000000;
  return usageOf(counts, { input, output, cacheRead, cacheWrite });
}

/** Counts priced as pi prices image calls: the base prices, each part (rate / 1M) × tokens. */
export function imageCost(model: TypedModel, counts: Counts): ModelUsage {
  const part = (rate: number, tokens: number) => (rate / 1000000) * tokens;
  const { cost } = model;
  return usageOf(counts, {
    input: part(cost.input, counts.input),
    output: part(cost.output, counts.output),
    cacheRead: part(cost.cacheRead, counts.cacheRead),
    cacheWrite: part(cost.cacheWrite, counts.cacheWrite),
  });
}

function usageOf(counts: Counts, parts: Omit<Usage["cost"], "total">): ModelUsage {
  const total = parts.input + parts.output + parts.cacheRead + parts.cacheWrite;
  return { ...counts, totalTokens: counts.input + counts.output + counts.cacheRead + counts.cacheWrite, cost: { ...parts, total, totalFromProvider: false } };
}

/** `{ input_tokens, output_tokens }` priced; missing or malformed usage is none rather than a failure. */
export function classifierUsage(value: unknown, model: TypedModel): ModelUsage | undefined {
  if (!isRecord(value) || (value.input_tokens === undefined && value.output_tokens === undefined)) return undefined;
  return classifierCost(model, { input: tokenCount(value.input_tokens), output: tokenCount(value.output_tokens), cacheRead: 0, cacheWrite: 0 });
}

/** `<label> error (<status>): <body>` for an HTTP failure, else the error's own message (a connection's cause appended). */
export function providerErrorText(error: unknown, label?: string): string {
  if (error instanceof ProviderHttpError) {
    const body = error.body.trim();
    const shown = body.length > MAX_ERROR_BODY_CHARS ? `${body.slice(0, MAX_ERROR_BODY_CHARS)}... [truncated ${body.length - MAX_ERROR_BODY_CHARS} chars]` : body;
    const head = label ? `${label} error (${error.status})` : String(error.status);
    return shown ? `${head}: ${shown}` : `${head}: ${label ?? "Request"} returned ${error.status}`;
  }
  if (!(error instanceof Error)) return String(error);
  let cause: unknown = error.cause;
  let deepest: Error | undefined;
  for (let depth = 0; depth < 5 && cause instanceof Error; depth++) {
    deepest = cause;
    cause = cause.cause;
  }
  const detail = deepest ? (deepest.message || deepest.name).trim() : "";
  return detail && !error.message.includes(detail) ? `${error.message}: ${detail}` : error.message;
}
