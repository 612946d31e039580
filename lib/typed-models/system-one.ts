/**
 * TypeSafe's System One classifier protocol as pi 1.6 speaks it: `POST <base>/systemone` with
 * `{ model, state, questions }` (TypeSafe, OpenRouter, Vercel's gateway, OpenCode, Copilot), or
 * Cloudflare Workers AI's `POST <base>/run` with `{ model, input: { state, questions } }` and
 * its envelope around the answers. Public `bool` questions are `noul` on the wire. Images go in
 * the form the model's `compat.imageInput` names: TypeSafe's `assets` (with its opt-in header),
 * OpenRouter's `image_url` parts before the state, or Clef's `images` data URLs.
 */
import type { TypedModel } from "../model-catalog/typed.js";
import { isRecord, requiredNumber } from "./wire-common.js";
import type { ClassifierAnswer, ClassifierContext, ImageBlock } from "./types.js";

export type ImageInput = "assets" | "state-image-urls" | "images";

export interface SystemOneTransport {
  api: string;
  label: string;
  detect(model: TypedModel): { imageInput: ImageInput; sendImageOptInHeader: boolean };
  path: string;
  payload(model: TypedModel, request: Record<string, unknown>): unknown;
  /** The object holding `answers` and `usage`. */
  output(body: unknown): Record<string, unknown>;
}

const IMAGE_OPT_IN_HEADER = { "TypeSafe-Danger-Zone-Images": "true" };
const ASSET_FORMATS: Record<string, string> = { "image/png": "png", "image/jpeg": "jpeg" };
const DATA_URL_TYPES = new Set(["image/png", "image/jpeg", "image/webp"]);
/** Clef takes at most this many images per request. */
const MAX_DATA_URL_IMAGES = 4;

export const TYPESAFE: SystemOneTransport = {
  api: "typesafe-system-one",
  label: "System One API",
  // OpenRouter answers TypeSafe's form without an error but drops the images: it takes them in the state.
  detect: (model) =>
    model.provider === "openrouter" || model.baseUrl.includes("openrouter.ai")
      ? { imageInput: "state-image-urls", sendImageOptInHeader: false }
      : { imageInput: "assets", sendImageOptInHeader: true },
  path: "systemone",
  payload: (model, request) => ({ model: model.id, ...request }),
  output(body) {
    if (!isRecord(body)) throw new Error("System One API returned an unexpected response");
    return body;
  },
};

const CLOUDFLARE = "Cloudflare Workers AI";

export const CLOUDFLARE_WORKERS_AI: SystemOneTransport = {
  api: "cloudflare-workers-ai-system-one",
  label: CLOUDFLARE,
  detect: (model) => ({ imageInput: model.id.startsWith("@cf/cloudflare/clef") ? "images" : "assets", sendImageOptInHeader: false }),
  path: "run",
  payload: (model, request) => ({ model: model.id, input: request }),
  output(body) {
    if (!isRecord(body)) throw new Error(`${CLOUDFLARE} returned an unexpected response`);
    if (body.success === false) {
      const messages = Array.isArray(body.errors) ? body.errors.flatMap((error) => (isRecord(error) && typeof error.message === "string" ? [error.message] : [])) : [];
      throw new Error(messages.length > 0 ? `${CLOUDFLARE} error: ${messages.join("; ")}` : `${CLOUDFLARE} request failed`);
    }
    const result = body.result;
    if (!isRecord(result)) throw new Error(`${CLOUDFLARE} returned an unexpected response`);
    // Cloudflare's own models answer directly; third-party ones inside a run record.
    if ("answers" in result) return result;
    if (result.state !== "Completed") throw new Error(`${CLOUDFLARE} run did not complete (state: ${String(result.state)})`);
    if (!isRecord(result.result)) throw new Error(`${CLOUDFLARE} returned an unexpected response`);
    return result.result;
  },
};

export const SYSTEM_ONE_TRANSPORTS: Record<string, SystemOneTransport> = { [TYPESAFE.api]: TYPESAFE, [CLOUDFLARE_WORKERS_AI.api]: CLOUDFLARE_WORKERS_AI };

