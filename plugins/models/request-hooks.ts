/**
 * The models plugin owns the provider request hooks and hands them to every provider through
 * the registry (`requestHooks`), so the toolkit's frame applies them to each HTTP request.
 */
import type { Model } from "../../lib/llm/index.js";
import type { ProviderRequestHooks } from "../../lib/provider-kit/index.js";
import type { ModelsHooks } from "./hooks.js";

export function providerRequestHooks(hooks: ModelsHooks): ProviderRequestHooks {
  return {
    active: () =>
      hooks.before_provider_headers.isUsed() || hooks.before_provider_request.isUsed() || hooks.after_provider_response.isUsed() || hooks.provider_stream_event.isUsed(),
    async headers(model: Model, headers: Record<string, string>) {
      if (!hooks.before_provider_headers.isUsed()) return headers;
      const editable: Record<string, string | null> = { ...headers };
      await hooks.before_provider_headers.promise({ headers: editable, model });
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(editable)) if (typeof value === "string") out[name] = value;
      return out;
    },
    async payload(model: Model, payload: unknown) {
      if (!hooks.before_provider_request.isUsed()) return payload;
      return (await hooks.before_provider_request.promise({ payload, model })).payload;
    },
    async response(model: Model, status: number, headers: Record<string, string>) {
      if (hooks.after_provider_response.isUsed()) await hooks.after_provider_response.promise({ status, headers, model });
    },
    observesStream: () => hooks.provider_stream_event.isUsed(),
    async streamEvent(model: Model, data: unknown) {
      await hooks.provider_stream_event.promise({ model, data });
    },
  };
}
