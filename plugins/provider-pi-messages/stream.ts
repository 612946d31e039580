/**
 * pi's own message protocol (`pi-messages`, the Radius gateway's): one POST of
 * `{model, context, options}` to `<baseUrl>/messages` with the key as a bearer token, answered by
 * server-sent events that are pi's assistant-message events (`text_delta`, `toolcall_end`, ...)
 * ending in `done` or `error`. The context is Atomic's, which is pi's message format.
 */
import type { AssistantMessageEvent, Usage } from "../../lib/llm/index.js";
import type { ProviderCall, ProviderYield } from "../../lib/provider-kit/provider-stream.js";
import { presentHeaders } from "../../lib/provider-kit/request-headers.js";
import { sseBatches } from "../../lib/provider-kit/sse.js";
import type { AssistantStreamBuilder } from "../../lib/provider-kit/stream-builder.js";

interface PiEvent {
  type: string;
  contentIndex?: number;
  delta?: string;
  content?: string;
  contentSignature?: string;
  id?: string;
  toolName?: string;
  toolCall?: { arguments?: unknown };
  reason?: string;
  usage?: Partial<Usage>;
  errorMessage?: string;
}

export function piMessagesBody(call: ProviderCall): Record<string, unknown> {
  const { model, context, options } = call.request;
  return {
    model: model.id,
    context: { ...(context.systemPrompt ? { systemPrompt: context.systemPrompt } : {}), messages: context.messages, tools: context.tools },
    options: {
      ...(options.maxTokens ? { maxTokens: options.maxTokens } : {}),
      ...(options.thinkingLevel !== "off" && model.reasoning ? { reasoning: options.thinkingLevel } : {}),
      ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    },
  };
}

export async function* streamPiMessages(call: ProviderCall): AsyncGenerator<ProviderYield, void, undefined> {
  const response = await call.fetch(`${call.baseUrl.replace(/\/+$/, "")}/messages`, {
    method: "POST",
    headers: { ...presentHeaders(call.headers), authorization: `Bearer ${call.apiKey}`, accept: "text/event-stream", "content-type": "application/json" },
    body: JSON.stringify(piMessagesBody(call)),
    signal: call.signal,
  });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}: ${(await response.text()).slice(0, 4000)}`);
  const b = call.builder;
  yield b.start();
  const blocks = new PiBlocks(b);
  for await (const messages of sseBatches(response)) {
    for (const message of messages) {
      if (message.data === "[DONE]") continue;
      yield* blocks.events(JSON.parse(message.data) as PiEvent);
      if (b.finished) return;
    }
  }
  if (!call.signal.aborted) throw new Error(`${call.request.model.provider} stream ended without a terminal event`);
}

class PiBlocks {
  readonly #b: AssistantStreamBuilder;

  constructor(builder: AssistantStreamBuilder) {
    this.#b = builder;
  }

  *events(event: PiEvent): Generator<AssistantMessageEvent> {
    const b = this.#b;
    const key = `block${event.contentIndex ?? 0}`;
    switch (event.type) {
      case "text_start":
        yield b.textStart(key);
        break;
      case "thinking_start":
        yield b.thinkingStart(key);
        break;
      case "toolcall_start":
        yield b.toolCallStart(key, { id: event.id ?? "", name: event.toolName ?? "" });
        break;
      case "text_delta":
        yield b.textDelta(key, event.delta ?? "");
        break;
      case "thinking_delta":
        yield b.thinkingDelta(key, event.delta ?? "");
        break;
      case "toolcall_delta":
        yield b.toolCallDelta(key, event.delta ?? "");
        break;
      case "thinking_end":
        if (event.contentSignature) b.setSignature(key, event.contentSignature);
        yield b.end(key);
        break;
      case "text_end":
        yield b.end(key);
        break;
      case "toolcall_end":
        yield b.end(key, event.toolCall?.arguments !== undefined ? JSON.stringify(event.toolCall.arguments) : undefined);
        break;
      case "done":
      case "error": {
        const usage = event.usage;
        if (usage) b.setUsage({ input: usage.input ?? 0, output: usage.output ?? 0, cacheRead: usage.cacheRead ?? 0, cacheWrite: usage.cacheWrite ?? 0 });
        yield* b.endAll();
        if (event.type === "error") yield b.error(event.errorMessage ?? "The provider reported an error", event.reason === "aborted");
        else yield b.done(event.reason === "length" || event.reason === "toolUse" ? event.reason : "stop");
        break;
      }
    }
  }
}
