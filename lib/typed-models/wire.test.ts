/**
 * The typed models' wire formats: the System One, Decisions and OpenRouter image requests as pi
 * 1.6 builds them (image forms by `compat.imageInput`), answers and usage read back, and the
 * error text of a failed request.
 */
import { describe, expect, it } from "vitest";
import type { TypedModel } from "../model-catalog/typed.js";
import { decisionsAnswers, decisionsRequest } from "./decisions.js";
import { imagesOutput, imagesParams, imagesUsage } from "./images.js";
import { CLOUDFLARE_WORKERS_AI, systemOneAnswers, systemOneRequest, TYPESAFE } from "./system-one.js";
import type { ClassifierContext } from "./types.js";
import { classifierUsage, providerErrorText } from "./wire-common.js";
import { ProviderHttpError } from "./types.js";

const model = (fields: Partial<TypedModel>): TypedModel => ({
  type: "classifier",
  provider: "typesafe",
  id: "jev-latest",
  name: "Jev",
  api: "typesafe-system-one",
  baseUrl: "https://api.typesafe.ai/v1/",
  input: ["text", "image"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  ...fields,
});
const PNG = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
const context: ClassifierContext = {
  state: { message: "hi" },
  questions: {
    ok: { type: "bool", instructions: "Fine?", criteria: { true: "yes", false: "no" } },
    mood: { type: "choice", instructions: "Mood?", criteria: { happy: "glad", sad: "" } },
  },
};

describe("System One requests", () => {
  it("maps bool questions to noul and sends TypeSafe's assets with its opt-in header", () => {
    const { body, headers } = systemOneRequest(TYPESAFE, model({ compat: { imageInput: "assets", sendImageOptInHeader: true } }), { ...context, images: [PNG] });
    expect(headers).toEqual({ "TypeSafe-Danger-Zone-Images": "true" });
    expect(body).toEqual({
      model: "jev-latest",
      state: ["<image-1>", { message: "hi" }],
      questions: { ok: { type: "noul", instructions: "Fine?", criteria: { true: "yes", false: "no" } }, mood: context.questions.mood },
      assets: { "<image-1>": { type: "image", format: "png", data_base64: "AAAA" } },
    });
  });

  it("puts OpenRouter's images in the state as image_url parts, without the header (detected when compat is missing)", () => {
    const { body, headers } = systemOneRequest(TYPESAFE, model({ provider: "openrouter", id: "typesafe/jev-1.13" }), { ...context, images: [PNG] });
    expect(headers).toEqual({});
    expect((body as { state: unknown }).state).toEqual([{ type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }, { message: "hi" }]);
  });

  it("sends Clef's images as data URLs inside Workers AI's input, at most four", () => {
    const clef = model({ provider: "cloudflare-workers-ai", id: "@cf/cloudflare/clef", api: CLOUDFLARE_WORKERS_AI.api });
    const { body } = systemOneRequest(CLOUDFLARE_WORKERS_AI, clef, { ...context, images: [PNG] });
    expect(body).toMatchObject({ model: "@cf/cloudflare/clef", input: { images: ["data:image/png;base64,AAAA"], state: { message: "hi" } } });
    expect(() => systemOneRequest(CLOUDFLARE_WORKERS_AI, clef, { ...context, images: [PNG, PNG, PNG, PNG, PNG] })).toThrow("at most 4 images");
  });

  it("refuses images for a text-only model and formats an asset cannot carry", () => {
    expect(() => systemOneRequest(TYPESAFE, model({ input: ["text"] }), { ...context, images: [PNG] })).toThrow("System One API does not support image input for jev-latest");
    expect(() => systemOneRequest(TYPESAFE, model({}), { ...context, images: [{ ...PNG, mimeType: "image/gif" }] })).toThrow(
      "accepts PNG and JPEG images for jev-latest, got image/gif",
    );
  });

  it("reads answers by question type and unwraps Workers AI's run record", () => {
    const wire = { ok: { type: "noul", noul: 0.25 }, mood: { type: "choice", choice: "happy", probabilities: { happy: 0.9, sad: 0.1 }, confidence: 0.9 } };
    expect(systemOneAnswers("System One API", wire, context)).toEqual({
      ok: { type: "bool", probability: 0.25 },
      mood: { type: "choice", choice: "happy", probabilities: { happy: 0.9, sad: 0.1 }, confidence: 0.9 },
    });
    expect(() => systemOneAnswers("System One API", { ok: wire.ok }, context)).toThrow("System One API did not return an answer for mood");
    expect(CLOUDFLARE_WORKERS_AI.output({ success: true, result: { state: "Completed", result: { answers: wire } } })).toEqual({ answers: wire });
    expect(() => CLOUDFLARE_WORKERS_AI.output({ success: false, errors: [{ message: "no account" }] })).toThrow("Cloudflare Workers AI error: no account");
  });
});

describe("OpenAI Decisions", () => {
  it("sends the state as JSON text, choices and levels as lists, bool as a predicate with its meanings", () => {
    const request = decisionsRequest("gpt-6-luna", {
      ...context,
      questions: { ...context.questions, level: { type: "score", instructions: "How much?", criteria: ["low", "high"] } },
    });
    expect(request).toEqual({
      model: "gpt-6-luna",
      input: '{"message":"hi"}',
      questions: [
        { type: "predicate", name: "ok", instructions: "Fine?\n\nTrue means: yes\nFalse means: no" },
        { type: "choice", name: "mood", instructions: "Mood?", choices: [{ value: "happy", description: "glad" }, { value: "sad" }] },
        { type: "score", name: "level", instructions: "How much?", levels: [{ label: "low" }, { label: "high" }] },
      ],
    });
  });

  it("reads answers by name; a refusal is an error", () => {
    const answers = [
      { name: "ok", type: "predicate", probability: 0.5 },
      { name: "mood", type: "choice", choice: "sad", probabilities: [{ value: "sad", probability: 0.6 }], confidence: 0.6 },
    ];
    expect(decisionsAnswers(answers, context)).toEqual({
      ok: { type: "bool", probability: 0.5 },
      mood: { type: "choice", choice: "sad", probabilities: { sad: 0.6 }, confidence: 0.6 },
    });
    expect(() => decisionsAnswers([{ name: "ok", type: "refusal" }, answers[1]], context)).toThrow("OpenAI Decisions refused to answer ok");
  });
});

describe("OpenRouter images", () => {
  const painter = model({
    type: "image",
    provider: "openrouter",
    id: "google/gemini-2.5-flash-image",
    api: "openrouter-images",
    output: ["image", "text"],
    cost: { input: 0.3, output: 2.5, cacheRead: 0.03, cacheWrite: 0.083333 },
  });

  it("asks for images (and text, for models that also answer in text) in one user message", () => {
    expect(imagesParams(painter, { input: [{ type: "text", text: "fox \uD800" }, PNG] })).toEqual({
      model: "google/gemini-2.5-flash-image",
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "fox " },
            { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
          ],
        },
      ],
      stream: false,
      modalities: ["image", "text"],
    });
    expect(imagesParams({ ...painter, output: ["image"] }, { input: [{ type: "text", text: "x" }] }).modalities).toEqual(["image"]);
  });

  it("returns the text, then the data-URL images; cached prompt tokens are cache reads", () => {
    const response = { choices: [{ message: { content: "Done", images: [{ image_url: { url: "data:image/png;base64,QUJD" } }, { image_url: "https://x/y.png" }] } }] };
    expect(imagesOutput(response)).toEqual([
      { type: "text", text: "Done" },
      { type: "image", mimeType: "image/png", data: "QUJD" },
    ]);
    const usage = imagesUsage({ prompt_tokens: 100, completion_tokens: 1000, prompt_tokens_details: { cached_tokens: 40 } }, painter);
    expect(usage).toMatchObject({ input: 60, cacheRead: 40, output: 1000, totalTokens: 1100 });
    expect(usage.cost.total).toBeCloseTo((60 * 0.3 + 40 * 0.03 + 1000 * 2.5) / 1e6, 12);
  });
});

