/**
 * The Gemini `generateContent` request: history as user/model `contents` (tool responses merged
 * into one user turn, thought signatures replayed to the same model), tools as function
 * declarations, and the thinking level as a `thinkingLevel` (Gemini 3 and later) or a 2.5
 * `thinkingBudget`.
 */
import type { AssistantMessage, ImageContent, LlmMessage, Model, StreamRequest, TextContent, ThinkingLevel, ToolResultMessage } from "../../lib/llm/index.js";
import { clampThinkingLevel, thinkingLevelsFor } from "../../lib/llm/index.js";
import { mappedLevelValue } from "../../lib/provider-kit/compat.js";
import { defaultMaxTokens, isSameModel, prepareHistory, textOf } from "../../lib/provider-kit/history.js";

type Part = Record<string, unknown>;
interface Content {
  role: "user" | "model";
  parts: Part[];
}
type OnLevel = Exclude<ThinkingLevel, "off">;

// Gemini 3.1 Pro added MEDIUM; Pro has no MINIMAL.
const GEMINI3_PRO: Record<OnLevel, string> = { minimal: "LOW", low: "LOW", medium: "MEDIUM", high: "HIGH", xhigh: "HIGH", max: "HIGH" };
const GEMINI3_FLASH: Record<OnLevel, string> = { minimal: "MINIMAL", low: "LOW", medium: "MEDIUM", high: "HIGH", xhigh: "HIGH", max: "HIGH" };
const BUDGET_PRO: Record<OnLevel, number> = { minimal: 128, low: 2048, medium: 8192, high: 32768, xhigh: 32768, max: 32768 };
const BUDGET_FLASH: Record<OnLevel, number> = { minimal: 512, low: 2048, medium: 8192, high: 24576, xhigh: 24576, max: 24576 };
const BUDGET_DEFAULT: Record<OnLevel, number> = { minimal: 1024, low: 2048, medium: 8192, high: 16384, xhigh: 24576, max: 32768 };

export interface GeminiRequest {
  model: string;
  contents: Content[];
  config: Record<string, unknown>;
}

export function buildGeminiRequest(request: StreamRequest): GeminiRequest {
  const { model, context, options } = request;
  const config: Record<string, unknown> = { maxOutputTokens: defaultMaxTokens(model, options.maxTokens) };
  if (context.systemPrompt) config.systemInstruction = context.systemPrompt;
  if (context.tools.length > 0) {
    config.tools = [{ functionDeclarations: context.tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.parameters })) }];
  }
  const thinking = thinkingConfig(model, options.thinkingLevel);
  if (thinking) config.thinkingConfig = thinking;
  // Gemini counts thinking inside maxOutputTokens: a budget comes on top of the answer's allowance.
  const budget = typeof thinking?.thinkingBudget === "number" ? thinking.thinkingBudget : 0;
  if (budget > 0) config.maxOutputTokens = Math.min((config.maxOutputTokens as number) + budget, model.maxTokens);
  return { model: model.id, contents: convertMessages(prepareHistory(context.messages, model), model), config };
}

/** Undefined leaves the model's default. Thinking that cannot be switched off is turned down instead. */
export function thinkingConfig(model: Model, requested: ThinkingLevel): Record<string, unknown> | undefined {
  if (!model.reasoning) return undefined;
  const level = clampThinkingLevel(requested, thinkingLevelsFor(model));
  const id = model.id.toLowerCase();
  // A models.json thinkingLevelMap names the level (Gemini 3) or the budget (2.5) itself.
  const mapped = mappedLevelValue(model, level);
  if (isGemini3(model)) {
    const table = id.includes("pro") ? GEMINI3_PRO : GEMINI3_FLASH;
    if (level === "off") return { thinkingLevel: mapped ?? table.minimal };
    return { includeThoughts: true, thinkingLevel: mapped ?? table[level] };
  }
  if (mapped !== undefined && Number.isInteger(Number(mapped))) {
    return Number(mapped) === 0 ? { thinkingBudget: 0 } : { includeThoughts: true, thinkingBudget: Number(mapped) };
  }
  const pro = id.includes("2.5-pro");
  const flash = id.includes("2.5-flash");
  if (level === "off") {
    if (flash) return { thinkingBudget: 0 };
    return pro ? { thinkingBudget: BUDGET_PRO.minimal } : undefined;
  }
  const table = pro ? BUDGET_PRO : flash ? BUDGET_FLASH : BUDGET_DEFAULT;
  return { includeThoughts: true, thinkingBudget: table[level] };
}

export function convertMessages(messages: LlmMessage[], model: Model): Content[] {
  const out: Content[] = [];
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "user") {
      const parts = userParts(message.content);
      if (parts.length > 0) out.push({ role: "user", parts });
    } else if (message.role === "assistant") {
      const parts = modelParts(message, model);
      if (parts.length > 0) out.push({ role: "model", parts });
    } else {
      // All responses to one model turn go back in a single user turn.
      const parts: Part[] = [...responseParts(message)];
      while (messages[i + 1]?.role === "toolResult") parts.push(...responseParts(messages[++i] as ToolResultMessage));
      out.push({ role: "user", parts });
    }
  }
  return out;
}

function userParts(content: string | (TextContent | ImageContent)[]): Part[] {
  if (typeof content === "string") return content.trim() === "" ? [] : [{ text: content }];
  return content.filter((b) => b.type === "image" || b.text.trim() !== "").map((b) => (b.type === "text" ? { text: b.text } : inline(b)));
}

function inline(image: ImageContent): Part {
  return { inlineData: { mimeType: image.mimeType, data: image.data } };
}

/**
 * Gemini 3 rejects a step whose first function call lacks its thought signature (parallel calls
 * sign only the first). A step from another model, or an unsigned one, gets the documented
 * placeholder that skips the check, on its first call.
 */
export const SKIP_THOUGHT_SIGNATURE = "skip_thought_signature_validator";

/** Gemini 3 and later (and Gemma 4): a thinking level instead of a budget, signed function calls. */
function isGemini3(model: Model): boolean {
  const id = model.id.toLowerCase();
  const major = /gemini-(\d+)/.exec(id)?.[1];
  return (major !== undefined && Number(major) >= 3) || /gemma-?4/.test(id);
}

function modelParts(message: AssistantMessage, model: Model): Part[] {
  const same = isSameModel(message, model);
  let firstCall = true;
  const out: Part[] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      if (block.thinking.trim() === "") continue;
      out.push({ thought: true, text: block.thinking, ...(same && block.thinkingSignature ? { thoughtSignature: block.thinkingSignature } : {}) });
    } else if (block.type === "text") {
      if (block.text === "") continue;
      out.push({ text: block.text, ...(same && block.textSignature ? { thoughtSignature: block.textSignature } : {}) });
    } else {
      const signature = same && block.thoughtSignature ? block.thoughtSignature : firstCall && isGemini3(model) ? SKIP_THOUGHT_SIGNATURE : undefined;
      firstCall = false;
      out.push({ functionCall: { name: block.name, args: block.arguments }, ...(signature ? { thoughtSignature: signature } : {}) });
    }
  }
  return out;
}

function responseParts(message: ToolResultMessage): Part[] {
  const text = textOf(message.content);
  const images = typeof message.content === "string" ? [] : message.content.filter((b): b is ImageContent => b.type === "image");
  const body = text || (images.length > 0 ? "(see attached image)" : "(no output)");
  return [{ functionResponse: { name: message.toolName, response: message.isError ? { error: body } : { output: body } } }, ...images.map(inline)];
}
