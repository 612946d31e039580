/**
 * What the classifier and image wire formats share: JSON checks, usage priced from the catalog
 * (as chat usage is), and the error text pi composes for a failed request.
 */
import { emptyUsage, type Model, type Usage } from "../../../lib/llm/index.js";
import { computeCost } from "../../../lib/provider-kit/index.js";
import type { TypedModel } from "../../../lib/model-catalog/typed.js";
import { ProviderHttpError } from "./types.js";

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

/** A typed entry as the pricing code and the registry's credential lookup take a model. */
export function asModel(model: TypedModel): Model {
  return { ...model, reasoning: false, contextWindow: model.contextWindow ?? 0, maxTokens: 0 } as unknown as Model;
}

export function withCost(model: TypedModel, counts: Omit<Usage, "cost" | "totalTokens">): Usage {
  const usage: Usage = { ...emptyUsage(), ...counts, totalTokens: counts.input + counts.output + counts.cacheRead + counts.cacheWrite };
  usage.cost = computeCost(asModel(model), usage);
  return usage;
}

/** `{ input_tokens, output_tokens }` priced; missing or malformed usage is none rather than a failure. */
export function classifierUsage(value: unknown, model: TypedModel): Usage | undefined {
  if (!isRecord(value) || (value.input_tokens === undefined && value.output_tokens === undefined)) return undefined;
  return withCost(model, { input: tokenCount(value.input_tokens), output: tokenCount(value.output_tokens), cacheRead: 0, cacheWrite: 0 });
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
