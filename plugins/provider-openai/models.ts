/**
 * The OpenAI model table (Responses API): prices ($ per million tokens: input, output, cached
 * input), context windows, output limits and reasoning efforts. The first model is the
 * provider's default. models.json can patch or extend it.
 *
 * Checked on 2026-11-30 against OpenAI's model pages and deprecations page (developers.openai.com)
 * and gateway listings of the same models, as stored in the search corpus. GPT-5.5 and GPT-5.4
 * bill a whole call at 2x input and 1.5x output once its prompt exceeds 272K tokens (the tier
 * below). o4-mini was shut down on 2026-10-23; gpt-5, gpt-5-mini, gpt-5-nano and o3 shut down
 * on 2026-12-11 and are left out; gpt-5.1, gpt-5.4-nano and gpt-5.3-codex retire on 2027-04-01.
 * The GPT-5.6 and GPT-6 families are not listed: no model page for them was in the corpus.
 */
import type { ThinkingLevel } from "../../lib/llm/index.js";
import type { ProviderRegistration } from "../../lib/provider-kit/index.js";
import { ENV_API_KEYS, OPENAI_RESPONSES_API, modelTable, type ModelRow } from "../../lib/provider-kit/index.js";

export const CATALOG_CHECKED = "2026-11-30";
const BASE_URL = "https://api.openai.com/v1";

// GPT-5.1+ accept effort "none" (thinking off); 5.2+ add "xhigh".
const GPT_XHIGH: ThinkingLevel[] = ["off", "low", "medium", "high", "xhigh"];
const NONE = { supportsReasoningNone: true };
const ROWS: ModelRow[] = [
  { id: "gpt-5.5", name: "GPT-5.5", cost: [5, 30, 0.5, 0], tiers: [{ above: 272_000, cost: [10, 45, 1, 0] }], contextWindow: 1_050_000, maxTokens: 128_000, thinkingLevels: GPT_XHIGH, compat: NONE },
  { id: "gpt-5.4", name: "GPT-5.4", cost: [2.5, 15, 0.25, 0], tiers: [{ above: 272_000, cost: [5, 22.5, 0.5, 0] }], contextWindow: 1_050_000, maxTokens: 128_000, thinkingLevels: GPT_XHIGH, compat: NONE },
  { id: "gpt-5.4-mini", name: "GPT-5.4 Mini", cost: [0.75, 4.5, 0.075, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: GPT_XHIGH, compat: NONE },
  { id: "gpt-5.4-nano", name: "GPT-5.4 Nano", cost: [0.2, 1.25, 0.02, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: GPT_XHIGH, compat: NONE, retiresOn: "2027-04-01" },
  { id: "gpt-5.3-codex", name: "GPT-5.3 Codex", cost: [1.75, 14, 0.175, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: GPT_XHIGH, compat: NONE, retiresOn: "2027-04-01" },
  { id: "gpt-5.2", name: "GPT-5.2", cost: [1.75, 14, 0.175, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: GPT_XHIGH, compat: NONE },
  { id: "gpt-5.1", name: "GPT-5.1", cost: [1.25, 10, 0.125, 0], contextWindow: 400_000, maxTokens: 128_000, thinkingLevels: ["off", "low", "medium", "high"], compat: NONE, retiresOn: "2027-04-01" },
  { id: "gpt-4.1", name: "GPT-4.1", cost: [2, 8, 0.5, 0], contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false },
  { id: "gpt-4.1-mini", name: "GPT-4.1 Mini", cost: [0.4, 1.6, 0.1, 0], contextWindow: 1_047_576, maxTokens: 32_768, reasoning: false },
  { id: "gpt-4o", name: "GPT-4o", cost: [2.5, 10, 1.25, 0], contextWindow: 128_000, maxTokens: 16_384, reasoning: false },
  { id: "gpt-4o-mini", name: "GPT-4o Mini", cost: [0.15, 0.6, 0.075, 0], contextWindow: 128_000, maxTokens: 16_384, reasoning: false },
];

export function openaiProvider(): ProviderRegistration {
  return { name: "openai", api: OPENAI_RESPONSES_API, baseUrl: BASE_URL, envKey: ENV_API_KEYS.openai, models: modelTable("openai", OPENAI_RESPONSES_API, BASE_URL, ROWS) };
}
