/**
 * Conversation history as Chat Completions messages. Tool results become `tool` messages
 * (images follow in a user message, since tool messages carry text only); thinking goes back to
 * the same model under the field it arrived in; the compat quirks of the server apply.
 */
import type { AssistantMessage, ImageContent, LlmMessage, Model, TextContent } from "../../lib/llm/index.js";
import { isSameModel } from "../../lib/provider-kit/history.js";
import type { CompletionsCompat } from "./completions-compat.js";
import { dataUrl, toolResultRun } from "./shared.js";

export type ChatMessage = Record<string, unknown>;

/** The reasoning fields OpenAI-compatible servers stream thinking in, in lookup order. */
export const REASONING_FIELDS = ["reasoning_content", "reasoning", "reasoning_text"] as const;

/** What a server that forbids a user turn right after tool results gets in between. */
export const TOOL_RESULTS_BRIDGE = "I have processed the tool results.";

export function convertMessages(messages: LlmMessage[], model: Model, compat: CompletionsCompat): ChatMessage[] {
  const out: ChatMessage[] = [];
  const acceptsImages = model.input.includes("image");
  let afterToolResults = false;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "user") {
      const content = userContent(message.content);
      if (content.length === 0) continue;
      if (afterToolResults && compat.requiresAssistantAfterToolResult) out.push({ role: "assistant", content: TOOL_RESULTS_BRIDGE });
      out.push({ role: "user", content });
      afterToolResults = false;
    } else if (message.role === "assistant") {
      const converted = assistantMessage(message, model, compat);
      if (converted) out.push(converted);
      afterToolResults = false;
    } else {
      const { outputs, images, end } = toolResultRun(messages, i);
      for (const [n, output] of outputs.entries()) {
        const name = compat.requiresToolResultName ? { name: (messages[i + n] as { toolName?: string }).toolName ?? "" } : {};
        out.push({ role: "tool", tool_call_id: output.toolCallId, content: output.text, ...name });
      }
      i = end;
      afterToolResults = true;
      if (images.length > 0 && acceptsImages) {
        if (compat.requiresAssistantAfterToolResult) out.push({ role: "assistant", content: TOOL_RESULTS_BRIDGE });
        out.push({ role: "user", content: [{ type: "text", text: "Attached image(s) from the tool result:" }, ...images.map(imagePart)] });
        afterToolResults = false;
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

function assistantMessage(message: AssistantMessage, model: Model, compat: CompletionsCompat): ChatMessage | undefined {
  const same = isSameModel(message, model);
  const thinking = same ? message.content.filter((b) => b.type === "thinking" && b.thinking.trim() !== "") : [];
  let text = message.content
    .filter((b): b is TextContent => b.type === "text")
    .map((b) => b.text)
    .join("");
  if (compat.requiresThinkingAsText && thinking.length > 0) {
    text = [...thinking.map((b) => (b.type === "thinking" ? b.thinking : "")), text].filter((part) => part.trim() !== "").join("\n\n");
  }
  const calls = message.content.filter((b) => b.type === "toolCall");
  if (text.trim() === "" && calls.length === 0) return undefined;
  const out: ChatMessage = { role: "assistant", content: text.trim() === "" ? null : text };
  if (calls.length > 0) {
    out.tool_calls = calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } }));
    // OpenRouter: the encrypted reasoning a call carried goes back with it, to the same model.
    const details = same ? calls.flatMap((c) => (c.type === "toolCall" && c.thoughtSignature ? parseDetail(c.thoughtSignature) : [])) : [];
    if (details.length > 0) out.reasoning_details = details;
  }
  // Thinking goes back under the field it arrived in (its signature), to the same model only.
  if (!compat.requiresThinkingAsText) {
    for (const block of thinking) {
      if (block.type === "thinking" && (REASONING_FIELDS as readonly string[]).includes(block.thinkingSignature ?? "")) {
        out[block.thinkingSignature!] = ((out[block.thinkingSignature!] as string | undefined) ?? "") + block.thinking;
      }
    }
  }
  if (compat.requiresReasoningContentOnAssistantMessages && model.reasoning && out.reasoning_content === undefined) out.reasoning_content = "";
  return out;
}

function parseDetail(signature: string): Record<string, unknown>[] {
  try {
    const value = JSON.parse(signature) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? [value as Record<string, unknown>] : [];
  } catch {
    return [];
  }
}
