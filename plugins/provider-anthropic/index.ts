/**
 * Plugin `provider-anthropic`: streams `anthropic-messages` models (Anthropic, and compatible
 * endpoints: MiniMax, OpenRouter, Fireworks, proxies) through the official SDK, and
 * `anthropic-bedrock` models (Claude on Amazon Bedrock) through Anthropic's Bedrock SDK. The
 * models come from the catalog (plugin provider-catalog). The adapter, which imports the SDK, is
 * loaded on first use (or warmed when the startup model needs it). Setting `anthropic.cacheTtl`.
 */
import { definePlugin } from "../../kernel/index.js";
import { ANTHROPIC_API, ANTHROPIC_BEDROCK_API, lazyProviderStream, providerModels, warmSdkWhenUsed } from "../../lib/provider-kit/index.js";
import { anthropicSetting } from "./settings.js";
import { importBedrock } from "./optional-sdk.js";

export default definePlugin({
  name: "provider-anthropic",
  requires: ["models"],
  settings: { anthropic: anthropicSetting },
  description: "Anthropic Messages API (anthropic-messages) via @anthropic-ai/sdk; Claude on Amazon Bedrock (anthropic-bedrock) via @anthropic-ai/bedrock-sdk.",
  apply(k) {
    const models = providerModels(k);
    const cacheTtl = k.config.settings.anthropic?.cacheTtl ?? "5m";
    const loadBody = async () => {
      const { streamAnthropic } = await import("./stream.js");
      return (call: Parameters<typeof streamAnthropic>[0]) => streamAnthropic(call, { cacheTtl });
    };
    k.hooks.stream.for(ANTHROPIC_API).tap(k.name, (request) => lazyProviderStream(models, request, loadBody));
    const env = k.config.env;
    const loadBedrock = async () => {
      const [{ streamAnthropic }, { bedrockClient }] = await Promise.all([import("./stream.js"), importBedrock()]);
      const clientFor = bedrockClient(env);
      return (call: Parameters<typeof streamAnthropic>[0]) => streamAnthropic(call, { cacheTtl }, clientFor);
    };
    k.hooks.stream.for(ANTHROPIC_BEDROCK_API).tap(k.name, (request) => lazyProviderStream(models, request, loadBedrock));
    warmSdkWhenUsed(k, [ANTHROPIC_API, ANTHROPIC_BEDROCK_API], (api) => (api === ANTHROPIC_API ? import("./stream.js") : Promise.all([import("./stream.js"), importBedrock()])));
  },
});
