/**
 * What scripts and extensions list: chat models from the registry (typed "chat", without models.json headers),
 * classifier and image models from the typed catalog, available when their provider has a
 * credential (TypeSafe's from its own variable; OpenAI's Decisions API not through a ChatGPT
 * login), each with models.json's base URL for its provider.
 */
import { describe, expect, it } from "vitest";
import type { Model } from "../llm/index.js";
import { ModelCatalogView, type TypedModelsRegistry } from "./catalog-view.js";

function registry(options: { keys: string[]; logins?: string[]; baseUrls?: Record<string, string>; unsetAddress?: Record<string, string[]> }): TypedModelsRegistry {
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
    missingAddressVariables: (model: { provider: string }) => options.unsetAddress?.[model.provider] ?? [],
  } as unknown as TypedModelsRegistry;
}

describe("the catalog view by type", () => {
  it("lists chat models typed, without headers; classifier and image models as pi's catalog has them", async () => {
    const view = new ModelCatalogView(registry({ keys: [] }), {});
    expect(view.list("chat")).toEqual([{ type: "chat", id: "fake-1", name: "Fake", api: "openai-completions", provider: "fake", baseUrl: "http://x" }]);
    const luna = view.find("classifier", "openai", "gpt-6-luna");
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
    expect(view.find("image", "openai", "gpt-6-luna")).toBeUndefined();
    expect(view.list("image", "openrouter").every((model) => model.type === "image" && model.api === "openrouter-images")).toBe(true);
  });

  it("offers the models of providers with a credential; TypeSafe's from TYPESAFE_API_KEY; Luna not through a login", async () => {
    const providers = (view: ModelCatalogView) => [...new Set(view.available("classifier").map((model) => model.provider))].sort();
    expect(providers(new ModelCatalogView(registry({ keys: ["openai", "openrouter"] }), {}))).toEqual(["openai", "openrouter"]);
    expect(providers(new ModelCatalogView(registry({ keys: ["openai"], logins: ["openai"] }), { TYPESAFE_API_KEY: "k" }))).toEqual(["typesafe"]);
  });

  it("takes models.json's base URL for the provider", async () => {
    const view = new ModelCatalogView(registry({ keys: [], baseUrls: { typesafe: "http://127.0.0.1:9/v1/" } }), {});
    expect(view.typed("classifier", "typesafe", "jev-latest")?.baseUrl).toBe("http://127.0.0.1:9/v1/");
    expect(view.find("classifier", "typesafe", "jev-latest")?.baseUrl).toBe("http://127.0.0.1:9/v1/");
    expect(await view.credentials(view.typed("classifier", "typesafe", "jev-latest")!, new AbortController().signal)).toEqual({
      headers: {},
      baseUrl: "http://127.0.0.1:9/v1/",
    });
  });

  it("says why a model cannot be called: no credential, a login the API refuses, an unset address variable", () => {
    const view = new ModelCatalogView(
      registry({ keys: ["openai", "cloudflare-workers-ai"], logins: ["openai"], unsetAddress: { "cloudflare-workers-ai": ["CLOUDFLARE_ACCOUNT_ID"] } }),
      {},
    );
    expect(view.unavailableReason(view.typed("classifier", "typesafe", "jev-latest")!)).toBe(
      "provider typesafe has no credential (set TYPESAFE_API_KEY, or store a key with `atomic login typesafe`)",
    );
    expect(view.unavailableReason(view.typed("classifier", "openai", "gpt-6-luna")!)).toMatch(/^OpenAI's Decisions API takes an API key, and openai is used through a login/);
    expect(view.unavailableReason(view.list("classifier", "cloudflare-workers-ai").map((info) => view.typed("classifier", info.provider, info.id)!)[0]!)).toBe(
      "its address needs CLOUDFLARE_ACCOUNT_ID, which is not set",
    );
    expect(view.available("classifier", "cloudflare-workers-ai")).toEqual([]);
    expect(view.list("classifier", "cloudflare-workers-ai").length).toBeGreaterThan(0);
  });

  it("names the type a model has when it is not the one asked for", () => {
    const view = new ModelCatalogView(registry({ keys: [] }), {});
    expect(view.otherType("classifier", "fake", "fake-1")).toBe("chat");
    expect(view.otherType("image", "openai", "gpt-6-luna")).toBe("classifier");
    expect(view.otherType("classifier", "typesafe", "no-such")).toBeUndefined();
  });
});
