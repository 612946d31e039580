import { describe, expect, it } from "vitest";
import { emptyUsage, type AssistantMessage } from "../llm/index.js";
import { classifyError, isContextOverflow, isRetryableError, isSilentOverflow } from "./errors.js";

describe("isContextOverflow", () => {
  it.each([
    ['400 {"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long: 213462 tokens > 200000 maximum"}}', "Anthropic"],
    ["400 Your input exceeds the context window of this model. Please adjust your input and try again.", "OpenAI Responses"],
    ["400 This model's maximum context length is 128000 tokens. However, your messages resulted in 130512 tokens.", "OpenAI Chat"],
    ['400 {"error":{"code":400,"message":"The input token count (1200000) exceeds the maximum number of tokens allowed (1048576).","status":"INVALID_ARGUMENT"}}', "Gemini"],
    ["400 context_length_exceeded", "error code"],
    ["This model's maximum prompt length is 131072 but the request contains 140000 tokens.", "xAI"],
    ["Please reduce the length of the messages or completion.", "Groq"],
    ["prompt token count of 140000 exceeds the limit of 128000", "Copilot"],
    ["Request has too many tokens", "generic"],
    ["the request exceeds the available context size, try increasing it", "llama.cpp"],
    ['500 {"error":"prompt too long; exceeded max context length by 1234 tokens"}', "ollama"],
    ['413 {"type":"error","error":{"type":"request_too_large","message":"Request exceeds the maximum allowed number of bytes."}}', "Anthropic 413"],
    ["413 Request Entity Too Large", "gateway 413"],
    ["413 status code (no body)", "empty 413"],
    ["400 Prompt contains 40000 tokens and 0 draft tokens, too large for model with 32768 maximum context length", "Mistral"],
    ["422 Input validation error: `inputs` tokens + `max_new_tokens` must be <= 4096. Given: 4000 `inputs` tokens and 512 `max_new_tokens`", "TGI"],
    ["400 This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion).", "vLLM"],
    [
      "400 Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 8192 tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input. The number of tokens to keep is greater than the context length",
      "LM Studio",
    ],
    ['400 {"error":{"message":"prompt too long; exceeded max context length by 4021 tokens"}}', "ollama"],
    ["400 the input length exceeds the context length", "ollama runner"],
    ["Prompt contains 240000 tokens, too large for model with 128000 maximum context length", "Mistral"],
    ["400 The input (516368 tokens) is longer than the model's context length (262144 tokens).", "Together"],
    ['400 {"code":"1261","message":"Prompt too long"}', "z.ai"],
    ['400 {"code":"1261","message":"Prompt exceeds max length"}', "z.ai CN"],
    ["Provider finish_reason: model_context_window_exceeded", "z.ai finish reason"],
    ["400 Prompt has 140000 tokens, but the configured context size is 131072 tokens", "DS4"],
  ])("recognises %s (%s)", (message) => {
    expect(isContextOverflow(message)).toBe(true);
    expect(isRetryableError(message)).toBe(false);
    expect(classifyError(message)).toBe("overflow");
  });

  it.each([
    "429 Rate limit reached for gpt-4o on tokens per min (TPM): Limit 30000, Used 29000, Requested 2000.",
    "Too many tokens per minute, slow down",
    "401 invalid x-api-key",
    "",
    undefined,
  ])("does not flag %s", (message) => {
    expect(isContextOverflow(message)).toBe(false);
  });

  it("detects a silent overflow from usage", () => {
    const message: AssistantMessage = {
      role: "assistant",
      content: [],
      api: "a",
      provider: "p",
      model: "m",
      usage: { ...emptyUsage(), input: 150_000, cacheRead: 60_000 },
      stopReason: "stop",
      timestamp: 0,
    };
    expect(isSilentOverflow(message, 200_000)).toBe(true);
    expect(isSilentOverflow(message, 300_000)).toBe(false);
  });
});

describe("isRetryableError", () => {
  it.each([
    '429 {"type":"error","error":{"type":"rate_limit_error","message":"Rate limited"}}',
    '529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    "500 Internal server error",
    "502 Bad Gateway",
    "503 Service Unavailable",
    "504 Gateway Timeout",
    '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
    "Error Code server_error: The server had an error",
    '429 {"error":{"code":429,"message":"Resource has been exhausted","status":"RESOURCE_EXHAUSTED"}}',
    "fetch failed",
    "terminated",
    "read ECONNRESET",
    "connect ECONNREFUSED 127.0.0.1:443",
    "Connection error.",
    "socket hang up",
    "Request timed out.",
    "Anthropic stream ended without message_stop",
    "Provider finish_reason: network_error",
  ])("retries %s", (message) => {
    expect(isRetryableError(message)).toBe(true);
    expect(classifyError(message)).toBe("retryable");
  });

  it.each([
    "429 You exceeded your current quota, please check your plan and billing details.",
    "429 insufficient_quota",
    '400 {"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low"}}',
    "401 Incorrect API key provided",
    "400 Invalid value for 'tools'",
    "Request was aborted",
    "No API key found for anthropic.",
    undefined,
  ])("does not retry %s", (message) => {
    expect(isRetryableError(message)).toBe(false);
  });
});

