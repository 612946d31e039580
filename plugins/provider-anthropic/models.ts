/**
 * The Anthropic model table: prices ($ per million tokens: input, output, cache read, 5-minute
 * cache write), context windows, output limits and thinking levels. The first model is the
 * provider's default. models.json can patch or extend it.
 *
 * Checked on 2026-11-30 against Anthropic's model pages, pricing page and deprecations page
 * (platform.claude.com, as stored in the search corpus): Opus 5.5 is the current Opus; Sonnet 4
 * (2026-06-15), Opus 4.1 (2026-08-05), Haiku 3.5 (2026-02-19) and Sonnet 4.5 (2026-11-30, the
 * SDK's deprecation table) are retired and left out;
 * Opus 4.5 is deprecated, retiring 2027-01-22. Fable, Mythos, Opus 5 and Sonnet 5 are not
 * listed: their pages disagree across snapshots (add them through models.json if you use them).
 */
import type { ProviderRegistration } from "../../lib/provider-kit/index.js";
import { ANTHROPIC_API, ENV_API_KEYS, modelTable, type ModelRow } from "../../lib/provider-kit/index.js";

export const CATALOG_CHECKED = "2026-11-30";
const BASE_URL = "https://api.anthropic.com";

// Thinking is always on for the 5.5 generation (no "off"); xhigh exists from Opus 4.7 on.
const ALWAYS_ON_XHIGH = ["low", "medium", "high", "xhigh", "max"] as const;
const WITH_XHIGH = ["off", "low", "medium", "high", "xhigh", "max"] as const;
const WITH_MAX = ["off", "low", "medium", "high", "max"] as const;

const ROWS: ModelRow[] = [
  { id: "claude-opus-5-5", name: "Claude Opus 5.5", cost: [4, 20, 0.2, 5], contextWindow: 1_000_000, maxTokens: 128_000, thinkingLevels: [...ALWAYS_ON_XHIGH] },
  { id: "claude-sonnet-5-5", name: "Claude Sonnet 5.5", cost: [2, 10, 0.1, 2.5], contextWindow: 1_000_000, maxTokens: 128_000, thinkingLevels: [...ALWAYS_ON_XHIGH] },
  {
    id: "claude-haiku-5-5",
    name: "Claude Haiku 5.5",
    cost: [0.1, 0.5, 0.01, 0.125],
    tiers: [{ above: 100_000, cost: [0.5, 2.5, 0.05, 0.625] }],
    contextWindow: 1_000_000,
    maxTokens: 128_000,
    thinkingLevels: ["low", "medium", "high"],
  },
  { id: "claude-opus-4-8", name: "Claude Opus 4.8", cost: [5, 25, 0.5, 6.25], contextWindow: 1_000_000, maxTokens: 128_000, thinkingLevels: [...WITH_XHIGH] },
  { id: "claude-opus-4-7", name: "Claude Opus 4.7", cost: [5, 25, 0.5, 6.25], contextWindow: 1_000_000, maxTokens: 128_000, thinkingLevels: [...WITH_XHIGH] },
  { id: "claude-opus-4-6", name: "Claude Opus 4.6", cost: [5, 25, 0.5, 6.25], contextWindow: 1_000_000, maxTokens: 128_000, thinkingLevels: [...WITH_MAX] },
  { id: "claude-sonnet-4-6", name: "Claude Sonnet 4.6", cost: [3, 15, 0.3, 3.75], contextWindow: 1_000_000, maxTokens: 128_000, thinkingLevels: [...WITH_MAX] },
  { id: "claude-opus-4-5", name: "Claude Opus 4.5", cost: [5, 25, 0.5, 6.25], contextWindow: 200_000, maxTokens: 64_000, retiresOn: "2027-01-22" },
  { id: "claude-haiku-4-5", name: "Claude Haiku 4.5", cost: [1, 5, 0.1, 1.25], contextWindow: 200_000, maxTokens: 64_000 },
];

export function anthropicProvider(): ProviderRegistration {
  return { name: "anthropic", api: ANTHROPIC_API, baseUrl: BASE_URL, envKey: ENV_API_KEYS.anthropic, models: modelTable("anthropic", ANTHROPIC_API, BASE_URL, ROWS) };
}
