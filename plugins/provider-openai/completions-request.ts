/**
 * The Chat Completions request body (`openai-completions`: OpenAI and every OpenAI-compatible
 * server). History becomes system/user/assistant/tool messages; images in tool results travel
 * in a user message right after them, since tool messages only carry text.
 */
import type { AssistantMessage, ImageContent, LlmMessage, Model, StreamRequest, TextContent } from "../../kernel/index.js";
import { defaultMaxTokens, isSameModel, prepareHistory } from "../../lib/provider-kit/history.js";
import { dataUrl, normalizeChatToolCallId, reasoningEffort, toolResultRun } from "./shared.js";

type ChatMessage = Record<string, unknown>;

/** The reasoning fields OpenAI-compatible servers stream thinking in, in lookup order. */
export const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"] as const;

export function buildChatRequest(request: StreamRequest): Record<string, unknown> {
  const { model, context, options } = request;
  const messages: ChatMessage[] = [];
  if (context.systemPrompt) messages.push({ role: systemRole(model), content: context.systemPrompt });
  messages.push(...convertMessages(prepareHistory(context.messages, model, { normalizeToolCallId: normalizeChatToolCallId }), model));
  const maxTokensField = model.compat?.maxTokensField === "max_tokens" ? "max_tokens" : "max_completion_tokens";
  const params: Record<string, unknown> = {
    model: model.id,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    [maxTokensField]: defaultMaxTokens(model, options.maxTokens),
  };
  if (context.tools.length > 0) {
    const strict = model.compat?.supportsStrictMode === false ? {} : { strict: false };
    params.tools = context.tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters, ...strict } }));
  }
  const effort = reasoningEffort(model, options.thinkingLevel);
  if (effort) params.reasoning_effort = effort;
  return params;
}

/** Reasoning models on OpenAI take `developer`; most compatible servers only know `system`. */
function systemRole(model: Model): "developer" | "system" {
  const explicit = model.compat?.supportsDeveloperRole;
  const developer = typeof explicit === "boolean" ? explicit : model.baseUrl.includes("api.openai.com");
  return model.reasoning && developer ? "developer" : "system";
}

export function convertMessages(messages: LlmMessage[], model: Model): ChatMessage[] {
  const out: ChatMessage[] = [];
  const acceptsImages = model.input.includes("image");
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "user") {
      const content = userContent(message.content);
      if (content.length > 0) out.push({ role: "user", content });
    } else if (message.role === "assistant") {
      const converted = assistantMessage(message, model);
      if (converted) out.push(converted);
    } else {
      const { outputs, images, end } = toolResultRun(messages, i);
      for (const output of outputs) out.push({ role: "tool", tool_call_id: output.toolCallId, content: output.text });
      i = end;
      if (images.length > 0 && acceptsImages) {
        out.push({ role: "user", content: [{ type: "text", text: "Attached image(s) from the tool result:" }, ...images.map(imagePart)] });
      }
    }
  }
  return out;
}

function userContent(content: string | (TextContent | ImageContent)[]): string | Record<string, unknown>[] {
  if (typeof content === "string") return content;
  return content
    .filter((block) => block.type === "image" || block.text.trim() !== "")
    .map((block) => (block.type === "text" ? { type: "text", text: block.text } : imagePart(block)));
}

function imagePart(image: ImageContent): Record<string, unknown> {
  return { type: "image_url", image_url: { url: dataUrl(image) } };
}

function assistantMessage(message: AssistantMessage, model: Model): ChatMessage | undefined {
  const text = message.content
    .filter((b): b is TextContent => b.type === "text")
    .map((b) => b.text)
    .join("");
  const calls = message.content.filter((b) => b.type === "toolCall");
  if (text.trim() === "" && calls.length === 0) return undefined;
  const out: ChatMessage = { role: "assistant", content: text.trim() === "" ? null : text };
  if (calls.length > 0) {
    out.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
  }
  // Thinking goes back under the field it arrived in (its signature), to the same model only.
  if (isSameModel(message, model)) {
    for (const block of message.content) {
      if (block.type === "thinking" && (REASONING_FIELDS as readonly string[]).includes(block.thinkingSignature ?? "")) {
        out[block.thinkingSignature!] = ((out[block.thinkingSignature!] as string | undefined) ?? "") + block.thinking;
      }
    }
  }
  return out;
}
