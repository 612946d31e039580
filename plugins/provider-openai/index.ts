/**
 * Plugin `provider-openai`: registers the OpenAI model table and streams through the `openai`
 * SDK for two APIs — Chat Completions (`openai-completions`: OpenAI-compatible servers,
 * models.json custom providers) and the Responses API (`openai-responses`: the built-in
 * `openai` provider). Adapters load on first use.
 */
import { definePlugin } from "../../kernel/index.js";
import { OPENAI_COMPLETIONS_API, OPENAI_RESPONSES_API, lazyProviderStream, providerModels, warmSdkWhenUsed } from "../../lib/provider-kit/index.js";
import { openaiProvider } from "./models.js";

export default definePlugin({
  name: "provider-openai",
  requires: ["models"],
  description: "OpenAI Chat Completions (openai-completions) and Responses (openai-responses) via the openai SDK.",
  apply(k) {
    const models = providerModels(k);
    models.registerProvider(openaiProvider());
    k.hooks.stream
      .for(OPENAI_COMPLETIONS_API)
      .tap(k.name, (request) => lazyProviderStream(models, request, async () => (await import("./completions-stream.js")).streamChatCompletions));
    k.hooks.stream
      .for(OPENAI_RESPONSES_API)
      .tap(k.name, (request) => lazyProviderStream(models, request, async () => (await import("./responses-stream.js")).streamResponses));
    warmSdkWhenUsed(k, [OPENAI_COMPLETIONS_API, OPENAI_RESPONSES_API], (api) =>
      api === OPENAI_COMPLETIONS_API ? import("./completions-stream.js") : import("./responses-stream.js"),
    );
  },
});
