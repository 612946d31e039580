/**
 * Plugin `provider-anthropic`: registers the Anthropic model table and streams
 * `anthropic-messages` models through the official SDK. The adapter and the SDK are imported
 * on first use (or warmed when the startup model needs them).
 */
import { definePlugin } from "../../kernel/index.js";
import { ANTHROPIC_API, lazyProviderStream, warmSdkWhenUsed } from "../../lib/provider-kit/index.js";
import { anthropicProvider } from "./models.js";

export default definePlugin({
  name: "provider-anthropic",
  requires: ["models"],
  description: "Anthropic Messages API (anthropic-messages) via @anthropic-ai/sdk.",
  apply(k) {
    const models = k.service("models");
    models.registerProvider(anthropicProvider());
    k.hooks.stream.for(ANTHROPIC_API).tap(k.name, (request) => lazyProviderStream(models, request, async () => (await import("./stream.js")).streamAnthropic));
    warmSdkWhenUsed(k, [ANTHROPIC_API], () => Promise.all([import("./stream.js"), import("@anthropic-ai/sdk")]));
  },
});