describe("usage and errors", () => {
  it("prices classifier tokens with the catalog's tiers", () => {
    const luna = model({
      provider: "openai",
      id: "gpt-6-luna",
      cost: { input: 0.1, output: 0, cacheRead: 0, cacheWrite: 0 },
      costTiers: [{ aboveInputTokens: 272_000, cost: { input: 0.2, output: 0, cacheRead: 0, cacheWrite: 0 } }],
    });
    const small = classifierUsage({ input_tokens: 1000, output_tokens: 0 }, luna)!;
    const large = classifierUsage({ input_tokens: 300_000 }, luna)!;
    expect(small.cost.total).toBeCloseTo(0.0001, 12);
    expect(large.cost.total).toBeCloseTo(0.06, 12);
    expect(classifierUsage({}, luna)).toBeUndefined();
  });

  it("words an HTTP failure as pi does", () => {
    expect(providerErrorText(new ProviderHttpError(429, '{"error":"slow down"}'), "System One API")).toBe('System One API error (429): {"error":"slow down"}');
    expect(providerErrorText(new ProviderHttpError(500, ""), "System One API")).toBe("System One API error (500): System One API returned 500");
    expect(providerErrorText(new Error("fetch failed", { cause: new Error("connect ECONNREFUSED") }))).toBe("fetch failed: connect ECONNREFUSED");
  });
});
