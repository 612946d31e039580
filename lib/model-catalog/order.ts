/**
 * The built-in providers in catalog order: listings, `cycle_model` and the "first model with a
 * key" fallback follow it. The three vendors first (as before the catalog grew), then the
 * gateways and inference hosts, then the cloud routes, then the local servers (keyless, so never
 * the fallback: their models are listed only once a server answered).
 */
export const CATALOG_ORDER: readonly string[] = [
  "anthropic",
  "openai",
  "google",
  "openrouter",
  "groq",
  "cerebras",
  "xai",
  "deepseek",
  "mistral",
  "together",
  "fireworks",
  "zai",
  "moonshotai",
  "kimi-coding",
  "minimax",
  "huggingface",
  "azure",
  "google-vertex",
  "amazon-bedrock",
  "ollama",
  "llama-cpp",
  "vllm",
  "lmstudio",
];
