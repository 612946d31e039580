/**
 * The Google Gemini model table: prices ($ per million tokens), context windows and thinking
 * capabilities. The first model is the provider's default. models.json can patch or extend it.
 */
import type { ProviderRegistration } from "../../lib/provider-kit/index.js";
import { ENV_API_KEYS, GOOGLE_API, modelTable, type ModelRow } from "../../lib/provider-kit/index.js";

const BASE_URL = "https://generativelanguage.googleapis.com/v1beta";

// Gemini 2.5 Pro and Gemini 3 cannot switch thinking off; Gemini 3 takes a level, 2.5 a budget.
const ROWS: ModelRow[] = [
  { id: "gemini-2.5-pro", name: "Gemini 2.5 Pro", cost: [1.25, 10, 0.125, 0], contextWindow: 1_048_576, maxTokens: 65_536, thinkingLevels: ["minimal", "low", "medium", "high"] },
  { id: "gemini-2.5-flash", name: "Gemini 2.5 Flash", cost: [0.3, 2.5, 0.03, 0], contextWindow: 1_048_576, maxTokens: 65_536 },
  { id: "gemini-2.5-flash-lite", name: "Gemini 2.5 Flash-Lite", cost: [0.1, 0.4, 0.01, 0], contextWindow: 1_048_576, maxTokens: 65_536 },
  { id: "gemini-3-pro-preview", name: "Gemini 3 Pro Preview", cost: [2, 12, 0.2, 0], contextWindow: 1_048_576, maxTokens: 65_536, thinkingLevels: ["low", "high"] },
  { id: "gemini-3-flash-preview", name: "Gemini 3 Flash Preview", cost: [0.5, 3, 0.05, 0], contextWindow: 1_048_576, maxTokens: 65_536, thinkingLevels: ["minimal", "low", "medium", "high"] },
  { id: "gemini-2.0-flash", name: "Gemini 2.0 Flash", cost: [0.1, 0.4, 0.025, 0], contextWindow: 1_048_576, maxTokens: 8_192, reasoning: false },
];

export function googleProvider(): ProviderRegistration {
  return { name: "google", api: GOOGLE_API, baseUrl: BASE_URL, envKey: ENV_API_KEYS.google, models: modelTable("google", GOOGLE_API, BASE_URL, ROWS) };
}
