/**
 * Plugin `provider-pi-messages`: streams `pi-messages` models (pi's own message protocol: the
 * Radius gateway, or any backend speaking it, e.g. a models.json provider with that `api`). No SDK:
 * the frame's fetch and the provider kit's SSE reader.
 */
import { definePlugin } from "../../kernel/index.js";
import { PI_MESSAGES_API, lazyProviderStream, providerModels } from "../../lib/provider-kit/index.js";

export default definePlugin({
  name: "provider-pi-messages",
  requires: ["models"],
  description: "pi's message protocol (pi-messages): the Radius gateway.",
  apply(k) {
    const models = providerModels(k);
    k.hooks.stream.for(PI_MESSAGES_API).tap(k.name, (request) => lazyProviderStream(models, request, async () => (await import("./stream.js")).streamPiMessages));
  },
});
