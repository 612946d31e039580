import { describe, expect, it } from "vitest";
import type { Model } from "../../../lib/llm/index.js";
import type { AgentApi } from "../../agent/api.js";
import type { ModelsApi } from "../../models/api.js";
import { modelRuntimeClasses } from "./model-runtime.js";

const fake = (provider: string, id: string) => ({ provider, id, name: id }) as Model;
const catalog = [fake("a", "one"), fake("a", "two"), fake("b", "three")];
const models = {
  all: () => catalog,
  available: () => catalog.filter((model) => model.provider === "a"),
  modelsOf: (provider: string) => catalog.filter((model) => model.provider === provider),
  find: (provider: string, id: string) => catalog.find((model) => model.provider === provider && model.id === id),
  providers: () => ["a", "b"],
  authStatus: (provider: string) => ({ configured: provider === "a" }),
  reloadCredentials: async () => {},
  usesLogin: () => false,
  hasProvider: (provider: string) => provider === "a" || provider === "b",
  baseUrlOverride: () => undefined,
  missingAddressVariables: () => [],
  diagnostics: () => ({ modelsJson: { path: "/agent/models.json", state: "loaded", providers: [] } }),
} as unknown as ModelsApi;
const { ModelRuntime, ModelRegistry } = modelRuntimeClasses({ models: () => models, agent: () => ({}) as AgentApi, env: () => ({}), agentDir: "/agent" });

describe("ModelRuntime and ModelRegistry as views of the running agent's catalog", () => {
  it("reads the catalog, availability and auth", async () => {
    const runtime = await ModelRuntime.create({ authPath: "/agent/auth.json", signal: new AbortController().signal });
    expect(runtime.getModels().map((model) => model.id)).toEqual(["one", "two", "three"]);
    expect(runtime.getModels("b").map((model) => model.id)).toEqual(["three"]);
    expect(runtime.getModelsOfType("chat", "b").map((model) => model.id)).toEqual(["three"]);
    // The typed catalog is ctx.modelRegistry's (lib/typed-models): image models listed, none available without a key.
    expect(runtime.getModelsOfType("image", "openrouter").length).toBeGreaterThan(0);
    expect(runtime.getModelOfType("classifier", "typesafe", "jev-latest")).toMatchObject({ type: "classifier", provider: "typesafe" });
    expect(await runtime.getAvailableOfType("image")).toEqual([]);
    expect(await runtime.classify({ provider: "typesafe", id: "nope" }, { state: {}, questions: {} })).toMatchObject({
      stopReason: "error",
      errorMessage: 'Unknown classifier model "typesafe/nope": ctx.modelRegistry.getModelsOfType("classifier") lists them',
    });
    expect((await runtime.getAvailable()).map((model) => model.id)).toEqual(["one", "two"]);
    expect(await runtime.getAvailable("b")).toEqual([]);
    expect([runtime.hasConfiguredAuth("a"), runtime.hasConfiguredAuth("b")]).toEqual([true, false]);
    expect(runtime.getError()).toBeUndefined();
    const registry = new ModelRegistry(runtime);
    expect(registry.find("a", "two")?.id).toBe("two");
    expect(registry.getAvailable().map((model) => model.id)).toEqual(["one", "two"]);
    expect(registry.getRegisteredProviderIds()).toEqual(["a", "b"]);
  });

  it("refuses another catalog, a direct construction and the operations Atomic does elsewhere", async () => {
    await expect(ModelRuntime.create({ modelsPath: "/elsewhere/models.json" })).rejects.toThrow(/ModelRuntime.create\(\{ modelsPath \}\) is not supported in Atomic/);
    expect(() => new ModelRuntime()).toThrow("use `await ModelRuntime.create()`");
    expect(() => new ModelRegistry({} as never)).toThrow(/pass the runtime/);
    const runtime = await ModelRuntime.create();
    expect(() => runtime.logout("a")).toThrow("ModelRuntime.logout() is not available in Atomic: run `atomic logout <provider>`");
    expect(() => new ModelRegistry(runtime).registerProvider("x")).toThrow(
      /ModelRegistry.registerProvider\(\) is not available in Atomic: register providers with pi.registerProvider\(\)/,
    );
  });
});
