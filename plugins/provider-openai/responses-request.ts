/**
 * The Responses API request body (`openai-responses`). Stateless (`store:false`): reasoning
 * items travel back verbatim (with their encrypted content), assistant text keeps its message
 * id and phase, and a tool call's internal id `call_id|item_id` is split back into both.
 */
import type { AssistantMessage, ImageContent, LlmMessage, Model, StreamRequest, TextContent } from "../../lib/llm/index.js";
import { samplingParamsFor } from "../../lib/provider-kit/compat.js";
import { defaultMaxTokens, isSameModel, prepareHistory } from "../../lib/provider-kit/history.js";
import { callIdOf, dataUrl, normalizeResponsesToolCallId, reasoningEffort, toolResultRun } from "./shared.js";

type InputItem = Record<string, unknown>;

export function buildResponsesRequest(request: StreamRequest): Record<string, unknown> {
  const { model, context, options } = request;
  const params: Record<string, unknown> = {
    model: model.id,
    input: convertInput(prepareHistory(context.messages, model, { normalizeToolCallId: normalizeResponsesToolCallId }), model),
    stream: true,
    store: false,
    max_output_tokens: defaultMaxTokens(model, options.maxTokens),
  };
  if (context.systemPrompt) params.instructions = context.systemPrompt;
  if (options.sessionId) params.prompt_cache_key = options.sessionId;
  if (context.tools.length > 0) {
    params.tools = context.tools.map((tool) => ({ type: "function", name: tool.name, description: tool.description, parameters: tool.parameters, strict: false }));
  }
  const effort = reasoningEffort(model, options.thinkingLevel);
  if (effort === "none") params.reasoning = { effort };
  else if (effort) {
    params.reasoning = { effort, summary: "auto" };
    // Stateless replay needs the encrypted reasoning back in the next request.
    params.include = ["reasoning.encrypted_content"];
  }
  // Last, so models.json sampling parameters override the named fields (pi).
  Object.assign(params, samplingParamsFor(model, options.thinkingLevel));
  return params;
}

export function convertInput(messages: LlmMessage[], model: Model): InputItem[] {
  const out: InputItem[] = [];
  const acceptsImages = model.input.includes("image");
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === "user") {
      const content = userContent(message.content);
      if (content.length > 0) out.push({ role: "user", content });
    } else if (message.role === "assistant") {
      out.push(...assistantItems(message, model));
    } else {
      const { outputs, images, end } = toolResultRun(messages, i);
      for (const output of outputs) out.push({ type: "function_call_output", call_id: callIdOf(output.toolCallId), output: output.text });
      i = end;
      if (images.length > 0 && acceptsImages) {
        out.push({ role: "user", content: [{ type: "input_text", text: "Attached image(s) from the tool result:" }, ...images.map(imagePart)] });
      }
    }
  }
  return out;
}

function userContent(content: string | (TextContent | ImageContent)[]): Record<string, unknown>[] {
  if (typeof content === "string") return content.trim() === "" ? [] : [{ type: "input_text", text: content }];
  return content
    .filter((block) => block.type === "image" || block.text.trim() !== "")
    .map((block) => (block.type === "text" ? { type: "input_text", text: block.text } : imagePart(block)));
}

function imagePart(image: ImageContent): Record<string, unknown> {
  return { type: "input_image", detail: "auto", image_url: dataUrl(image) };
}

function assistantItems(message: AssistantMessage, model: Model): InputItem[] {
  const same = isSameModel(message, model);
  const out: InputItem[] = [];
  for (const block of message.content) {
    if (block.type === "thinking") {
      const item = same ? parseJson(block.thinkingSignature) : undefined;
      if (item?.type === "reasoning") out.push(item);
    } else if (block.type === "text") {
      if (block.text === "") continue;
      const signature = same ? parseJson(block.textSignature) : undefined;
      const part = { type: "output_text", text: block.text, annotations: [] };
      // The phase (commentary / final answer) goes back with the text: OpenAI's guidance for
      // GPT-5.3-Codex and later, whose long tasks degrade without it.
      const phase = typeof signature?.phase === "string" ? { phase: signature.phase } : {};
      out.push(
        typeof signature?.id === "string"
          ? { type: "message", role: "assistant", id: signature.id, status: "completed", content: [part], ...phase }
          : { role: "assistant", content: block.text },
      );
    } else {
      const [callId, itemId] = block.id.split("|");
      out.push({
        type: "function_call",
        call_id: callId,
        ...(same && itemId ? { id: itemId } : {}),
        name: block.name,
        arguments: JSON.stringify(block.arguments),
      });
    }
  }
  return out;
}

function parseJson(text: string | undefined): Record<string, unknown> | undefined {
  if (!text) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
