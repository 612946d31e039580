/**
 * What each built-in provider's request must look like on the loopback fake (providers.test.ts
 * runs them): the keys and base paths the test sets up, and per provider its path, auth headers
 * and the body fields its compat asks for.
 */
import { expect } from "vitest";
import type { RecordedRequest } from "./server.js";

export const KEYS = {
  ANTHROPIC_API_KEY: "sk-ant",
  OPENAI_API_KEY: "sk-oai",
  GEMINI_API_KEY: "gem",
  OPENROUTER_API_KEY: "sk-or",
  GROQ_API_KEY: "gsk",
  CEREBRAS_API_KEY: "csk",
  XAI_API_KEY: "xai-key",
  DEEPSEEK_API_KEY: "ds-key",
  MISTRAL_API_KEY: "mis-key",
  TOGETHER_API_KEY: "tg-key",
  FIREWORKS_API_KEY: "fw-key",
  ZAI_API_KEY: "zai-key",
  MOONSHOT_API_KEY: "ms-key",
  KIMI_API_KEY: "kimi-key",
  MINIMAX_API_KEY: "mm-key",
  HF_TOKEN: "hf-key",
  AZURE_OPENAI_API_KEY: "az-key",
  GOOGLE_CLOUD_API_KEY: "gcp-key",
  AWS_ACCESS_KEY_ID: "AKIDEXAMPLE",
  AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
  AWS_REGION: "eu-west-1",
  AI_GATEWAY_API_KEY: "vercel-key",
  CLOUDFLARE_API_KEY: "cf-key",
  CLOUDFLARE_ACCOUNT_ID: "acct-1",
  CLOUDFLARE_GATEWAY_ID: "gw-1",
  COPILOT_GITHUB_TOKEN: "gh-token",
  OPENCODE_API_KEY: "oc-key",
  META_API_KEY: "meta-key",
  NVIDIA_API_KEY: "nv-key",
  BASETEN_API_KEY: "bt-key",
  ANT_LING_API_KEY: "al-key",
  RADIUS_API_KEY: "radius-key",
  MINIMAX_CN_API_KEY: "mmcn-key",
  ZAI_CODING_CN_API_KEY: "zaicn-key",
  QWEN_TOKEN_PLAN_TEAM_API_KEY: "qwt-key",
  QWEN_TOKEN_PLAN_TEAM_CN_API_KEY: "qwtcn-key",
  // Both individual plans read the region's shared variable when their own is unset (pi's fallback).
  QWEN_TOKEN_PLAN_API_KEY: "qw-shared",
  QWEN_TOKEN_PLAN_CN_API_KEY: "qwcn-shared",
  XIAOMI_API_KEY: "xm-key",
  XIAOMI_TOKEN_PLAN_AMS_API_KEY: "xm-ams",
  XIAOMI_TOKEN_PLAN_CN_API_KEY: "xm-cn",
  XIAOMI_TOKEN_PLAN_SGP_API_KEY: "xm-sgp",
};

/** A ChatGPT access token as `atomic login openai-codex` stores it: a JWT naming the account. */
export const CODEX_TOKEN = ["e30", Buffer.from(JSON.stringify({ "https://api.openai.com/auth": { chatgpt_account_id: "acct-codex" } })).toString("base64url"), "sig"].join(".");

