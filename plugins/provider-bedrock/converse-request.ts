/**
 * The Converse request (`bedrock-converse-stream`: every Bedrock model but Claude) from the
 * unified context: the system prompt, the turns as Converse content blocks (consecutive tool
 * results in one user turn), the tools, the output limit, and the thinking fields the model
 * family takes (OpenAI's GPT models a nested `reasoning.effort`, gpt-oss a flat
 * `reasoning_effort`; other families think by themselves), as pi sends them.
 */
import type { AssistantMessage, ImageContent, LlmMessage, Model, StreamRequest, ThinkingLevel } from "../../lib/llm/index.js";
import { clampThinkingLevel, thinkingLevelsFor } from "../../lib/llm/index.js";
import { mappedLevelValue } from "../../lib/provider-kit/compat.js";
import { defaultMaxTokens, fitToolCallId, imagesOf, prepareHistory, textOf } from "../../lib/provider-kit/history.js";

type Block = Record<string, unknown>;
/** Bedrock refuses an empty text block. */
const EMPTY = "(empty)";
const GPT_EFFORT: Record<string, string> = { minimal: "low", low: "low", medium: "medium", high: "high", xhigh: "xhigh", max: "max" };
const GPT_OSS_EFFORT: Record<string, string> = { minimal: "low", low: "low", medium: "medium", high: "high", xhigh: "high", max: "high" };

export function buildConverseRequest(request: StreamRequest): Record<string, unknown> {
  const { model, context, options } = request;
  const history = prepareHistory(context.messages, model, { normalizeToolCallId: (id) => fitToolCallId(id.replace(/[^a-zA-Z0-9_-]/g, "_"), 64) });
  const input: Record<string, unknown> = {
    modelId: model.id,
    messages: convertMessages(history),
    inferenceConfig: { maxTokens: defaultMaxTokens(model, options.maxTokens) },
  };
  if (context.systemPrompt) input.system = [{ text: context.systemPrompt }];
  if (context.tools.length > 0) {
    input.toolConfig = { tools: context.tools.map((tool) => ({ toolSpec: { name: tool.name, description: tool.description, inputSchema: { json: tool.parameters } } })) };
  }
  const thinking = thinkingFields(model, options.thinkingLevel);
  if (thinking) input.additionalModelRequestFields = thinking;
  return input;
}

export function thinkingFields(model: Model, requested: ThinkingLevel): Record<string, unknown> | undefined {
  if (!model.reasoning) return undefined;
  const level = clampThinkingLevel(requested, thinkingLevelsFor(model));
  if (level === "off") return undefined;
  const name = `${model.id} ${model.name}`.toLowerCase();
  if (name.includes("gpt-oss")) return { reasoning_effort: GPT_OSS_EFFORT[level] };
  if (name.includes("gpt-")) return { reasoning: { effort: mappedLevelValue(model, level) ?? GPT_EFFORT[level] } };
  return undefined;
}

function convertMessages(messages: LlmMessage[]): Block[] {
  const out: Block[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "user") {
      const content = typeof message.content === "string" ? [{ text: message.content || EMPTY }] : userBlocks(message.content);
      out.push({ role: "user", content });
    } else if (message.role === "assistant") {
      const content = assistantBlocks(message);
      if (content.length > 0) out.push({ role: "assistant", content });
    } else {
      const results: Block[] = [];
      for (; i < messages.length && messages[i]!.role === "toolResult"; i++) {
        const result = messages[i] as Extract<LlmMessage, { role: "toolResult" }>;
        const text = textOf(result.content);
        const images = imagesOf(result.content).map((image) => ({ image: imageBlock(image) }));
        results.push({
          toolResult: {
            toolUseId: result.toolCallId,
            content: [{ text: text || (images.length > 0 ? "(see attached image)" : "(no output)") }, ...images],
            status: result.isError ? "error" : "success",
          },
        });
      }
      i--;
      out.push({ role: "user", content: results });
    }
  }
  return out;
}

function userBlocks(content: Exclude<Extract<LlmMessage, { role: "user" }>["content"], string>): Block[] {
  const blocks: Block[] = content.flatMap((part): Block[] => (part.type === "text" ? (part.text.trim() === "" ? [] : [{ text: part.text }]) : [{ image: imageBlock(part) }]));
  return blocks.length > 0 ? blocks : [{ text: EMPTY }];
}

function assistantBlocks(message: AssistantMessage): Block[] {
  const blocks: Block[] = [];
  for (const block of message.content) {
    if (block.type === "text") {
      if (block.text.trim() !== "") blocks.push({ text: block.text });
    } else if (block.type === "thinking") {
      // Only Claude's reasoning carries a signature; these models take the text back without one.
      if (block.thinking.trim() !== "") blocks.push({ reasoningContent: { reasoningText: { text: block.thinking } } });
    } else {
      blocks.push({ toolUse: { toolUseId: block.id, name: block.name, input: block.arguments } });
    }
  }
  return blocks;
}

function imageBlock(image: ImageContent): Block {
  const format = image.mimeType.replace(/^image\//, "").replace("jpg", "jpeg");
  return { format, source: { bytes: Buffer.from(image.data, "base64") } };
}
