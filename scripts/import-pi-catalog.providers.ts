/**
 * What scripts/import-pi-catalog.ts writes for each built-in provider: pi's provider name, env
 * variable, base URL and API (pi's choices, so a pi user's configuration carries over), which
 * of pi's APIs Atomic serves it with, and for the three vendors the curated model list.
 */
import type { CatalogFile } from "../lib/model-catalog/index.js";

export interface ImportSpec {
  provider: string;
  name: string;
  api: string;
  baseUrl: string;
  envKey?: string;
  ambientAuth?: string[][];
  local?: CatalogFile["local"];
  modelsDev?: string;
  modelsDevFilter?: string;
  docs?: string;
  /** pi's provider id; none: no models shipped (local servers). */
  pi?: string;
  sourceNote?: string;
  /** pi API -> the Atomic API that serves it (models of other APIs are left out). */
  apis: Record<string, string>;
  /** Base URL per Atomic API where it differs from the provider's. */
  baseUrls?: Record<string, string>;
  compat?: Record<string, unknown>;
  /** compat for the models of one API (an Anthropic-compatible endpoint's auth header). */
  apiCompat?: Record<string, Record<string, unknown>>;
  /** The models to take, in this order (the first is the provider's default); none: all of pi's. */
  include?: string[];
  filter?: (id: string) => boolean;
  retiresOn?: Record<string, string>;
  contextWindows?: Record<string, number>;
}

/** pi 1.6's default model per provider (pi-coding-agent core/model-resolver): listed first. */
export const DEFAULT_MODELS: Record<string, string> = {
  anthropic: "claude-opus-5-5",
  openai: "gpt-6.2-sol",
  google: "gemini-4-argon",
  openrouter: "moonshotai/kimi-k2.7-code",
  groq: "openai/gpt-oss-120b",
  cerebras: "gpt-oss-120b",
  xai: "grok-4.7",
  deepseek: "deepseek-v4-pro",
  mistral: "devstral-medium-latest",
  together: "moonshotai/Kimi-K3",
  fireworks: "accounts/fireworks/models/kimi-k3",
  zai: "glm-5.3",
  moonshotai: "kimi-k2.7-code",
  "kimi-coding": "kimi-for-coding",
  minimax: "MiniMax-M3",
  huggingface: "moonshotai/Kimi-K2.7-Code",
  azure: "gpt-6.2-sol",
  "google-vertex": "gemini-4-argon",
  "amazon-bedrock": "us.anthropic.claude-opus-5-5",
};

/** Anthropic-compatible hosts read the key from `x-api-key` and accept the first API version. */
const COMPATIBLE_ANTHROPIC = { apiKeyHeader: "x-api-key", anthropicVersion: "2023-06-01" };
const LOCAL_COMPAT = { maxTokensField: "max_tokens", supportsStrictMode: false };