/** Where each provider's requests go on the fake (the path its real base URL has). */
export const BASE_PATHS: Record<string, string> = {
  anthropic: "",
  openai: "/v1",
  google: "/v1beta",
  openrouter: "/api/v1",
  groq: "/openai/v1",
  cerebras: "/v1",
  xai: "/v1",
  deepseek: "",
  // pi's meaning: the host root; requests go to <baseUrl>/v1/chat/completions.
  mistral: "",
  together: "/v1",
  fireworks: "/inference/v1",
  zai: "/api/coding/paas/v4",
  moonshotai: "/v1",
  "kimi-coding": "/coding/v1",
  minimax: "/anthropic",
  huggingface: "/v1",
  "google-vertex": "",
  "amazon-bedrock": "",
  "vercel-ai-gateway": "",
  // The account and gateway ids fill the address from the environment.
  "cloudflare-ai-gateway": "/v1/{CLOUDFLARE_ACCOUNT_ID}/{CLOUDFLARE_GATEWAY_ID}/compat",
  "cloudflare-workers-ai": "/client/v4/accounts/{CLOUDFLARE_ACCOUNT_ID}/ai/v1",
  "github-copilot": "",
  "openai-codex": "/backend-api",
  opencode: "/inference/openai/v1",
  "opencode-go": "/inference/go/openai/v1",
  meta: "/v1",
  nvidia: "/v1",
  baseten: "/v1",
  "ant-ling": "/v1",
  radius: "/v1",
  "minimax-cn": "/anthropic",
  "moonshotai-cn": "/v1",
  "zai-coding-cn": "/api/coding/paas/v4",
  "qwen-token-plan": "/compatible-mode/v1",
  "qwen-token-plan-cn": "/compatible-mode/v1",
  "qwen-token-plan-individual": "/compatible-mode/v1",
  "qwen-token-plan-individual-cn": "/compatible-mode/v1",
  xiaomi: "/v1",
  "xiaomi-token-plan-ams": "/v1",
  "xiaomi-token-plan-cn": "/v1",
  "xiaomi-token-plan-sgp": "/v1",
};

const header = (request: RecordedRequest, name: string) => request.headers[name] as string | undefined;

export interface Case {
  provider: string;
  id?: string;
  path: string | RegExp;
  auth: (request: RecordedRequest) => void;
  body?: (body: any, request: RecordedRequest) => void;
}

const bearer = (key: string) => (request: RecordedRequest) => expect(header(request, "authorization")).toBe(`Bearer ${key}`);
/** Anthropic-compatible endpoints: the key in x-api-key only, the first API version. */
const xApiKey = (key: string) => (request: RecordedRequest) => {
  expect(header(request, "x-api-key")).toBe(key);
  expect(header(request, "authorization")).toBeUndefined();
  expect(header(request, "anthropic-version")).toBe("2023-06-01");
};

