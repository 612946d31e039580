/**
 * pi 1.6's typed-model functions of `ctx.modelRegistry` over a stand-in registry: listing by
 * type, availability by credential, and `classify()` against a loopback System One server (the
 * request as sent, the answers read back, an abort), with the refusals pi returns as results.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Model } from "../../lib/llm/index.js";
import type { ModelsApi } from "../models/api.js";
import { typedModelFunctions } from "./typed-models.js";
import { standInRegistry, UPSET_QUESTION } from "./typed-models.test-support.js";

const chat = { id: "fake-1", name: "Fake", api: "openai-completions", provider: "fake", baseUrl: "http://x" } as Model;

const registry = (baseUrls: Record<string, string> = {}): ModelsApi => standInRegistry(baseUrls, [chat]);

const context = UPSET_QUESTION;

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())).then(() => (server = undefined)));

/** A System One endpoint on 127.0.0.1; `reply` answers each request (or never, to test an abort). */
async function systemOne(reply: (body: any, request: IncomingMessage) => unknown | undefined): Promise<{ url: string; seen: { path: string; auth: string; body: any }[] }> {
  const seen: { path: string; auth: string; body: any }[] = [];
  server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      const body = JSON.parse(text);
      seen.push({ path: request.url ?? "", auth: String(request.headers.authorization), body });
      const answer = reply(body, request);
      if (answer !== undefined) response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1/`, seen };
}

describe("ctx.modelRegistry's typed models", () => {
  it("lists classifier and image models as pi's catalog has them, chat models as the registry's", () => {
    const typed = typedModelFunctions(registry, () => ({}));
    const classifiers = typed.getModelsOfType("classifier");
    expect(classifiers.some((model) => model.provider === "typesafe" && model.id === "jev-latest")).toBe(true);
    expect(classifiers.every((model) => (model as { type?: string }).type === "classifier")).toBe(true);
    expect(typed.getModelsOfType("image", "openrouter").length).toBeGreaterThan(0);
    expect(typed.getModelsOfType("image", "typesafe")).toEqual([]);
    expect(typed.getModelsOfType("chat")).toEqual([chat]);
    expect(typed.findOfType("classifier", "typesafe", "jev-latest")).toMatchObject({ type: "classifier", api: "typesafe-system-one", provider: "typesafe" });
    expect(typed.getModelOfType("chat", "fake", "fake-1")).toBe(chat);
    expect(typed.getModelOfType("image", "typesafe", "jev-latest")).toBeUndefined();
    expect(typed.getModelsOfType("video" as never)).toEqual([]);
  });

  it("offers a provider's models only with its credential", async () => {
    expect((await typedModelFunctions(registry, () => ({})).getAvailableOfType("classifier", "typesafe")).length).toBe(0);
    const available = await typedModelFunctions(registry, () => ({ TYPESAFE_API_KEY: "k" })).getAvailableOfType("classifier", "typesafe");
    expect(available.map((model) => model.id)).toContain("jev-latest");
  });

  it("classifies over the System One wire with the provider's key and reads the answers back", async () => {
    const { url, seen } = await systemOne(() => ({ answers: { upset: { type: "noul", noul: 0.9 } }, usage: { input_tokens: 12, output_tokens: 0 } }));
    const typed = typedModelFunctions(
      () => registry({ typesafe: url }),
      () => ({ TYPESAFE_API_KEY: "ts-key" }),
    );
    const jev = typed.getModelOfType("classifier", "typesafe", "jev-latest") as { provider: string; id: string };
    const result = await typed.classify(jev, context);
    expect(result).toMatchObject({ provider: "typesafe", model: "jev-latest", stopReason: "stop", answers: { upset: { type: "bool", probability: 0.9 } }, usage: { input: 12 } });
    expect(seen).toEqual([
      {
        path: "/v1/systemone",
        auth: "Bearer ts-key",
        body: { model: "jev-latest", state: context.state, questions: { upset: { ...context.questions.upset, type: "noul" } } },
      },
    ]);
  });

  it("stops a call when its signal aborts", async () => {
    const { url, seen } = await systemOne(() => undefined);
    const typed = typedModelFunctions(
      () => registry({ typesafe: url }),
      () => ({ TYPESAFE_API_KEY: "ts-key" }),
    );
    const controller = new AbortController();
    const pending = typed.classify({ provider: "typesafe", id: "jev-latest" }, context, { signal: controller.signal });
    while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await pending).toMatchObject({ stopReason: "aborted", answers: {} });
  });

  it("answers an unknown model, one of another type or one without a credential with an error result naming it (pi never rejects)", async () => {
    const typed = typedModelFunctions(registry, () => ({}));
    expect(await typed.classify({ provider: "typesafe", id: "no-such" }, context)).toMatchObject({
      stopReason: "error",
      provider: "typesafe",
      model: "no-such",
      answers: {},
      errorMessage: 'Unknown classifier model "typesafe/no-such": ctx.modelRegistry.getModelsOfType("classifier") lists them',
    });
    expect((await typed.classify(chat, context)).errorMessage).toBe('"fake/fake-1" is a chat model, not a classifier model');
    expect((await typed.generateImages({ provider: "typesafe", id: "jev-latest" }, { input: [{ type: "text", text: "a fox" }] })).errorMessage).toBe(
      '"typesafe/jev-latest" is a classifier model, not an image model',
    );
    expect((await typed.classify({ provider: "typesafe", id: "jev-latest" }, context)).errorMessage).toBe(
      'Classifier model "typesafe/jev-latest" cannot be called: provider typesafe has no credential (set TYPESAFE_API_KEY, or store a key with `atomic login typesafe`)',
    );
    expect((await typed.classify(undefined, context)).errorMessage).toMatch(/^a classifier model must name its provider and id/);
  });
});
