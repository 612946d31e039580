/**
 * What scripts/import-pi-catalog.ts writes for each built-in provider: pi's provider name and env
 * variable (so a pi user's configuration carries over), and what Atomic adds: the request quirks
 * its adapters need that pi keeps in code (OpenCode's session header, Copilot's initiator
 * headers, Cloudflare's gateway key header), retirement dates, local servers. Every chat model of
 * pi's data is imported with pi's API, base URL, limits and prices.
 */
import type { CatalogFile } from "../lib/model-catalog/index.js";

export interface ImportSpec {
  provider: string;
  name: string;
  /** The provider's API: pi's most common one among its models when not given. */
  api?: string;
  /** The provider's base URL: pi's, else its models' most common one, when not given. */
  baseUrl?: string;
  envKey?: string;
  /** Further variables tried after `envKey`, in order (pi's list for the Qwen token plans). */
  altEnvKeys?: string[];
  ambientAuth?: string[][];
  /** pi signs in to it with OAuth (its provider has an `oauth` login). */
  oauth?: true;
  local?: CatalogFile["local"];
  modelsDev?: string;
  modelsDevFilter?: string;
  docs?: string;
  /** pi's provider id; none: no models shipped (local servers). */
  pi?: string;
  sourceNote?: string;
  compat?: Record<string, unknown>;
  /** Headers every model's requests carry (Codex's `originator`). */
  headers?: Record<string, string>;
  /** compat for the models of one Atomic API. */
  apiCompat?: Record<string, Record<string, unknown>>;
  retiresOn?: Record<string, string>;
  /** These models first, in this order (current models newest first: a fuzzy `--model sonnet` takes the first); the rest follow. */
  first?: string[];
}

/**
 * pi API -> the Atomic API that serves it: the same name, except Claude on Bedrock, which Atomic
 * sends through Anthropic's Bedrock SDK (the Messages API) instead of Converse.
 */
export function atomicApi(piApi: string, modelId: string): string {
  if (piApi === "bedrock-converse-stream" && /(^|\.)anthropic\.claude-/.test(modelId)) return "anthropic-bedrock";
  return piApi;
}

/** pi 1.6's default model per provider (pi-coding-agent core/model-resolver): listed first. */
export const DEFAULT_MODELS: Record<string, string> = {
  "amazon-bedrock": "us.anthropic.claude-opus-5-5",
  "ant-ling": "Ring-2.6-1T",
  anthropic: "claude-opus-5-5",
  openai: "gpt-6.2-sol",
  azure: "gpt-6.2-sol",
  "openai-codex": "gpt-6.2-sol",
  radius: "balanced",
  nvidia: "nvidia/nemotron-3.5-super-vl-120b-a12b",
  deepseek: "deepseek-v4-pro",
  google: "gemini-4-argon",
  "google-vertex": "gemini-4-argon",
  "github-copilot": "gpt-6.1-sol",
  openrouter: "moonshotai/kimi-k2.7-code",
  "vercel-ai-gateway": "zai/glm-5.3",
  xai: "grok-4.7",
  groq: "openai/gpt-oss-120b",
  cerebras: "gpt-oss-120b",
  zai: "glm-5.3",
  "zai-coding-cn": "glm-5.3",
  mistral: "devstral-medium-latest",
  minimax: "MiniMax-M3",
  "minimax-cn": "MiniMax-M3",
  moonshotai: "kimi-k2.7-code",
  "moonshotai-cn": "kimi-k2.7-code",
  huggingface: "moonshotai/Kimi-K2.7-Code",
  fireworks: "accounts/fireworks/models/kimi-k3",
  together: "moonshotai/Kimi-K3",
  baseten: "zai-org/GLM-5.3",
  opencode: "kimi-k2.7-code",
  "opencode-go": "kimi-k3.1-pro",
  "kimi-coding": "kimi-for-coding",
  meta: "muse-spark-1.3",
  "cloudflare-workers-ai": "@cf/moonshotai/kimi-k2.7-code",
  "cloudflare-ai-gateway": "workers-ai/@cf/moonshotai/kimi-k2.7-code",
  "qwen-token-plan": "qwen3.8-max",
  "qwen-token-plan-cn": "qwen3.8-max",
  "qwen-token-plan-individual": "qwen3.8-max",
  "qwen-token-plan-individual-cn": "qwen3.8-max",
  xiaomi: "mimo-v2.6-pro",
  "xiaomi-token-plan-cn": "mimo-v2.6-pro",
  "xiaomi-token-plan-ams": "mimo-v2.6-pro",
  "xiaomi-token-plan-sgp": "mimo-v2.6-pro",
};

const LOCAL_COMPAT = { maxTokensField: "max_tokens", supportsStrictMode: false };
/** GitHub Copilot: the Anthropic route takes the token as a bearer token; every request says who started it. */
const COPILOT_COMPAT = { initiatorHeaders: true };
/** OpenCode routes a conversation by its session id. */
const OPENCODE_COMPAT = { sessionHeader: "x-opencode-session" };

