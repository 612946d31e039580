/**
 * The catalog against the pinned pi provider library (`@earendil-works/pi-ai` 1.6.0, a dev
 * dependency through pi-coding-agent: `dist/providers/data/<provider>.json`), field for field: every
 * provider with a chat model, every chat model, and each model's name, API, base URL, thinking
 * flag, inputs, prices and price tiers, window, output limit, headers and the request quirks
 * Atomic's adapters read. What differs on purpose is asserted as such, nothing else:
 * - Claude on Bedrock: pi's API `bedrock-converse-stream`, Atomic's `anthropic-bedrock` (the
 *   Messages API through Anthropic's Bedrock SDK);
 * - Azure: pi leaves the base URL empty (filled from the environment), Atomic names the template;
 * - thinking levels: a level whose request is the same as another level's is offered once;
 * - `compat` keys no Atomic adapter reads are not carried (COMPAT_KEYS; docs/providers.md);
 * - pi's `typesafe` provider has no chat model (a classifier only): nothing to list.
 */
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { THINKING_LEVELS, thinkingLevelsFor, type Model, type ThinkingLevel } from "../llm/index.js";
import { COMPAT_KEYS, levelsOfMap, type ThinkingLevelMap } from "../provider-kit/compat.js";
import { thinkingWire } from "../../test/fake-llm/thinking-wire.js";
import { expandModels, readDataFiles } from "./index.js";

interface PiModel {
  id: string;
  provider: string;
  name: string;
  api: string;
  baseUrl: string;
  reasoning: boolean;
  input: string[];
  cost: { input: number; output: number; cacheRead: number; cacheWrite: number; tiers?: ({ inputTokensAbove: number } & Record<string, number>)[] };
  contextWindow: number;
  maxTokens: number;
  headers?: Record<string, string>;
  compat?: Record<string, unknown>;
  thinkingLevelMap?: ThinkingLevelMap;
  type: string;
}

const PI_DATA = new URL("../../node_modules/@earendil-works/pi-ai/dist/providers/data/", import.meta.url);
const pi = new Map<string, PiModel[]>(
  readdirSync(PI_DATA)
    .filter((name) => name.endsWith(".json") && !name.startsWith("."))
    .map((name) => {
      const groups = JSON.parse(readFileSync(new URL(name, PI_DATA), "utf8")) as Record<string, Record<string, PiModel>>;
      return [name.slice(0, -".json".length), Object.values(groups).flatMap((group) => Object.values(group))];
    }),
);
const piChat = new Map([...pi].map(([provider, models]) => [provider, models.filter((m) => m.type === "chat")]));
const atomic = new Map((await readDataFiles()).map((file) => [file.provider, expandModels(file, file.models)]));

const isBedrockClaude = (m: PiModel) => m.api === "bedrock-converse-stream" && /(^|\.)anthropic\.claude-/.test(m.id);

describe("the catalog matches pi-ai 1.6.0", () => {
  it("43 providers: every one with a chat model is built in; typesafe serves a classifier only", () => {
    expect(pi.size).toBe(43);
    const withChat = [...piChat].filter(([, models]) => models.length > 0).map(([provider]) => provider);
    expect(withChat).toHaveLength(42);
    expect([...pi.keys()].filter((provider) => !withChat.includes(provider))).toEqual(["typesafe"]);
    for (const provider of withChat) expect(atomic.has(provider), provider).toBe(true);
  });

  it("1,698 chat models, the same ids per provider", () => {
    let count = 0;
    for (const [provider, models] of piChat) {
      if (models.length === 0) continue;
      expect((atomic.get(provider) ?? []).map((m) => m.id).sort(), provider).toEqual(models.map((m) => m.id).sort());
      count += models.length;
    }
    expect(count).toBe(1698);
  });

  const cases = [...piChat].flatMap(([provider, models]) => models.map((model) => [`${provider}/${model.id}`, model] as const));
  it.each(cases)("%s: identical fields", (_ref, expected) => {
    const model = atomic.get(expected.provider)!.find((m) => m.id === expected.id)!;
    expect(model.name).toBe(expected.name);
    expect(model.api).toBe(isBedrockClaude(expected) ? "anthropic-bedrock" : expected.api);
    expect(model.baseUrl).toBe(expected.provider === "azure" && expected.baseUrl === "" ? "https://{resource}.openai.azure.com/openai/v1" : expected.baseUrl);
    expect(model.reasoning).toBe(expected.reasoning);
    expect(model.input).toEqual(expected.input);
    expect(model.cost).toEqual({ input: expected.cost.input, output: expected.cost.output, cacheRead: expected.cost.cacheRead, cacheWrite: expected.cost.cacheWrite });
    const tiers = (expected.cost.tiers ?? []).map(({ inputTokensAbove, input, output, cacheRead, cacheWrite }) => ({
      aboveInputTokens: inputTokensAbove,
      cost: { input, output, cacheRead: cacheRead ?? 0, cacheWrite: cacheWrite ?? 0 },
    }));
    expect(model.costTiers ?? []).toEqual(tiers);
    expect(model.contextWindow).toBe(expected.contextWindow);
    expect(model.maxTokens).toBe(expected.maxTokens);
    for (const [name, value] of Object.entries(expected.headers ?? {})) expect(model.headers?.[name], name).toBe(value);
    for (const [key, value] of Object.entries(expected.compat ?? {})) {
      const name = key === "forceAdaptiveThinking" ? "adaptiveThinking" : key;
      // Claude ids are recognised by the adapter itself: the flag is not carried for them.
      if (!COMPAT_KEYS[model.api]!.includes(name) || (name === "adaptiveThinking" && /claude-/.test(model.id))) continue;
      expect(model.compat?.[name], name).toEqual(value);
    }
    expectSameLevels(model, expected);
  });
});

/** Atomic offers pi's levels, less those whose request would be another offered level's. */
function expectSameLevels(model: Model, expected: PiModel): void {
  if (!expected.reasoning) {
    expect(thinkingLevelsFor(model)).toEqual(["off"]);
    return;
  }
  const piLevels = levelsOfMap(expected.thinkingLevelMap ?? {});
  const offered = thinkingLevelsFor(model);
  for (const level of offered) expect(piLevels, `${level} is one of pi's levels`).toContain(level);
  const wires = new Set(offered.map((level) => thinkingWire(model, level) ?? "(none)"));
  for (const level of piLevels.filter((l): l is ThinkingLevel => !offered.includes(l) && THINKING_LEVELS.includes(l))) {
    // A level pi offers and Atomic does not: either the API refuses it (Gemini's xhigh), or its request is one Atomic sends for another level.
    const google = model.api === "google-generative-ai" || model.api === "google-vertex";
    // pi's value for the level (Gemini's are enum names, which pi writes in lower case).
    const value = expected.thinkingLevelMap?.[level];
    const map = typeof value === "string" ? { [level]: google ? value.toUpperCase() : value } : {};
    const withPiValue = {
      ...model,
      thinkingLevels: [...THINKING_LEVELS],
      compat: { ...model.compat, thinkingLevelMap: { ...(model.compat?.thinkingLevelMap as object), ...map } },
    };
    const wire = thinkingWire(withPiValue, level) ?? "(none)";
    const refused = google && (level === "xhigh" || level === "max");
    expect(refused || wires.has(wire), `${level} sends ${wire}`).toBe(true);
  }
}
