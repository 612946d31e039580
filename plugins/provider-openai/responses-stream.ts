/**
 * Responses API streaming mapped onto the unified events. Output items are keyed by their
 * `output_index`; a finished reasoning item is kept whole as its block's signature and a
 * message's id and phase as `{v:1,id,phase}`, so the next request can replay them.
 */
import type { AssistantMessageEvent } from "../../lib/llm/index.js";
import type { ProviderCall, ProviderYield } from "../../lib/provider-kit/provider-stream.js";
import type { AssistantStreamBuilder } from "../../lib/provider-kit/stream-builder.js";
import { buildResponsesRequest } from "./responses-request.js";
import type OpenAI from "openai";
import { openAiClient, streamedPayloads } from "./client.js";

interface Item {
  type?: string;
  id?: string;
  /** GPT-5.3-Codex and later: "commentary" or "final_answer"; must be sent back on replay. */
  phase?: string;
  call_id?: string;
  name?: string;
  arguments?: string;
}
interface ResponseBody {
  status?: string;
  usage?: { input_tokens?: number; output_tokens?: number; input_tokens_details?: { cached_tokens?: number } | null } | null;
  error?: { code?: string; message?: string } | null;
  incomplete_details?: { reason?: string } | null;
}
interface StreamEvent {
  type: string;
  output_index?: number;
  item?: Item;
  delta?: string;
  code?: string | null;
  message?: string;
  response?: ResponseBody;
}

/** The client and the model name to send: OpenAI's own API by default, a deployment on Azure. */
export interface ResponsesRoute {
  client(call: ProviderCall): OpenAI;
  /** The `model` field (Azure: the deployment's name). */
  modelName?(call: ProviderCall): string;
  /** The body as this route sends it (Codex: its own fields). */
  params?(call: ProviderCall, params: Record<string, unknown>): Record<string, unknown>;
}

export async function* streamResponses(call: ProviderCall, route?: ResponsesRoute): AsyncGenerator<ProviderYield, void, undefined> {
  const client = route ? route.client(call) : openAiClient(call);
  let params = buildResponsesRequest(call.request);
  if (route?.modelName) params.model = route.modelName(call);
  if (route?.params) params = route.params(call, params);
  const response = await client.responses.create(params as never, { signal: call.signal }).asResponse();
  const b = call.builder;
  yield b.start();
  const state: { final?: ResponseBody } = {};
  // One lazy batch per network read: mapped as the consumer walks it (see ProviderYield).
  for await (const batch of streamedPayloads<StreamEvent>(response)) yield mapEvents(b, batch, state);
  const final = state.final;
  if (call.signal.aborted) return;
  if (!final) throw new Error("OpenAI Responses stream ended without response.completed");
  if (final.usage) {
    const cached = final.usage.input_tokens_details?.cached_tokens ?? 0;
    b.setUsage({ input: (final.usage.input_tokens ?? 0) - cached, output: final.usage.output_tokens ?? 0, cacheRead: cached });
  }
  yield* b.endAll();
  if (final.status === "failed" || final.status === "cancelled") {
    yield b.error(final.error ? `${final.error.code ?? "error"}: ${final.error.message ?? "The response failed"}` : `The response ${final.status}`);
  } else if (final.status === "incomplete") {
    // Only running out of output tokens is a length stop; a filtered answer is an error.
    const reason = final.incomplete_details?.reason ?? "max_output_tokens";
    yield reason === "max_output_tokens" ? b.done("length") : b.error(`The response is incomplete (incomplete_details.reason: ${reason})`);
  } else {
    yield b.done(b.hasToolCalls() ? "toolUse" : "stop");
  }
}

/** The unified events of one batch, mapped as they are walked; the closing response goes to `state.final`. */
function* mapEvents(b: AssistantStreamBuilder, events: Iterable<StreamEvent>, state: { final?: ResponseBody }): Generator<AssistantMessageEvent, void, undefined> {
  for (const event of events) {
    const key = event.output_index ?? -1;
    switch (event.type) {
      case "response.output_item.added": {
        const item = event.item ?? {};
        if (item.type === "reasoning") yield b.thinkingStart(key);
        else if (item.type === "message") yield b.textStart(key);
        else if (item.type === "function_call") {
          yield b.toolCallStart(key, { id: `${item.call_id ?? ""}|${item.id ?? ""}`, name: item.name ?? "" });
          if (item.arguments) yield b.toolCallDelta(key, item.arguments);
        }
        break;
      }
      case "response.reasoning_summary_part.added": {
        // Summary parts are separate paragraphs.
        const index = b.indexOf(key);
        const block = index === undefined ? undefined : b.partial.content[index];
        if (block?.type === "thinking" && block.thinking !== "") yield b.thinkingDelta(key, "\n\n");
        break;
      }
      case "response.reasoning_summary_text.delta":
      case "response.reasoning_text.delta":
        if (event.delta && b.isOpen(key)) yield b.thinkingDelta(key, event.delta);
        break;
      case "response.output_text.delta":
      case "response.refusal.delta":
        if (event.delta && b.isOpen(key)) yield b.textDelta(key, event.delta);
        break;
      case "response.function_call_arguments.delta":
        if (event.delta && b.isOpen(key)) yield b.toolCallDelta(key, event.delta);
        break;
      case "response.output_item.done": {
        if (!b.isOpen(key)) break;
        const item = event.item ?? {};
        if (item.type === "reasoning") b.setSignature(key, JSON.stringify(item));
        else if (item.type === "message" && item.id) b.setSignature(key, JSON.stringify({ v: 1, id: item.id, ...(item.phase ? { phase: item.phase } : {}) }));
        yield b.end(key, item.type === "function_call" ? item.arguments : undefined);
        break;
      }
      case "response.completed":
      case "response.incomplete":
      case "response.failed":
        state.final = event.response ?? {};
        break;
      case "error":
        throw new Error(`Error Code ${event.code ?? "unknown"}: ${event.message ?? "Unknown error"}`);
    }
  }
}
