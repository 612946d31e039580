import { describe, expect, it } from "vitest";
import { ONE_SHOT } from "../../kernel/index.js";
import { parseModelsJson } from "./models-json.js";
import { plainProvider } from "./models-json-plain.js";
import { modelsSchemas } from "./models-json-schema.js";

/** What checkProvider gives through the schemas, for a block they accept whole. */
function throughSchemas(raw: unknown): unknown {
  const schemas = modelsSchemas();
  const fields = schemas.ProviderFields.safeParse(raw, ONE_SHOT);
  if (!fields.success) return undefined;
  const models = [];
  for (const entry of fields.data.models ?? []) {
    const parsed = schemas.ModelEntry.safeParse(entry, ONE_SHOT);
    if (!parsed.success) return undefined;
    models.push(parsed.data);
  }
  const { models: _models, modelOverrides: _overrides, ...own } = fields.data;
  return { ...own, ...(fields.data.models ? { models } : {}) };
}

const plain = [
  {},
  { baseUrl: "http://127.0.0.1:1/v1", api: "openai-completions", apiKey: "k", models: [{ id: "m" }] },
  {
    extra: 1,
    models: [
      {
        cost: { cacheWrite: 0, output: 2, input: 1 },
        id: "a",
        contextWindow: 128000,
        maxTokens: 4096,
        unknown: { deep: [1] },
        name: "A",
        input: ["image", "text"],
        reasoning: true,
      },
    ],
    headers: { "x-b": "2", "x-a": "1" },
    compat: { supportsDeveloperRole: false, nested: { a: 1 } },
    authHeader: true,
    name: "P",
    oauth: "anthropic",
    apiKey: "",
  },
  { models: [], api: "anthropic-messages", baseUrl: "https://example.test" },
];

const notVouchedFor = [
  null,
  [],
  "text",
  { baseUrl: "" },
  { api: 3 },
  { headers: { a: 1 } },
  { models: {} },
  { models: null },
  { models: [{}] },
  { models: [{ id: "" }] },
  { models: [{ id: "m", contextWindow: 0 }] },
  { models: [{ id: "m", maxTokens: 1.5 }] },
  { models: [{ id: "m", input: ["audio"] }] },
  { models: [{ id: "m", cost: { input: -1, output: 1 } }] },
  { models: [{ id: "m", cost: { input: 1 } }] },
  { models: [{ id: "m", cost: { input: 1, output: 1, tiers: [] } }] },
  { models: [{ id: "m", thinkingLevels: ["high"] }] },
  { models: [{ id: "m", reasoning: "yes" }] },
  { modelOverrides: {} },
  { modelOverrides: { m: { name: "x" } } },
  JSON.parse('{"headers": {"__proto__": "x"}}'),
];

describe("models.json without zod", () => {
  it("gives the schemas' very value (fields and their order) for the plain blocks", () => {
    for (const raw of plain) {
      const fast = plainProvider(raw);
      expect(fast).toBeDefined();
      expect(JSON.stringify(fast)).toBe(JSON.stringify(throughSchemas(raw)));
    }
  });

  it("leaves to the schemas every block it does not vouch for, valid or not", () => {
    for (const raw of notVouchedFor) expect(plainProvider(raw), JSON.stringify(raw)).toBeUndefined();
  });

  it("keeps the schemas' errors for a broken entry", () => {
    const result = parseModelsJson(JSON.stringify({ providers: { p: { api: "openai-completions", models: [{ id: "ok" }, { id: "bad", contextWindow: -1 }] } } }), "/m.json");
    expect(result.problems).toEqual([expect.stringContaining("Invalid providers.p.models.1.contextWindow: expected")]);
    expect(result.file?.providers.p?.models?.map((model) => model.id)).toEqual(["ok"]);
  });
});