export const PROVIDERS: ImportSpec[] = [
  {
    provider: "anthropic",
    name: "Anthropic",
    api: "anthropic-messages",
    baseUrl: "https://api.anthropic.com",
    envKey: "ANTHROPIC_API_KEY",
    modelsDev: "anthropic",
    docs: "https://docs.anthropic.com/en/docs/about-claude/models/overview",
    pi: "anthropic",
    apis: { "anthropic-messages": "anthropic-messages" },
    include: [
      "claude-opus-5-5",
      "claude-sonnet-5-5",
      "claude-haiku-5-5",
      "claude-fable-5-2",
      "claude-fable-5-1",
      "claude-fable-5",
      "claude-opus-5",
      "claude-sonnet-5",
      "claude-opus-4-8",
      "claude-opus-4-7",
      "claude-opus-4-6",
      "claude-sonnet-4-6",
      "claude-opus-4-5",
      "claude-haiku-4-5",
    ],
    retiresOn: { "claude-opus-4-5": "2027-01-22" },
  },
  {
    provider: "openai",
    name: "OpenAI",
    api: "openai-responses",
    baseUrl: "https://api.openai.com/v1",
    envKey: "OPENAI_API_KEY",
    modelsDev: "openai",
    docs: "https://platform.openai.com/docs/models",
    pi: "openai",
    apis: { "openai-responses": "openai-responses" },
    include: [
      "gpt-6.1-sol",
      "gpt-6.2-sol",
      "gpt-6.2-astra",
      "gpt-6.1-terra",
      "gpt-6-sol",
      "gpt-6-astra",
      "gpt-6-luna",
      "gpt-6-cyber",
      "gpt-5.6-sol",
      "gpt-5.6-terra",
      "gpt-5.6-luna",
      "gpt-5.6-cyber",
      "gpt-5.5",
      "gpt-5.5-pro",
      "gpt-5.4",
      "gpt-5.4-pro",
      "gpt-5.4-mini",
      "gpt-5.4-nano",
      "gpt-5.3-codex",
      "gpt-5.2",
      "gpt-5.1",
      "gpt-4.1",
      "gpt-4.1-mini",
      "gpt-4o",
      "gpt-4o-mini",
    ],
    retiresOn: { "gpt-5.4-nano": "2027-04-01", "gpt-5.3-codex": "2027-04-01", "gpt-5.1": "2027-04-01" },
  },
  {
    provider: "google",
    name: "Google Gemini",
    api: "google-generative-ai",
    baseUrl: "https://generativelanguage.googleapis.com/v1beta",
    envKey: "GEMINI_API_KEY",
    modelsDev: "google",
    docs: "https://ai.google.dev/gemini-api/docs/models",
    pi: "google",
    apis: { "google-generative-ai": "google-generative-ai" },
    include: [
      "gemini-3.5-flash",
      "gemini-4-neon",
      "gemini-4-hydrogen",
      "gemini-4-argon",
      "gemini-4-carbon",
      "gemini-3.8-flash",
      "gemini-3.7-flash",
      "gemini-3.6-flash",
      "gemini-3.1-pro-preview",
      "gemini-3.5-flash-lite",
      "gemini-3.1-flash-lite",
      "gemini-2.5-flash-lite",
    ],
    retiresOn: { "gemini-3.1-flash-lite": "2027-05-07" },
  },
  {
    provider: "openrouter",
    name: "OpenRouter",
    api: "openai-completions",
    baseUrl: "https://openrouter.ai/api/v1",
    envKey: "OPENROUTER_API_KEY",
    modelsDev: "openrouter",
    docs: "https://openrouter.ai/docs/quickstart",
    pi: "openrouter",
    apis: { "openai-completions": "openai-completions", "anthropic-messages": "anthropic-messages" },
    baseUrls: { "anthropic-messages": "https://openrouter.ai/api" },
    apiCompat: { "anthropic-messages": COMPATIBLE_ANTHROPIC },
  },
  {
    provider: "groq",
    name: "Groq",
    api: "openai-completions",
    baseUrl: "https://api.groq.com/openai/v1",
    envKey: "GROQ_API_KEY",
    modelsDev: "groq",
    docs: "https://console.groq.com/docs/models",
    pi: "groq",
    apis: { "openai-completions": "openai-completions" },
  },
  {
    provider: "cerebras",
    name: "Cerebras",
    api: "openai-completions",
    baseUrl: "https://api.cerebras.ai/v1",
    envKey: "CEREBRAS_API_KEY",
    modelsDev: "cerebras",
    docs: "https://inference-docs.cerebras.ai/models/overview",
    pi: "cerebras",
    apis: { "openai-completions": "openai-completions" },
  },
  {
    provider: "xai",
    name: "xAI",
    api: "openai-responses",
    baseUrl: "https://api.x.ai/v1",
    envKey: "XAI_API_KEY",
    modelsDev: "xai",
    docs: "https://docs.x.ai/docs/models",
    pi: "xai",
    apis: { "openai-responses": "openai-responses" },
  },
  {
    provider: "deepseek",
    name: "DeepSeek",
    api: "openai-completions",
    baseUrl: "https://api.deepseek.com",
    envKey: "DEEPSEEK_API_KEY",
    modelsDev: "deepseek",
    docs: "https://api-docs.deepseek.com/quick_start/pricing",
    pi: "deepseek",
    apis: { "openai-completions": "openai-completions" },
  },
  {
    provider: "mistral",
    name: "Mistral",
    api: "openai-completions",
    baseUrl: "https://api.mistral.ai/v1",
    envKey: "MISTRAL_API_KEY",
    modelsDev: "mistral",
    docs: "https://docs.mistral.ai/getting-started/models/models_overview/",
    pi: "mistral",
    // pi speaks Mistral's own conversations API; Atomic its OpenAI-compatible chat endpoint.
    apis: { "mistral-conversations": "openai-completions" },
    compat: { toolCallIds: "mistral", requiresToolResultName: true, maxTokensField: "max_tokens" },
  },
  {
    provider: "together",
    name: "Together AI",
    api: "openai-completions",
    baseUrl: "https://api.together.ai/v1",
    envKey: "TOGETHER_API_KEY",
    modelsDev: "togetherai",
    docs: "https://docs.together.ai/docs/serverless-models",
    pi: "together",
    apis: { "openai-completions": "openai-completions" },
  },
  {
    provider: "fireworks",
    name: "Fireworks",
    api: "openai-completions",
    baseUrl: "https://api.fireworks.ai/inference/v1",
    envKey: "FIREWORKS_API_KEY",
    modelsDev: "fireworks-ai",
    docs: "https://docs.fireworks.ai/getting-started/introduction",
    pi: "fireworks",
    apis: { "openai-completions": "openai-completions", "anthropic-messages": "anthropic-messages" },
    baseUrls: { "anthropic-messages": "https://api.fireworks.ai/inference" },
    apiCompat: { "anthropic-messages": COMPATIBLE_ANTHROPIC },
  },
  {
    provider: "zai",
    name: "Z.ai (GLM Coding Plan)",
    api: "openai-completions",
    baseUrl: "https://api.z.ai/api/coding/paas/v4",
    envKey: "ZAI_API_KEY",
    modelsDev: "zai-coding-plan",
    docs: "https://docs.z.ai/devpack/overview",
    pi: "zai",
    apis: { "openai-completions": "openai-completions" },
  },
  {
    provider: "moonshotai",
    name: "Moonshot AI",
    api: "openai-completions",
    baseUrl: "https://api.moonshot.ai/v1",
    envKey: "MOONSHOT_API_KEY",
    modelsDev: "moonshotai",
    docs: "https://platform.moonshot.ai/docs/introduction",
    pi: "moonshotai",
    apis: { "openai-completions": "openai-completions" },
  },
  {
    provider: "kimi-coding",
    name: "Kimi For Coding",
    api: "openai-completions",
    baseUrl: "https://api.kimi.com/coding/v1",
    envKey: "KIMI_API_KEY",
    modelsDev: "kimi-for-coding",
    docs: "https://www.kimi.com/coding/docs/",
    pi: "kimi-coding",
    apis: { "openai-completions": "openai-completions" },
  },
  {
    provider: "minimax",
    name: "MiniMax",
    api: "anthropic-messages",
    baseUrl: "https://api.minimax.io/anthropic",
    envKey: "MINIMAX_API_KEY",
    modelsDev: "minimax",
    docs: "https://platform.minimax.io/docs/guides/text-generation",
    pi: "minimax",
    apis: { "anthropic-messages": "anthropic-messages" },
    compat: COMPATIBLE_ANTHROPIC,
  },
  {
    provider: "huggingface",
    name: "Hugging Face",
    api: "openai-completions",
    baseUrl: "https://router.huggingface.co/v1",
    envKey: "HF_TOKEN",
    modelsDev: "huggingface",
    docs: "https://huggingface.co/docs/inference-providers/index",
    pi: "huggingface",
    apis: { "openai-completions": "openai-completions" },
  },
  {
    provider: "azure",
    name: "Azure OpenAI",
    api: "azure-openai-responses",
    baseUrl: "https://{resource}.openai.azure.com/openai/v1",
    envKey: "AZURE_OPENAI_API_KEY",
    modelsDev: "azure",
    docs: "https://learn.microsoft.com/azure/ai-foundry/openai/how-to/responses",
    pi: "azure",
    apis: { "azure-openai-responses": "azure-openai-responses" },
  },
  {
    provider: "google-vertex",
    name: "Google Vertex AI",
    api: "google-vertex",
    baseUrl: "https://{location}-aiplatform.googleapis.com",
    envKey: "GOOGLE_CLOUD_API_KEY",
    ambientAuth: [
      ["GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"],
      ["GCLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"],
    ],
    modelsDev: "google-vertex",
    docs: "https://cloud.google.com/vertex-ai/generative-ai/docs/models",
    pi: "google-vertex",
    apis: { "google-vertex": "google-vertex" },
  },
  {
    provider: "amazon-bedrock",
    name: "Amazon Bedrock (Claude)",
    api: "anthropic-bedrock",
    baseUrl: "https://bedrock-runtime.{region}.amazonaws.com",
    envKey: "AWS_BEARER_TOKEN_BEDROCK",
    ambientAuth: [
      ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
      ["AWS_PROFILE"],
      ["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"],
      ["AWS_CONTAINER_CREDENTIALS_FULL_URI"],
      ["AWS_WEB_IDENTITY_TOKEN_FILE"],
    ],
    modelsDev: "amazon-bedrock",
    docs: "https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-claude.html",
    pi: "amazon-bedrock",
    // Claude only: Anthropic's Bedrock SDK sends the Messages API; pi's Converse models are left out.
    apis: { "bedrock-converse-stream": "anthropic-bedrock" },
    filter: (id) => /(^|\.)anthropic\.claude-/.test(id),
    modelsDevFilter: "(^|\\.)anthropic\\.claude-",
    // Bedrock's Claude request names its own API version (in the body; the SDK moves it there).
    compat: { supportsEagerToolInputStreaming: false, anthropicVersion: "bedrock-2023-05-31" },
  },
  local("ollama", "Ollama", "http://127.0.0.1:11434/v1", "OLLAMA_BASE_URL", undefined, "https://docs.ollama.com/api/openai-compatibility"),
  local("llama-cpp", "llama.cpp server", "http://127.0.0.1:8080/v1", "LLAMA_CPP_BASE_URL", "LLAMA_API_KEY", "https://github.com/ggml-org/llama.cpp/tree/master/tools/server"),
  local("vllm", "vLLM", "http://127.0.0.1:8000/v1", "VLLM_BASE_URL", "VLLM_API_KEY", "https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html"),
  local("lmstudio", "LM Studio", "http://127.0.0.1:1234/v1", "LMSTUDIO_BASE_URL", undefined, "https://lmstudio.ai/docs/app/api/endpoints/openai"),
];

function local(provider: string, name: string, baseUrl: string, baseUrlEnv: string, envKey: string | undefined, docs: string): ImportSpec {
  return {
    provider,
    name,
    api: "openai-completions",
    baseUrl,
    ...(envKey ? { envKey } : {}),
    local: { baseUrlEnv },
    docs,
    sourceNote: "Atomic: a local OpenAI-compatible server; its models are listed by the server (GET <baseUrl>/models)",
    apis: {},
    compat: LOCAL_COMPAT,
  };
}
