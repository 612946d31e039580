/** The wire APIs the built-in adapters speak: the keys of the kernel's `stream` hook map. */
export const ANTHROPIC_API = "anthropic-messages";
export const OPENAI_RESPONSES_API = "openai-responses";
export const OPENAI_COMPLETIONS_API = "openai-completions";
export const GOOGLE_API = "google-generative-ai";

/** Where each well-known provider reads its key from the environment (pi's names). */
export const ENV_API_KEYS: Readonly<Record<string, string>> = Object.freeze({
  anthropic: "ANTHROPIC_API_KEY",
  openai: "OPENAI_API_KEY",
  google: "GEMINI_API_KEY",
});
