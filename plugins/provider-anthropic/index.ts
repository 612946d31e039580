/**
 * Plugin `provider-anthropic`: registers the Anthropic model table and streams
 * `anthropic-messages` models through the official SDK. The adapter, which imports the SDK, is
 * loaded on first use (or warmed when the startup model needs it). Setting `anthropic.cacheTtl`.
 */
import { definePlugin } from "../../kernel/index.js";
import { ANTHROPIC_API, lazyProviderStream, providerModels, warmSdkWhenUsed } from "../../lib/provider-kit/index.js";
import { anthropicProvider } from "./models.js";
import { anthropicSetting } from "./settings.js";

export default definePlugin({
  name: "provider-anthropic",
  requires: ["models"],
  settings: { anthropic: anthropicSetting },
  description: "Anthropic Messages API (anthropic-messages) via @anthropic-ai/sdk.",
  apply(k) {
    const models = providerModels(k);
    models.registerProvider(anthropicProvider());
    const cacheTtl = k.config.settings.anthropic?.cacheTtl ?? "5m";
    const loadBody = async () => {
      const { streamAnthropic } = await import("./stream.js");
      return (call: Parameters<typeof streamAnthropic>[0]) => streamAnthropic(call, { cacheTtl });
    };
    k.hooks.stream.for(ANTHROPIC_API).tap(k.name, (request) => lazyProviderStream(models, request, loadBody));
    warmSdkWhenUsed(k, [ANTHROPIC_API], () => import("./stream.js"));
  },
});
