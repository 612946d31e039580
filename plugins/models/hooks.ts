/** The provider request hooks the models plugin declares; every provider's requests call them (request-hooks.ts). */
import { AsyncSeriesHook, AsyncSeriesWaterfallHook } from "tapable";
import { notify, transform, type DeclaredHooks } from "../../kernel/index.js";
import type { Model } from "../../lib/llm/index.js";

export function modelsHookDeclarations() {
  return {
    before_provider_headers: notify(
      new AsyncSeriesHook<[{ headers: Record<string, string | null>; model: Model }]>(["event"]),
      "Before a provider request: taps edit `headers` in place (a value adds or changes one, null removes it).",
    ),
    before_provider_request: transform(
      new AsyncSeriesWaterfallHook<[{ payload: unknown; model: Model }]>(["event"]),
      "Before a provider request: taps may replace the request body.",
    ),
    provider_stream_event: notify(
      new AsyncSeriesHook<[{ model: Model; data: unknown }]>(["event"]),
      "A provider's streaming response carried one server-sent event (its data parsed as JSON), before the adapter reads it; taps are awaited in stream order.",
    ),
    after_provider_response: notify(
      new AsyncSeriesHook<[{ status: number; headers: Record<string, string>; model: Model }]>(["event"]),
      "A provider answered: its status and headers.",
    ),
  };
}

export type ModelsHooks = DeclaredHooks<ReturnType<typeof modelsHookDeclarations>>;
