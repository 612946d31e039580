/**
 * Image generation over OpenRouter's Chat Completions endpoint as pi 1.6 asks for it: one user
 * message of text and `image_url` parts, `stream: false`, and `modalities` (`["image", "text"]`
 * for models that also answer in text). Images come back as data URLs in `message.images`.
 */
import type { TypedModel } from "../model-catalog/typed.js";
import type { ImagesContext, ImagesResult, ModelUsage } from "./types.js";
import { imageCost, isRecord } from "./wire-common.js";

export function imagesParams(model: TypedModel, context: ImagesContext): Record<string, unknown> {
  const content = context.input.map((item) =>
    item.type === "text" ? { type: "text", text: withoutLoneSurrogates(item.text) } : { type: "image_url", image_url: { url: `data:${item.mimeType};base64,${item.data}` } },
  );
  return {
    model: model.id,
    messages: [{ role: "user", content }],
    stream: false,
    modalities: model.output?.includes("text") ? ["image", "text"] : ["image"],
  };
}

/** The first choice's text, then its images (data URLs only). */
export function imagesOutput(response: unknown): ImagesResult["output"] {
  const output: ImagesResult["output"] = [];
  const choices = isRecord(response) && Array.isArray(response.choices) ? response.choices : [];
  const message = isRecord(choices[0]) && isRecord(choices[0].message) ? choices[0].message : undefined;
  if (!message) return output;
  if (typeof message.content === "string" && message.content.length > 0) output.push({ type: "text", text: message.content });
  for (const image of Array.isArray(message.images) ? message.images : []) {
    if (!isRecord(image)) continue;
    const url = typeof image.image_url === "string" ? image.image_url : isRecord(image.image_url) ? image.image_url.url : undefined;
    const match = typeof url === "string" ? /^data:([^;]+);base64,(.+)$/s.exec(url) : null;
    if (match) output.push({ type: "image", mimeType: match[1]!, data: match[2]! });
  }
  return output;
}

/** Lone UTF-16 surrogates dropped (JSON would carry them; providers reject them). */
const withoutLoneSurrogates = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "");

const count = (value: unknown) => (typeof value === "number" && Number.isFinite(value) && value > 0 ? value : 0);

/** Chat Completions usage: cached prompt tokens are cache reads (less the writes OpenRouter reports). */
export function imagesUsage(raw: Record<string, unknown>, model: TypedModel): ModelUsage {
  const details = isRecord(raw.prompt_tokens_details) ? raw.prompt_tokens_details : {};
  const cached = count(details.cached_tokens);
  const cacheWrite = count(details.cache_write_tokens);
  const cacheRead = cacheWrite > 0 ? Math.max(0, cached - cacheWrite) : cached;
  const input = Math.max(0, count(raw.prompt_tokens) - cacheRead - cacheWrite);
  return imageCost(model, { input, output: count(raw.completion_tokens), cacheRead, cacheWrite });
}