/** The request body and extra headers for one classification; throws for images the model cannot take. */
export function systemOneRequest(transport: SystemOneTransport, model: TypedModel, context: ClassifierContext): { body: unknown; headers: Record<string, string> } {
  const request: Record<string, unknown> = {
    state: context.state,
    questions: Object.fromEntries(Object.entries(context.questions).map(([id, question]) => [id, question.type === "bool" ? { ...question, type: "noul" } : question])),
  };
  let headers: Record<string, string> = {};
  const images = context.images ?? [];
  if (images.length > 0) {
    if (!model.input.includes("image")) throw new Error(`${transport.label} does not support image input for ${model.id}`);
    const detected = transport.detect(model);
    const compat = model.compat ?? {};
    addImages(transport.label, model, (compat.imageInput as ImageInput | undefined) ?? detected.imageInput, images, request);
    if ((compat.sendImageOptInHeader as boolean | undefined) ?? detected.sendImageOptInHeader) headers = { ...IMAGE_OPT_IN_HEADER };
  }
  return { body: transport.payload(model, request), headers };
}

function addImages(label: string, model: TypedModel, input: ImageInput, images: ImageBlock[], request: Record<string, unknown>): void {
  if (input === "images") {
    if (images.length > MAX_DATA_URL_IMAGES) throw new Error(`${label} accepts at most ${MAX_DATA_URL_IMAGES} images for ${model.id}, got ${images.length}`);
    request.images = images.map((image) => {
      if (!DATA_URL_TYPES.has(image.mimeType)) throw new Error(`${label} accepts PNG, JPEG, and WebP images for ${model.id}, got ${image.mimeType}`);
      return `data:${image.mimeType};base64,${image.data}`;
    });
    return;
  }
  if (input === "state-image-urls") {
    request.state = [...images.map((image) => ({ type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } })), request.state];
    return;
  }
  const assets: Record<string, unknown> = {};
  images.forEach((image, index) => {
    const format = ASSET_FORMATS[image.mimeType];
    if (!format) throw new Error(`${label} accepts PNG and JPEG images for ${model.id}, got ${image.mimeType}`);
    assets[`<image-${index + 1}>`] = { type: "image", format, data_base64: image.data };
  });
  request.assets = assets;
  // Every asset is referenced from the request, before the state.
  request.state = [...Object.keys(assets), request.state];
}

/** The answers by question id, each checked against its question's type. */
export function systemOneAnswers(label: string, value: unknown, context: ClassifierContext): Record<string, ClassifierAnswer> {
  if (!isRecord(value)) throw new Error(`${label} returned an unexpected response`);
  const answers: Record<string, ClassifierAnswer> = {};
  for (const [id, question] of Object.entries(context.questions)) {
    const answer = value[id];
    if (!isRecord(answer)) throw new Error(`${label} did not return an answer for ${id}`);
    if (question.type === "choice") {
      if (answer.type !== "choice" || typeof answer.choice !== "string") throw new Error(`${label} did not return a choice answer for ${id}`);
      answers[id] = {
        type: "choice",
        choice: answer.choice,
        probabilities: probabilities(label, answer.probabilities, id),
        confidence: requiredNumber(label, answer.confidence, `confidence for ${id}`),
      };
    } else if (question.type === "score") {
      if (answer.type !== "score") throw new Error(`${label} did not return a score answer for ${id}`);
      answers[id] = { type: "score", score: requiredNumber(label, answer.score, `score for ${id}`), confidence: requiredNumber(label, answer.confidence, `confidence for ${id}`) };
    } else {
      if (answer.type !== "noul") throw new Error(`${label} did not return a bool answer for ${id}`);
      answers[id] = { type: "bool", probability: requiredNumber(label, answer.noul, `probability for ${id}`) };
    }
  }
  return answers;
}

function probabilities(label: string, value: unknown, id: string): Record<string, number> {
  if (!isRecord(value)) throw new Error(`${label} returned invalid probabilities for ${id}`);
  return Object.fromEntries(Object.entries(value).map(([key, probability]) => [key, requiredNumber(label, probability, `probability for ${id}.${key}`)]));
}
