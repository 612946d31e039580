/**
 * Events of pi 1.x's extension API, as kernel taps (see event-adapters.ts for the pattern):
 * before_agent_start with pi 1.x's `messageType` and mutable `systemPromptOptions`,
 * agent_before_settle (boundary.ts), context_with_system over the whole request in pi's
 * transcript form, provider_stream_event, session_compact_failed and the ui_prompt pair.
 * `cache_warming_decision` never fires: Atomic does not warm prompt caches.
 */
import { toCustomMessage } from "./actions.js";
import { fromTranscript, toTranscript } from "./compat/transcript.js";
import { answered, notifyAdapter as notify, type Adapter, type Result } from "./event-site.js";
import type { ExtensionEventName } from "./types/events.js";

export const PI1_ADAPTERS = {
  session_compact_failed: notify("session_compact_failed", (p) => ({ type: "session_compact_failed", ...p })),
  provider_stream_event: notify("provider_stream_event", (p) => ({ type: "provider_stream_event", provider: p.model.provider, api: p.model.api, model: p.model.id, data: p.data })),
  ui_prompt_start: notify("ui_prompt_start", (p) => ({ type: "ui_prompt_start", ...p })),
  ui_prompt_end: notify("ui_prompt_end", (p) => ({ type: "ui_prompt_end", ...p })),
  cache_warming_decision: undefined,

  agent_before_settle: ({ call, host, record }) => host.settle.add(record.path, call),

  before_agent_start: ({ hooks, tap, call, host }) =>
    hooks.before_agent_start.tapPromise(tap, async (payload) => {
      const systemPromptOptions = host.promptOptions.for(host, payload.inject);
      const custom = host.triggeredRun(payload.inject, payload.prompt);
      const event = {
        type: "before_agent_start",
        ...(custom ? { messageType: "custom", message: custom } : { messageType: "user", prompt: payload.prompt, images: payload.images }),
        // pi 1.x keeps `prompt` for a custom run too (its text): handlers written for 0.x read it.
        ...(custom ? { prompt: payload.prompt } : {}),
        systemPrompt: payload.systemPrompt,
        systemPromptOptions,
      };
      const result = answered<Result<"before_agent_start">>(await call(event, { systemPrompt: () => payload.systemPrompt }));
      if (result?.message) payload.inject.push(toCustomMessage(result.message));
      return typeof result?.systemPrompt === "string" ? { ...payload, systemPrompt: result.systemPrompt } : payload;
    }),

  context_with_system: ({ hooks, tap, call, host, record }) =>
    hooks.context_with_system.tapPromise(tap, async (parts) => {
      // A copy the handler may change: the live conversation is never touched.
      const messages = host.ownsMessages(parts.messages) ? parts.messages : structuredClone(parts.messages);
      const transcript = toTranscript({ ...parts, messages });
      const result = answered<Result<"context_with_system">>(await call({ type: "context_with_system", messages: transcript }));
      const returned = Array.isArray(result?.messages) ? result.messages : transcript;
      const request = fromTranscript(returned);
      if (!request) {
        host.report(
          record.path,
          "context_with_system",
          "the messages returned must start with a system message (it carries the prompt and the tools); the request was sent without this handler's change",
        );
        return parts;
      }
      host.ownMessages(request.messages);
      return request;
    }),
} satisfies Partial<Record<ExtensionEventName, Adapter | undefined>>;
