/**
 * One LLM call: builds the provider request from the live context, relays the unified
 * stream as message_start / message_update / message_end, and always ends with exactly one
 * final assistant message (errors and aborts become stopReason "error" / "aborted").
 */
import { announce } from "../../kernel/index.js";
import { assistantEventBatches, emptyUsage, type AssistantMessage, type AssistantStream, type Model, type StreamRequest, type ThinkingLevel } from "../../lib/llm/index.js";
import { toLlmMessages } from "./convert.js";
import { endMessage } from "./hooks.js";
import { MessageSizeCap } from "./message-cap.js";
import type { Run } from "./run.js";

export async function streamAssistant(run: Run): Promise<AssistantMessage> {
  const { signal } = run;
  const model = run.deps.model();
  if (!model) return finishWithoutStream(run, failure(undefined, "No model selected.", signal));
  // Aborted before the call (e.g. during the previous turn's tools): no request is sent.
  if (signal.aborted) return finishWithoutStream(run, failure(model, "Request was aborted", signal));

  // Anything that fails before the provider answers (a context tap, converting the history,
  // the provider's own setup) ends this turn as an error message, never the run.
  let stream: AssistantStream | undefined;
  let requested: ThinkingLevel;
  try {
    ({ stream, requested } = await openStream(run, model, signal));
  } catch (error) {
    return finishWithoutStream(run, failure(model, messageOf(error), signal));
  }
  if (!stream) {
    return finishWithoutStream(run, failure(model, run.deps.noProvider(model), signal));
  }

  let partial: AssistantMessage | undefined;
  let final: AssistantMessage | undefined;
  const begin = async (message: AssistantMessage) => {
    partial = message;
    run.messages.push(message);
    await announce(run, "message_start", { message });
  };
  const updateHook = run.hooks.message_update;
  const cap = new MessageSizeCap(run.deps.maxMessageChars?.());
  try {
    // A batch is walked without awaiting, except for what must be awaited per event (a tapped
    // hook, a congested consumer): the adapter maps each event as it is reached.
    relay: for await (const batch of assistantEventBatches(stream)) {
      for (const event of batch) {
        if (!partial) await begin(event.partial);
        if (event.type === "start") continue;
        if (event.type === "done") {
          final = withThinkingLevel(event.message, requested);
          break relay;
        }
        if (event.type === "error") {
          final = withThinkingLevel(event.error, requested);
          break relay;
        }
        if (cap.exceeded(event)) {
          final = withThinkingLevel(cap.stopped(event.partial), requested);
          break relay;
        }
        // `usage` (pi 1.x) is the partial's own object: what the provider has reported so far.
        const update = { type: "message_update" as const, message: event.partial, usage: event.partial.usage, assistantMessageEvent: event };
        run.events.dispatch(update);
        if (updateHook.isUsed()) await updateHook.promise(update);
        const congestion = run.events.drain();
        if (congestion) await congestion;
        // An abort that came while this waited (a hook, a slow client) ends the relay here, not
        // after the rest of the network read's events.
        if (signal.aborted) break relay;
      }
    }
  } catch (error) {
    final = failure(model, messageOf(error), signal, partial);
  }
  final ??= failure(model, signal.aborted ? "Request was aborted" : "Provider stream ended without a final message", signal, partial);
  if (signal.aborted && final.stopReason !== "aborted" && final.stopReason !== "error") {
    final = { ...final, stopReason: "aborted", errorMessage: final.errorMessage ?? "Request was aborted" };
  }

  if (!partial) return finishWithoutStream(run, final);
  const index = run.messages.lastIndexOf(partial);
  if (index >= 0) run.messages[index] = final;
  else run.messages.push(final);
  return endMessage(run, final, run.messages);
}

async function openStream(run: Run, model: Model, signal: AbortSignal): Promise<{ stream: AssistantStream | undefined; requested: ThinkingLevel }> {
  let context = run.messages;
  if (run.hooks.context.isUsed()) context = (await run.hooks.context.promise({ messages: [...context] })).messages;
  let parts = { systemPrompt: run.systemPrompt, tools: run.deps.tools.specs(), messages: context };
  if (run.hooks.context_with_system.isUsed()) parts = await run.hooks.context_with_system.promise(parts);
  const retrying = run.takeRetrying();
  const request: StreamRequest = {
    model,
    context: { systemPrompt: parts.systemPrompt, messages: toLlmMessages(parts.messages), tools: parts.tools },
    options: { signal, thinkingLevel: run.deps.thinkingLevel(), sessionId: run.deps.sessionId(), callIndex: run.nextCallIndex(), ...(retrying ? { retrying } : {}) },
  };
  return { stream: run.hooks.stream.get(model.api)?.call(request), requested: request.options.thinkingLevel };
}

/**
 * The answer records the level it was requested at, as pi 1.6's agent loop records it (a virtual
 * model's router reads it back as `previous` / `failed`). A stream that routed the call to
 * another level (a virtual model) states that level on its answer itself, which stands.
 */
function withThinkingLevel(message: AssistantMessage, requested: ThinkingLevel): AssistantMessage {
  return message.thinkingLevel ? message : { ...message, thinkingLevel: requested };
}

async function finishWithoutStream(run: Run, message: AssistantMessage): Promise<AssistantMessage> {
  run.messages.push(message);
  await announce(run, "message_start", { message });
  return endMessage(run, message, run.messages);
}

function failure(model: Model | undefined, errorMessage: string, signal: AbortSignal, partial?: AssistantMessage): AssistantMessage {
  const base: AssistantMessage = partial ?? {
    role: "assistant",
    content: [],
    api: model?.api ?? "unknown",
    provider: model?.provider ?? "unknown",
    model: model?.id ?? "unknown",
    usage: emptyUsage(),
    stopReason: "error",
    timestamp: Date.now(),
  };
  return { ...base, content: [...base.content], stopReason: signal.aborted ? "aborted" : "error", errorMessage };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
