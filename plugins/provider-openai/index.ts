/**
 * Plugin `provider-openai`: streams through the `openai` SDK for three APIs — Chat Completions
 * (`openai-completions`: every OpenAI-compatible host, local servers, models.json custom
 * providers), the Responses API (`openai-responses`: OpenAI, xAI) and Azure OpenAI
 * (`azure-openai-responses`: the Responses request through the SDK's Azure client). The models
 * come from the catalog (plugin provider-catalog). Adapters load on first use.
 */
import { definePlugin } from "../../kernel/index.js";
import { AZURE_OPENAI_RESPONSES_API, OPENAI_COMPLETIONS_API, OPENAI_RESPONSES_API, lazyProviderStream, providerModels, warmSdkWhenUsed } from "../../lib/provider-kit/index.js";

export default definePlugin({
  name: "provider-openai",
  requires: ["models"],
  description: "OpenAI Chat Completions (openai-completions), Responses (openai-responses) and Azure OpenAI (azure-openai-responses) via the openai SDK.",
  apply(k) {
    const models = providerModels(k);
    const env = k.config.env;
    k.hooks.stream
      .for(OPENAI_COMPLETIONS_API)
      .tap(k.name, (request) => lazyProviderStream(models, request, async () => (await import("./completions-stream.js")).streamChatCompletions));
    k.hooks.stream.for(OPENAI_RESPONSES_API).tap(k.name, (request) => lazyProviderStream(models, request, async () => (await import("./responses-stream.js")).streamResponses));
    const loadAzure = async () => {
      const [{ streamResponses }, { azureRoute }] = await Promise.all([import("./responses-stream.js"), import("./azure.js")]);
      const route = azureRoute(env);
      return (call: Parameters<typeof streamResponses>[0]) => streamResponses(call, route);
    };
    k.hooks.stream.for(AZURE_OPENAI_RESPONSES_API).tap(k.name, (request) => lazyProviderStream(models, request, loadAzure));
    warmSdkWhenUsed(k, [OPENAI_COMPLETIONS_API, OPENAI_RESPONSES_API, AZURE_OPENAI_RESPONSES_API], (api) =>
      api === OPENAI_COMPLETIONS_API ? import("./completions-stream.js") : api === OPENAI_RESPONSES_API ? import("./responses-stream.js") : import("./azure.js"),
    );
  },
});
