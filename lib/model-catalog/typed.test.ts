/**
 * The typed catalog (classifier and image models) against pi-ai 1.6.0's data: every classifier and
 * image model of every provider, with its API, address, inputs, outputs, prices and image-input
 * form. (pi lists `openai/gpt-6-luna` as both: a chat model and a Decisions classifier.)
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readDataFiles } from "./index.js";
import { compileTypedCatalog, readTypedDataFiles } from "./typed.js";

const PI_DATA = new URL("../../node_modules/@earendil-works/pi-ai/dist/providers/data/", import.meta.url);
type PiModel = {
  type: string;
  provider: string;
  id: string;
  name: string;
  api: string;
  baseUrl: string;
  input: string[];
  output?: string[];
  cost: Record<string, unknown>;
  contextWindow?: number;
  compat?: unknown;
};
const pi = readdirSync(PI_DATA)
  .filter((name) => name.endsWith(".json") && !name.startsWith("."))
  .flatMap((name) => Object.values(JSON.parse(readFileSync(new URL(name, PI_DATA), "utf8")) as Record<string, Record<string, PiModel>>).flatMap((group) => Object.values(group)))
  .filter((model) => model.type === "classifier" || model.type === "image");
const files = await readTypedDataFiles();
const typed = files.flatMap((file) => file.models.map((model) => ({ ...model, provider: file.provider })));

describe("the typed catalog matches pi-ai 1.6.0", () => {
  it("the same classifier and image models per provider", () => {
    const key = (m: { provider: string; type: string; id: string }) => `${m.provider}/${m.type}/${m.id}`;
    expect(typed.map(key).sort()).toEqual(pi.map(key).sort());
    expect(new Set(typed.map((m) => m.api))).toEqual(new Set(["typesafe-system-one", "cloudflare-workers-ai-system-one", "openai-decisions", "openrouter-images"]));
  });

  it("field for field", () => {
    for (const model of pi) {
      const ours = typed.find((m) => m.provider === model.provider && m.type === model.type && m.id === model.id)!;
      expect([ours.name, ours.api, ours.baseUrl, ours.input, ours.output, ours.contextWindow, ours.compat]).toEqual([
        model.name,
        model.api,
        model.baseUrl,
        model.input,
        model.output,
        model.contextWindow,
        model.compat,
      ]);
      expect(ours.cost).toEqual({ input: model.cost.input, output: model.cost.output, cacheRead: model.cost.cacheRead ?? 0, cacheWrite: model.cost.cacheWrite ?? 0 });
    }
  });

  it("a provider with classifiers only (TypeSafe) names its key; a provider of the chat catalog uses the registry's", async () => {
    const chat = new Set((await readDataFiles()).map((file) => file.provider));
    for (const file of files) expect(chat.has(file.provider) ? file.envKey : "TYPESAFE_API_KEY", file.provider).toBe(chat.has(file.provider) ? undefined : file.envKey);
    expect(files.find((file) => file.provider === "typesafe")?.envKey).toBe("TYPESAFE_API_KEY");
    expect(JSON.parse(compileTypedCatalog(files))).toEqual(files);
  });
});
