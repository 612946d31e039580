/**
 * What scripts list: chat models from the registry (typed "chat", without models.json headers),
 * classifier and image models from the typed catalog, available when their provider has a
 * credential (TypeSafe's from its own variable; OpenAI's Decisions API not through a ChatGPT
 * login), each with models.json's base URL for its provider.
 */
import { describe, expect, it } from "vitest";
import type { Model } from "../../../lib/llm/index.js";
import type { ModelsApi } from "../../models/api.js";
import { ModelCatalogView } from "./catalog-view.js";

function registry(options: { keys: string[]; logins?: string[]; baseUrls?: Record<string, string> }): ModelsApi {
  const chat = { id: "fake-1", name: "Fake", api: "openai-completions", provider: "fake", baseUrl: "http://x", headers: { secret: "s" } } as unknown as Model;
  return {
    all: () => [chat],
    available: () => [chat],
    find: (provider: string, id: string) => (provider === "fake" && id === "fake-1" ? chat : undefined),
    hasProvider: (provider: string) => provider !== "typesafe",
    authStatus: (provider: string) => ({ configured: options.keys.includes(provider) }),
    usesLogin: (provider: string) => options.logins?.includes(provider) ?? false,
    baseUrlOverride: (provider: string) => options.baseUrls?.[provider],
    apiKey: async () => undefined,
    missingAddressVariables: () => [],
  } as unknown as ModelsApi;
}

describe("the models global's catalog view", () => {
  it("lists chat models typed, without headers; classifier and image models as pi's catalog has them", async () => {
    const view = new ModelCatalogView(registry({ keys: [] }), {});
    expect(await view.list("chat")).toEqual([{ type: "chat", id: "fake-1", name: "Fake", api: "openai-completions", provider: "fake", baseUrl: "http://x" }]);
    const luna = await view.find("classifier", "openai", "gpt-6-luna");
    expect(luna).toEqual({
      type: "classifier",
      id: "gpt-6-luna",
      name: "GPT-6 Luna",
      api: "openai-decisions",
      provider: "openai",
      baseUrl: "https://api.openai.com/v1",
      input: ["text", "image"],
      cost: { input: 0.1, output: 0, cacheRead: 0, cacheWrite: 0, tiers: [{ inputTokensAbove: 272000, input: 0.2, output: 0, cacheRead: 0, cacheWrite: 0 }] },
      contextWindow: 922000,
    });
    expect(await view.find("image", "openai", "gpt-6-luna")).toBeUndefined();
    expect((await view.list("image", "openrouter")).every((model) => model.type === "image" && model.api === "openrouter-images")).toBe(true);
  });

  it("offers the models of providers with a credential; TypeSafe's from TYPESAFE_API_KEY; Luna not through a login", async () => {
    const providers = async (view: ModelCatalogView) => [...new Set((await view.available("classifier")).map((model) => model.provider))].sort();
    expect(await providers(new ModelCatalogView(registry({ keys: ["openai", "openrouter"] }), {}))).toEqual(["openai", "openrouter"]);
    expect(await providers(new ModelCatalogView(registry({ keys: ["openai"], logins: ["openai"] }), { TYPESAFE_API_KEY: "k" }))).toEqual(["typesafe"]);
  });

  it("takes models.json's base URL for the provider", async () => {
    const view = new ModelCatalogView(registry({ keys: [], baseUrls: { typesafe: "http://127.0.0.1:9/v1/" } }), {});
    expect((await view.typed("classifier", "typesafe", "jev-latest"))?.baseUrl).toBe("http://127.0.0.1:9/v1/");
    expect((await view.find("classifier", "typesafe", "jev-latest"))?.baseUrl).toBe("http://127.0.0.1:9/v1/");
    expect(await view.credentials((await view.typed("classifier", "typesafe", "jev-latest"))!, new AbortController().signal)).toEqual({
      headers: {},
      baseUrl: "http://127.0.0.1:9/v1/",
    });
  });
});
