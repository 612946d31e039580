/**
 * What each adapter puts on the wire for a thinking level: the request fields that carry it, as
 * one comparable string (undefined: nothing is sent, the model's default). The catalog tests
 * check with it that every level a model offers reaches the wire as its own setting, and
 * scripts/import-pi-catalog.ts uses it to drop levels that would send the same thing.
 */
import type { Model, StreamRequest, ThinkingLevel } from "../../lib/llm/index.js";
import {
  ANTHROPIC_API,
  ANTHROPIC_BEDROCK_API,
  AZURE_OPENAI_RESPONSES_API,
  BEDROCK_CONVERSE_API,
  GOOGLE_API,
  GOOGLE_VERTEX_API,
  OPENAI_COMPLETIONS_API,
  MISTRAL_API,
  OPENAI_CODEX_API,
  OPENAI_RESPONSES_API,
  PI_MESSAGES_API,
} from "../../lib/provider-kit/api-names.js";
import { thinkingFields } from "../../plugins/provider-bedrock/converse-request.js";
import { buildMistralRequest } from "../../plugins/provider-openai/mistral.js";
import { buildAnthropicRequest } from "../../plugins/provider-anthropic/request.js";
import { thinkingConfig } from "../../plugins/provider-google/request.js";
import { buildChatRequest } from "../../plugins/provider-openai/completions-request.js";
import { buildResponsesRequest } from "../../plugins/provider-openai/responses-request.js";

/** The Chat Completions fields a thinking format may set. */
const CHAT_THINKING_FIELDS = ["reasoning_effort", "thinking", "enable_thinking", "chat_template_kwargs", "chat_template_args", "reasoning"];

export function thinkingWire(model: Model, level: ThinkingLevel): string | undefined {
  const request: StreamRequest = {
    model,
    context: { systemPrompt: "", messages: [{ role: "user", content: "Hello", timestamp: 0 }], tools: [] },
    options: { signal: new AbortController().signal, thinkingLevel: level, callIndex: 1 },
  };
  switch (model.api) {
    case ANTHROPIC_API:
    case ANTHROPIC_BEDROCK_API: {
      const { params } = buildAnthropicRequest(request);
      return params.thinking ? JSON.stringify([params.thinking, params.output_config]) : undefined;
    }
    case OPENAI_RESPONSES_API:
    case OPENAI_CODEX_API:
    case AZURE_OPENAI_RESPONSES_API: {
      const params = buildResponsesRequest(request);
      return params.reasoning ? JSON.stringify(params.reasoning) : undefined;
    }
    case OPENAI_COMPLETIONS_API: {
      const params = buildChatRequest(request);
      const picked = Object.fromEntries(CHAT_THINKING_FIELDS.filter((field) => params[field] !== undefined).map((field) => [field, params[field]]));
      return Object.keys(picked).length > 0 ? JSON.stringify(picked) : undefined;
    }
    case GOOGLE_API:
    case GOOGLE_VERTEX_API: {
      const config = thinkingConfig(model, level);
      return config ? JSON.stringify(config) : undefined;
    }
    case MISTRAL_API: {
      const params = buildMistralRequest(request);
      const picked = Object.fromEntries(["reasoning_effort", "prompt_mode"].filter((field) => params[field] !== undefined).map((field) => [field, params[field]]));
      return Object.keys(picked).length > 0 ? JSON.stringify(picked) : undefined;
    }
    case BEDROCK_CONVERSE_API: {
      const fields = thinkingFields(model, level);
      return fields ? JSON.stringify(fields) : undefined;
    }
    // pi's protocol sends the level itself (`options.reasoning`).
    case PI_MESSAGES_API:
      return model.reasoning && level !== "off" ? level : undefined;
    default:
      throw new Error(`No thinking wire check for API ${model.api}`);
  }
}
