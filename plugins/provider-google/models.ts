/**
 * The Google Gemini model table: prices ($ per million tokens: input, output, cached input),
 * context windows, output limits and thinking levels. The first model is the provider's
 * default. models.json can patch or extend it.
 *
 * Checked on 2026-11-30 against the Gemini API models, pricing and deprecations pages
 * (ai.google.dev), Google Cloud's Gemini 3.5 Flash guide and gateway listings, as stored in the
 * search corpus. Gemini 3 Pro Preview was shut down on 2026-03-09 (replaced by 3.1 Pro), Gemini
 * 2.0 Flash on 2026-06-01; Gemini 2.5 Pro and 2.5 Flash shut down on 2026-12-01 and are left
 * out. Gemini 3.1 Pro bills a whole call at the higher tier once its prompt exceeds 200K tokens.
 * Gemini 3.8 Flash is at its launch price (half of $1.50 / $7.50) until 2026-12-31.
 */
import type { ProviderRegistration } from "../../lib/provider-kit/index.js";
import { ENV_API_KEYS, GOOGLE_API, modelTable, type ModelRow } from "../../lib/provider-kit/index.js";

export const CATALOG_CHECKED = "2026-11-30";
const BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

// Gemini 3 takes a thinking level and cannot switch thinking off; 2.5 takes a budget.
const FLASH_LEVELS = ["minimal", "low", "medium", "high"] as const;
const ROWS: ModelRow[] = [
  { id: "gemini-3.5-flash", name: "Gemini 3.5 Flash", cost: [1.5, 9, 0.15, 0], contextWindow: 1_048_576, maxTokens: 65_536, thinkingLevels: [...FLASH_LEVELS] },
  { id: "gemini-3.8-flash", name: "Gemini 3.8 Flash", cost: [0.75, 3.75, 0.075, 0], contextWindow: 1_048_576, maxTokens: 65_536, thinkingLevels: ["low", "medium", "high"] },
  {
    id: "gemini-3.1-pro-preview",
    name: "Gemini 3.1 Pro Preview",
    cost: [2, 12, 0.2, 0],
    tiers: [{ above: 200_000, cost: [4, 18, 0.4, 0] }],
    contextWindow: 1_048_576,
    maxTokens: 65_536,
    thinkingLevels: ["low", "medium", "high"],
  },
  { id: "gemini-3.5-flash-lite", name: "Gemini 3.5 Flash-Lite", cost: [0.3, 2.5, 0.03, 0], contextWindow: 1_048_576, maxTokens: 65_536, thinkingLevels: [...FLASH_LEVELS] },
  { id: "gemini-3.1-flash-lite", name: "Gemini 3.1 Flash-Lite", cost: [0.25, 1.5, 0.025, 0], contextWindow: 1_048_576, maxTokens: 65_536, thinkingLevels: [...FLASH_LEVELS], retiresOn: "2027-05-07" },
  { id: "gemini-2.5-flash-lite", name: "Gemini 2.5 Flash-Lite", cost: [0.1, 0.4, 0.01, 0], contextWindow: 1_048_576, maxTokens: 65_536 },
];

export function googleProvider(): ProviderRegistration {
  return { name: "google", api: GOOGLE_API, baseUrl: BASE_URL, envKey: ENV_API_KEYS.google, models: modelTable("google", GOOGLE_API, BASE_URL, ROWS) };
}