/** A hosted provider whose models all come from pi's data; `name` and `envKey` are pi's. */
function hosted(provider: string, name: string, envKey: string | undefined, docs: string, extra: Partial<ImportSpec> = {}): ImportSpec {
  return { provider, name, ...(envKey ? { envKey } : {}), ...(OAUTH.has(provider) ? { oauth: true as const } : {}), docs, pi: provider, ...extra };
}

/** pi's providers with an OAuth login (`auth.oauth` in pi-ai's provider definitions). */
const OAUTH = new Set(["anthropic", "openai", "openai-codex", "github-copilot", "xai", "kimi-coding", "openrouter", "meta", "radius"]);

export const PROVIDERS: ImportSpec[] = [
  hosted("anthropic", "Anthropic", "ANTHROPIC_API_KEY", "https://docs.anthropic.com/en/docs/about-claude/models/overview", {
    modelsDev: "anthropic",
    first: [
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
    retiresOn: { "claude-opus-4-5": "2027-01-22", "claude-opus-4-5-20251101": "2027-01-22" },
  }),
  hosted("openai", "OpenAI", "OPENAI_API_KEY", "https://platform.openai.com/docs/models", {
    modelsDev: "openai",
    first: [
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
  }),
  hosted("google", "Google Gemini", "GEMINI_API_KEY", "https://ai.google.dev/gemini-api/docs/models", {
    modelsDev: "google",
    first: [
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
  }),
  hosted("openrouter", "OpenRouter", "OPENROUTER_API_KEY", "https://openrouter.ai/docs/quickstart", { modelsDev: "openrouter", api: "openai-completions" }),
  hosted("groq", "Groq", "GROQ_API_KEY", "https://console.groq.com/docs/models", { modelsDev: "groq" }),
  hosted("cerebras", "Cerebras", "CEREBRAS_API_KEY", "https://inference-docs.cerebras.ai/models/overview", { modelsDev: "cerebras" }),
  hosted("xai", "xAI", "XAI_API_KEY", "https://docs.x.ai/docs/models", { modelsDev: "xai" }),
  hosted("deepseek", "DeepSeek", "DEEPSEEK_API_KEY", "https://api-docs.deepseek.com/quick_start/pricing", { modelsDev: "deepseek" }),
  // pi's mistral-conversations: Mistral's own chat endpoint, `<baseUrl>/v1/chat/completions`.
  hosted("mistral", "Mistral", "MISTRAL_API_KEY", "https://docs.mistral.ai/getting-started/models/models_overview/", { modelsDev: "mistral" }),
  hosted("together", "Together AI", "TOGETHER_API_KEY", "https://docs.together.ai/docs/serverless-models", { modelsDev: "togetherai" }),
  hosted("fireworks", "Fireworks", "FIREWORKS_API_KEY", "https://docs.fireworks.ai/getting-started/introduction", { modelsDev: "fireworks-ai", api: "openai-completions" }),
  hosted("zai", "Z.ai (GLM Coding Plan)", "ZAI_API_KEY", "https://docs.z.ai/devpack/overview", { modelsDev: "zai-coding-plan" }),
  hosted("moonshotai", "Moonshot AI", "MOONSHOT_API_KEY", "https://platform.moonshot.ai/docs/introduction", { modelsDev: "moonshotai" }),
  hosted("kimi-coding", "Kimi For Coding", "KIMI_API_KEY", "https://www.kimi.com/coding/docs/", { modelsDev: "kimi-for-coding" }),
  hosted("minimax", "MiniMax", "MINIMAX_API_KEY", "https://platform.minimax.io/docs/guides/text-generation", { modelsDev: "minimax" }),
  hosted("huggingface", "Hugging Face", "HF_TOKEN", "https://huggingface.co/docs/inference-providers/index", { modelsDev: "huggingface" }),
  hosted("vercel-ai-gateway", "Vercel AI Gateway", "AI_GATEWAY_API_KEY", "https://vercel.com/docs/ai-gateway"),
  hosted("cloudflare-ai-gateway", "Cloudflare AI Gateway", "CLOUDFLARE_API_KEY", "https://developers.cloudflare.com/ai-gateway/", {
    api: "openai-responses",
    // The gateway reads the key from its own header; the account and gateway ids fill the base URL.
    compat: { keyHeader: "cf-aig-authorization" },
  }),
  hosted("cloudflare-workers-ai", "Cloudflare Workers AI", "CLOUDFLARE_API_KEY", "https://developers.cloudflare.com/workers-ai/"),
  hosted("github-copilot", "GitHub Copilot", "COPILOT_GITHUB_TOKEN", "https://docs.github.com/copilot", {
    api: "openai-responses",
    compat: COPILOT_COMPAT,
    apiCompat: { "anthropic-messages": { apiKeyHeader: "authorization" } },
  }),
  // The Codex backend asks every request for an originator (pi sends its own name); no key variable: a ChatGPT login.
  hosted("openai-codex", "OpenAI Codex", undefined, "https://developers.openai.com/codex/", { headers: { originator: "pi" } }),
  hosted("opencode", "OpenCode Zen", "OPENCODE_API_KEY", "https://opencode.ai/docs/zen/", { api: "openai-completions", compat: OPENCODE_COMPAT }),
  hosted("opencode-go", "OpenCode Go", "OPENCODE_API_KEY", "https://opencode.ai/docs/go/", { api: "openai-completions", compat: OPENCODE_COMPAT }),
  hosted("meta", "Meta", "META_API_KEY", "https://llama.developer.meta.com/docs/"),
  hosted("nvidia", "NVIDIA", "NVIDIA_API_KEY", "https://build.nvidia.com/models"),
  hosted("baseten", "Baseten", "BASETEN_API_KEY", "https://docs.baseten.co/development/model-apis/overview"),
  hosted("ant-ling", "Ant Ling", "ANT_LING_API_KEY", "https://api.ant-ling.com/"),
  hosted("radius", "Radius", "RADIUS_API_KEY", "https://radius.pi.dev/"),
  hosted("minimax-cn", "MiniMax CN", "MINIMAX_CN_API_KEY", "https://platform.minimaxi.com/docs/guides/text-generation"),
  hosted("moonshotai-cn", "Moonshot AI CN", "MOONSHOT_API_KEY", "https://platform.moonshot.cn/docs/introduction"),
  hosted("zai-coding-cn", "Z.AI Coding CN", "ZAI_CODING_CN_API_KEY", "https://docs.bigmodel.cn/cn/coding-plan/overview"),
  hosted("qwen-token-plan", "Qwen Token Plan Team", "QWEN_TOKEN_PLAN_TEAM_API_KEY", "https://www.alibabacloud.com/help/en/model-studio/", {
    altEnvKeys: ["QWEN_TOKEN_PLAN_API_KEY"],
  }),
  hosted("qwen-token-plan-cn", "Qwen Token Plan Team CN", "QWEN_TOKEN_PLAN_TEAM_CN_API_KEY", "https://help.aliyun.com/zh/model-studio/", {
    altEnvKeys: ["QWEN_TOKEN_PLAN_CN_API_KEY"],
  }),
  hosted("qwen-token-plan-individual", "Qwen Token Plan Individual", "QWEN_TOKEN_PLAN_INDIVIDUAL_API_KEY", "https://www.alibabacloud.com/help/en/model-studio/", {
    altEnvKeys: ["QWEN_TOKEN_PLAN_API_KEY"],
  }),
  hosted("qwen-token-plan-individual-cn", "Qwen Token Plan Individual CN", "QWEN_TOKEN_PLAN_INDIVIDUAL_CN_API_KEY", "https://help.aliyun.com/zh/model-studio/", {
    altEnvKeys: ["QWEN_TOKEN_PLAN_CN_API_KEY"],
  }),
  hosted("xiaomi", "Xiaomi", "XIAOMI_API_KEY", "https://platform.xiaomimimo.com/"),
  hosted("xiaomi-token-plan-ams", "Xiaomi Token Plan AMS", "XIAOMI_TOKEN_PLAN_AMS_API_KEY", "https://platform.xiaomimimo.com/"),
  hosted("xiaomi-token-plan-cn", "Xiaomi Token Plan CN", "XIAOMI_TOKEN_PLAN_CN_API_KEY", "https://platform.xiaomimimo.com/"),
  hosted("xiaomi-token-plan-sgp", "Xiaomi Token Plan SGP", "XIAOMI_TOKEN_PLAN_SGP_API_KEY", "https://platform.xiaomimimo.com/"),
  hosted("azure", "Azure OpenAI", "AZURE_OPENAI_API_KEY", "https://learn.microsoft.com/azure/ai-foundry/openai/how-to/responses", {
    modelsDev: "azure",
    api: "azure-openai-responses",
    // pi leaves it empty and fills it from the environment; Atomic names the template.
    baseUrl: "https://{resource}.openai.azure.com/openai/v1",
  }),
  hosted("google-vertex", "Google Vertex AI", "GOOGLE_CLOUD_API_KEY", "https://cloud.google.com/vertex-ai/generative-ai/docs/models", {
    modelsDev: "google-vertex",
    ambientAuth: [
      ["GOOGLE_CLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"],
      ["GCLOUD_PROJECT", "GOOGLE_CLOUD_LOCATION"],
    ],
  }),
  hosted("amazon-bedrock", "Amazon Bedrock", "AWS_BEARER_TOKEN_BEDROCK", "https://docs.aws.amazon.com/bedrock/latest/userguide/models-supported.html", {
    modelsDev: "amazon-bedrock",
    api: "bedrock-converse-stream",
    ambientAuth: [
      ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"],
      ["AWS_PROFILE"],
      ["AWS_CONTAINER_CREDENTIALS_RELATIVE_URI"],
      ["AWS_CONTAINER_CREDENTIALS_FULL_URI"],
      ["AWS_WEB_IDENTITY_TOKEN_FILE"],
    ],
    // Bedrock's Claude request names its own API version (in the body; the SDK moves it there).
    apiCompat: { "anthropic-bedrock": { supportsEagerToolInputStreaming: false, anthropicVersion: "bedrock-2023-05-31" } },
  }),
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
    compat: LOCAL_COMPAT,
  };
}