describe("a proxy's refusal", () => {
  it("is retried for a transient status only, not for its policy's 403 or 407", () => {
    const refusal = (status: string) => `Connection error. (The proxy http://proxy.corp:3128 refused the connection to api.openai.com: ${status})`;
    expect(isRetryableError(refusal("403 Forbidden"))).toBe(false);
    expect(isRetryableError(refusal("407 Proxy Authentication Required"))).toBe(false);
    expect(isRetryableError(refusal("502 Bad Gateway"))).toBe(true);
    expect(isRetryableError(refusal("503 Service Unavailable"))).toBe(true);
    // Any other connection error stays retryable.
    expect(isRetryableError("Connection error.")).toBe(true);
  });
});

describe("an empty 400", () => {
  it("means overflow only from the servers that answer overflow that way", () => {
    expect(isContextOverflow("400 status code (no body)")).toBe(false);
    expect(isContextOverflow("400 status code (no body)", { baseUrl: "https://api.openai.com/v1" })).toBe(false);
    expect(isContextOverflow("400 status code (no body)", { baseUrl: "https://api.cerebras.ai/v1" })).toBe(true);
    expect(isContextOverflow("400 status code (no body)", { baseUrl: "https://api.mistral.ai/v1" })).toBe(true);
    expect(classifyError("400 status code (no body)")).toBe("fatal");
  });
});

describe("quotas", () => {
  const gemini = (quotaId: string, delay: string) =>
    `429 {"error":{"code":429,"message":"You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.\\n* Quota exceeded for metric: generativelanguage.googleapis.com/generate_content_free_tier_requests, limit: 10\\nPlease retry in ${delay}.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.QuotaFailure","violations":[{"quotaMetric":"generativelanguage.googleapis.com/generate_content_free_tier_requests","quotaId":"${quotaId}"}]},{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"${delay.replace(/\.\d+/, "")}"}]}}`;

  it("retries Gemini's per-minute quota but not its daily one or OpenAI's insufficient_quota", () => {
    expect(isRetryableError(gemini("GenerateRequestsPerMinutePerProjectPerModel-FreeTier", "34.074824224s"))).toBe(true);
    expect(isRetryableError(gemini("GenerateRequestsPerDayPerProjectPerModel-FreeTier", "3600s"))).toBe(false);
    expect(
      isRetryableError(
        '429 {"error":{"message":"You exceeded your current quota, please check your plan and billing details.","type":"insufficient_quota","code":"insufficient_quota"}}',
      ),
    ).toBe(false);
  });
});

describe("classification edge cases", () => {
  it("recognises Anthropic's input + max_tokens overflow", () => {
    const message =
      '400 {"type":"error","error":{"type":"invalid_request_error","message":"input length and `max_tokens` exceed context limit: 188240 + 21333 > 200000, decrease input length or `max_tokens` and try again"}}';
    expect(isContextOverflow(message)).toBe(true);
    expect(isRetryableError(message)).toBe(false);
  });

  it("never retries the replay provider's own failures, whatever the cassette is called", () => {
    for (const name of ["demo", "timeout", "overloaded-503", "rate-limit", "terminated"]) {
      expect(isRetryableError(`Cassette exhausted: ${name}`)).toBe(false);
      expect(isRetryableError(`Cassette turn 2 of ${name} has no done event`)).toBe(false);
    }
    expect(isRetryableError("Invalid JSON on line 3 of /home/u/.atomic/cassettes/x.jsonl: Unexpected end of JSON input")).toBe(false);
    expect(isRetryableError("Empty cassette: /tmp/cassettes/server-error.jsonl")).toBe(false);
    // A recorded provider error replayed from a cassette is still judged on its own words.
    expect(isRetryableError('529 {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toBe(true);
  });

  it("treats a number as a status only where it is one", () => {
    expect(isRetryableError('400 {"type":"error","error":{"type":"invalid_request_error","message":"messages.429.content.0: unexpected tool_use_id"}}')).toBe(false);
    expect(isRetryableError("Request failed at item 503 of the batch")).toBe(false);
    expect(isRetryableError("upstream returned HTTP 503")).toBe(true);
    expect(isRetryableError('{"error":{"code":502,"message":"Provider returned error"}}')).toBe(true);
    expect(isRetryableError("Provider returned error (code 502)")).toBe(true);
    expect(isRetryableError("Provider returned error (code 400)")).toBe(false);
  });

  it("does not retry a client error whose text mentions a transient word", () => {
    expect(isRetryableError("400 tools.0.input_schema.properties.timeout: Invalid schema")).toBe(false);
    expect(isRetryableError('401 {"error":{"message":"Upstream server error while checking the key"}}')).toBe(false);
    expect(isRetryableError("408 Request Timeout")).toBe(true);
    expect(isRetryableError("409 Conflict")).toBe(true);
  });

  it("retries an in-stream error known only by its type", () => {
    expect(isRetryableError("An error occurred while processing your request. (server_error)")).toBe(true);
  });
});
