/**
 * The two ways text reaches a model outside the run loop's own turns: the input pipeline a
 * prompt passes before it is queued or started, and a one-off completion (`complete`).
 */
import type { AssistantStream, ImageContent, Model } from "../../lib/llm/index.js";
import { ErrorCode, KernelError } from "../../kernel/index.js";
import type { CompletionRequest, PromptInput } from "./api.js";
import type { AgentHooks } from "./hooks.js";

export const STREAMING_WITHOUT_BEHAVIOR = "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";
export const NO_MODEL = "No model selected. Use set_model or start with --provider/--model.";

/** Runs the `input` taps; "handled" when one consumed the prompt (an extension command). */
export async function applyInputHooks(hooks: AgentHooks, input: PromptInput): Promise<"handled" | { text: string; images: ImageContent[] | undefined }> {
  if (!hooks.input.isUsed()) return { text: input.text, images: input.images };
  const result = await hooks.input.promise({
    text: input.text,
    ...(input.images ? { images: input.images } : {}),
    source: input.source ?? "rpc",
    via: input.via ?? "prompt",
    ...(input.streamingBehavior ? { streamingBehavior: input.streamingBehavior } : {}),
    ...(input.seq !== undefined ? { seq: input.seq } : {}),
  });
  if (result.rejected !== undefined) throw new KernelError(ErrorCode.CONFLICT, result.rejected);
  if (result.handled) return "handled";
  return { text: result.text, images: result.images };
}

/** One model call with no run around it: the provider registered for the model's API streams it. */
export function completeOnce(
  hooks: AgentHooks,
  model: Model,
  request: CompletionRequest,
  sessionId: string | undefined,
  callIndex: number,
  noProvider: (model: Model) => string,
): AssistantStream {
  const stream = hooks.stream.get(model.api)?.call({
    model,
    context: { systemPrompt: request.systemPrompt, messages: request.messages, tools: request.tools ?? [] },
    options: {
      signal: request.signal,
      thinkingLevel: request.thinkingLevel ?? "off",
      ...(sessionId ? { sessionId } : {}),
      ...(request.maxTokens ? { maxTokens: request.maxTokens } : {}),
      callIndex,
      direct: true,
    },
  });
  if (!stream) throw new KernelError(ErrorCode.UNAVAILABLE, noProvider(model));
  return stream;
}