export const CASES: Case[] = [
  {
    provider: "anthropic",
    path: "/v1/messages",
    auth: (request) => {
      expect(header(request, "authorization")).toBe("Bearer sk-ant");
      expect(header(request, "x-api-key")).toBeUndefined();
    },
    body: (body) => expect(body).toMatchObject({ model: "claude-opus-5-5", thinking: { type: "adaptive" }, output_config: { effort: "high" } }),
  },
  {
    provider: "openai",
    path: "/v1/responses",
    auth: bearer("sk-oai"),
    body: (body) => expect(body).toMatchObject({ model: "gpt-6.2-sol", reasoning: { effort: "high" }, store: false }),
  },
  {
    provider: "google",
    path: "/v1beta/models/gemini-4-argon:streamGenerateContent",
    auth: (request) => expect(header(request, "x-goog-api-key")).toBe("gem"),
    body: (body) => expect(body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: "HIGH" }),
  },
  {
    provider: "openrouter",
    path: "/api/v1/chat/completions",
    auth: bearer("sk-or"),
    body: (body) => expect(body).toMatchObject({ model: "moonshotai/kimi-k2.7-code", reasoning: { effort: "high" }, max_tokens: expect.any(Number) }),
  },
  {
    provider: "openrouter",
    id: "anthropic/claude-sonnet-5.5",
    path: "/api/v1/messages",
    auth: xApiKey("sk-or"),
    body: (body) => expect(body.model).toBe("anthropic/claude-sonnet-5.5"),
  },
  {
    provider: "groq",
    path: "/openai/v1/chat/completions",
    auth: bearer("gsk"),
    body: (body) => expect(body).toMatchObject({ model: "openai/gpt-oss-120b", reasoning_effort: "high", max_completion_tokens: expect.any(Number) }),
  },
  { provider: "cerebras", path: "/v1/chat/completions", auth: bearer("csk"), body: (body) => expect(body).toMatchObject({ model: "gpt-oss-120b", reasoning_effort: "high" }) },
  { provider: "xai", path: "/v1/responses", auth: bearer("xai-key"), body: (body) => expect(body).toMatchObject({ model: "grok-4.7", reasoning: { effort: "high" } }) },
  {
    provider: "deepseek",
    path: "/chat/completions",
    auth: bearer("ds-key"),
    body: (body) => expect(body).toMatchObject({ model: "deepseek-v4-pro", thinking: { type: "enabled" }, reasoning_effort: "high", max_tokens: expect.any(Number) }),
  },
  {
    provider: "mistral",
    path: "/v1/chat/completions",
    auth: bearer("mis-key"),
    body: (body) => expect(body).toMatchObject({ model: "devstral-medium-latest", max_tokens: expect.any(Number) }),
  },
  {
    provider: "together",
    path: "/v1/chat/completions",
    auth: bearer("tg-key"),
    body: (body) => {
      expect(body).toMatchObject({ model: "moonshotai/Kimi-K3", reasoning: { enabled: true }, max_tokens: expect.any(Number) });
      // Together rejects the `strict` field on tools.
      expect(body.tools[0].function.strict).toBeUndefined();
    },
  },
  {
    provider: "fireworks",
    path: "/inference/v1/chat/completions",
    auth: bearer("fw-key"),
    body: (body) => expect(body).toMatchObject({ model: "accounts/fireworks/models/kimi-k3", reasoning_effort: "high" }),
  },
  {
    provider: "fireworks",
    id: "accounts/fireworks/models/minimax-m3",
    path: "/inference/v1/messages",
    auth: xApiKey("fw-key"),
    body: (body) => expect(body).toMatchObject({ thinking: { type: "adaptive" } }),
  },
  {
    provider: "zai",
    path: "/api/coding/paas/v4/chat/completions",
    auth: bearer("zai-key"),
    body: (body) => expect(body).toMatchObject({ model: "glm-5.3", thinking: { type: "enabled" }, reasoning_effort: "high", tool_stream: true, max_tokens: expect.any(Number) }),
  },
  {
    provider: "moonshotai",
    path: "/v1/chat/completions",
    auth: bearer("ms-key"),
    body: (body) => expect(body).toMatchObject({ model: "kimi-k2.7-code", thinking: { type: "enabled" }, max_tokens: expect.any(Number) }),
  },
  {
    provider: "kimi-coding",
    path: "/coding/v1/chat/completions",
    auth: bearer("kimi-key"),
    body: (body) => expect(body).toMatchObject({ model: "kimi-for-coding", reasoning_effort: "high" }),
  },
  { provider: "minimax", path: "/anthropic/v1/messages", auth: xApiKey("mm-key"), body: (body) => expect(body.model).toBe("MiniMax-M3") },
  { provider: "huggingface", path: "/v1/chat/completions", auth: bearer("hf-key"), body: (body) => expect(body.model).toBe("moonshotai/Kimi-K2.7-Code") },
  {
    provider: "azure",
    path: "/openai/v1/responses",
    auth: (request) => {
      expect(header(request, "api-key")).toBe("az-key");
      expect(request.query["api-version"]).toBe("v1");
    },
    // The deployment's name, from AZURE_OPENAI_DEPLOYMENT_NAME_MAP.
    body: (body) => expect(body).toMatchObject({ model: "team-sol", reasoning: { effort: "high" } }),
  },
  {
    provider: "google-vertex",
    path: "/v1beta1/publishers/google/models/gemini-4-argon:streamGenerateContent",
    auth: (request) => expect(header(request, "x-goog-api-key")).toBe("gcp-key"),
    body: (body) => expect(body.generationConfig.thinkingConfig).toEqual({ includeThoughts: true, thinkingLevel: "HIGH" }),
  },
  {
    provider: "vercel-ai-gateway",
    path: "/v1/messages",
    auth: xApiKey("vercel-key"),
    body: (body) => expect(body).toMatchObject({ model: "zai/glm-5.3", thinking: { type: "enabled", budget_tokens: expect.any(Number) } }),
  },
  {
    provider: "cloudflare-ai-gateway",
    path: "/v1/acct-1/gw-1/compat/chat/completions",
    // The gateway's own header carries the key; the SDK's Authorization is removed.
    auth: (request) => {
      expect(header(request, "cf-aig-authorization")).toBe("Bearer cf-key");
      expect(header(request, "authorization")).toBeUndefined();
    },
    body: (body) => expect(body).toMatchObject({ model: "workers-ai/@cf/moonshotai/kimi-k2.7-code", max_tokens: expect.any(Number) }),
  },
  {
    provider: "cloudflare-workers-ai",
    path: "/client/v4/accounts/acct-1/ai/v1/chat/completions",
    auth: bearer("cf-key"),
    body: (body) => expect(body.model).toBe("@cf/moonshotai/kimi-k2.7-code"),
  },
  {
    provider: "github-copilot",
    path: "/responses",
    auth: (request) => {
      expect(header(request, "authorization")).toBe("Bearer gh-token");
      // Copilot's client headers (catalog data) and who started the request.
      expect(request.headers).toMatchObject({
        "copilot-integration-id": "vscode-chat",
        "editor-version": "vscode/1.107.0",
        "x-initiator": "user",
        "openai-intent": "conversation-edits",
      });
    },
    body: (body) => expect(body).toMatchObject({ model: "gpt-6.1-sol", reasoning: { effort: "high" } }),
  },
  {
    provider: "github-copilot",
    id: "claude-opus-5.5",
    path: "/v1/messages",
    // The Anthropic route takes the Copilot token as a bearer token (pi).
    auth: bearer("gh-token"),
    body: (body) => expect(body.model).toBe("claude-opus-5.5"),
  },
  {
    provider: "openai-codex",
    path: "/backend-api/codex/responses",
    auth: (request) => {
      expect(header(request, "authorization")).toBe(`Bearer ${CODEX_TOKEN}`);
      expect(request.headers).toMatchObject({ "chatgpt-account-id": "acct-codex", "openai-beta": "responses=experimental", originator: "pi" });
    },
    body: (body) => {
      expect(body).toMatchObject({
        model: "gpt-6.2-sol",
        store: false,
        text: { verbosity: "low" },
        include: ["reasoning.encrypted_content"],
        tool_choice: "auto",
        parallel_tool_calls: true,
      });
      // The system prompt is the leading developer item, not `instructions`.
      expect(body.instructions).toBeUndefined();
      expect(body.input[0]).toEqual({ role: "developer", content: "You are a test." });
    },
  },
  { provider: "opencode", path: "/inference/openai/v1/chat/completions", auth: bearer("oc-key"), body: (body) => expect(body.model).toBe("kimi-k2.7-code") },
  { provider: "opencode-go", path: "/inference/go/openai/v1/chat/completions", auth: bearer("oc-key"), body: (body) => expect(body.model).toBe("kimi-k3.1-pro") },
  { provider: "meta", path: "/v1/responses", auth: bearer("meta-key"), body: (body) => expect(body).toMatchObject({ model: "muse-spark-1.3", reasoning: { effort: "high" } }) },
  { provider: "nvidia", path: "/v1/chat/completions", auth: bearer("nv-key"), body: (body) => expect(body.model).toBe("nvidia/nemotron-3.5-super-vl-120b-a12b") },
  {
    provider: "baseten",
    path: "/v1/chat/completions",
    auth: bearer("bt-key"),
    body: (body) => expect(body).toMatchObject({ model: "zai-org/GLM-5.3", reasoning_effort: "high" }),
  },
  {
    provider: "ant-ling",
    path: "/v1/chat/completions",
    auth: bearer("al-key"),
    body: (body) => expect(body).toMatchObject({ model: "Ring-2.6-1T", reasoning: { effort: "high" } }),
  },
  {
    provider: "radius",
    path: "/v1/messages",
    auth: bearer("radius-key"),
    // pi's protocol: the model, the context as pi's messages, the options.
    body: (body) =>
      expect(body).toMatchObject({
        model: "balanced",
        context: { systemPrompt: "You are a test.", messages: [{ role: "user", content: "Hello" }] },
        options: { reasoning: "high" },
      }),
  },
  { provider: "minimax-cn", path: "/anthropic/v1/messages", auth: xApiKey("mmcn-key"), body: (body) => expect(body.model).toBe("MiniMax-M3") },
  {
    provider: "moonshotai-cn",
    path: "/v1/chat/completions",
    auth: bearer("ms-key"),
    body: (body) => expect(body).toMatchObject({ model: "kimi-k2.7-code", thinking: { type: "enabled" } }),
  },
  {
    provider: "zai-coding-cn",
    path: "/api/coding/paas/v4/chat/completions",
    auth: bearer("zaicn-key"),
    body: (body) => expect(body).toMatchObject({ model: "glm-5.3", thinking: { type: "enabled" } }),
  },
  {
    provider: "qwen-token-plan",
    path: "/compatible-mode/v1/chat/completions",
    auth: bearer("qwt-key"),
    body: (body) => expect(body).toMatchObject({ model: "qwen3.8-max", enable_thinking: true }),
  },
  { provider: "qwen-token-plan-cn", path: "/compatible-mode/v1/chat/completions", auth: bearer("qwtcn-key"), body: (body) => expect(body.model).toBe("qwen3.8-max") },
  { provider: "qwen-token-plan-individual", path: "/compatible-mode/v1/chat/completions", auth: bearer("qw-shared"), body: (body) => expect(body.model).toBe("qwen3.8-max") },
  { provider: "qwen-token-plan-individual-cn", path: "/compatible-mode/v1/chat/completions", auth: bearer("qwcn-shared"), body: (body) => expect(body.model).toBe("qwen3.8-max") },
  {
    provider: "xiaomi",
    path: "/v1/chat/completions",
    auth: bearer("xm-key"),
    body: (body) => expect(body).toMatchObject({ model: "mimo-v2.6-pro", thinking: { type: "enabled" } }),
  },
  { provider: "xiaomi-token-plan-ams", path: "/v1/chat/completions", auth: bearer("xm-ams"), body: (body) => expect(body.model).toBe("mimo-v2.6-pro") },
  { provider: "xiaomi-token-plan-cn", path: "/v1/chat/completions", auth: bearer("xm-cn"), body: (body) => expect(body.model).toBe("mimo-v2.6-pro") },
  { provider: "xiaomi-token-plan-sgp", path: "/v1/chat/completions", auth: bearer("xm-sgp"), body: (body) => expect(body.model).toBe("mimo-v2.6-pro") },
  {
    provider: "amazon-bedrock",
    id: "amazon.nova-pro-v1:0",
    path: /^\/model\/amazon\.nova-pro-v1(:|%3A)0\/converse-stream$/,
    // The Converse API through the AWS SDK: SigV4 in the configured region.
    auth: (request) => expect(header(request, "authorization")).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, /),
    body: (body) =>
      expect(body).toMatchObject({
        system: [{ text: "You are a test." }],
        messages: [{ role: "user", content: [{ text: "Hello" }] }],
        inferenceConfig: { maxTokens: expect.any(Number) },
      }),
  },
  {
    provider: "amazon-bedrock",
    path: "/model/us.anthropic.claude-opus-5-5/invoke-with-response-stream",
    // SigV4 with the environment's keys, in its region, for the bedrock service.
    auth: (request) =>
      expect(header(request, "authorization")).toMatch(
        /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=\S+, Signature=[0-9a-f]{64}$/,
      ),
    body: (body) => {
      expect(body).toMatchObject({ anthropic_version: "bedrock-2023-05-31", thinking: { type: "adaptive" }, output_config: { effort: "high" } });
      expect(body.model).toBeUndefined();
      expect(body.anthropic_beta).toEqual(["fine-grained-tool-streaming-2025-05-14"]);
    },
  },
];
