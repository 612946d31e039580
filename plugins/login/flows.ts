/**
 * The providers Atomic signs in to, as pi 1.6 does (its providers with an OAuth login), each
 * with its methods (the first is the default) and its flow, loaded on first use.
 */
import type { LoginFlow, LoginMethod } from "./flow.js";

export interface LoginProvider {
  provider: string;
  /** What the login signs in to (pi's names). */
  name: string;
  methods: readonly LoginMethod[];
  load(): Promise<LoginFlow>;
}

const BROWSER: LoginMethod = { id: "browser", label: "Browser sign-in (the browser returns to this machine; elsewhere, paste the address it ends on)", takesInput: true };
const BROWSER_ONLY: LoginMethod = { id: "browser", label: "Browser sign-in (the browser must return to this machine)", takesInput: false };
const DEVICE_CODE: LoginMethod = { id: "device_code", label: "Device code (enter a code on any device)", takesInput: false };

export const LOGIN_PROVIDERS: readonly LoginProvider[] = [
  {
    provider: "anthropic",
    name: "Anthropic (Claude Pro/Max)",
    methods: [BROWSER, { id: "copy_code", label: "Copy a code (Anthropic's page shows a code to paste; for headless machines)", takesInput: true }],
    load: async () => (await import("./providers/anthropic.js")).anthropicLogin,
  },
  {
    provider: "openai-codex",
    name: "OpenAI (ChatGPT Plus/Pro)",
    methods: [BROWSER, DEVICE_CODE],
    load: async () => (await import("./providers/openai-codex.js")).openaiCodexLogin,
  },
  { provider: "github-copilot", name: "GitHub Copilot", methods: [DEVICE_CODE], load: async () => (await import("./providers/github-copilot.js")).githubCopilotLogin },
  { provider: "openai", name: "OpenAI (ChatGPT subscription)", methods: [BROWSER], load: async () => (await import("./providers/openai-chatgpt.js")).openaiChatgptLogin },
  { provider: "xai", name: "xAI (Grok/X subscription)", methods: [DEVICE_CODE], load: async () => (await import("./providers/xai.js")).xaiLogin },
  { provider: "kimi-coding", name: "Kimi Code (subscription)", methods: [DEVICE_CODE], load: async () => (await import("./providers/kimi-coding.js")).kimiCodingLogin },
  { provider: "openrouter", name: "OpenRouter OAuth", methods: [BROWSER], load: async () => (await import("./providers/openrouter.js")).openrouterLogin },
  { provider: "meta", name: "Meta (Muse subscription)", methods: [DEVICE_CODE], load: async () => (await import("./providers/meta.js")).metaLogin },
  { provider: "radius", name: "Radius", methods: [BROWSER_ONLY, DEVICE_CODE], load: async () => (await import("./providers/radius.js")).radiusLogin },
];

export function loginProvider(provider: string): LoginProvider | undefined {
  return LOGIN_PROVIDERS.find((entry) => entry.provider === provider);
}
