/**
 * Plugin `provider-openai`: streams through the `openai` SDK for five APIs — Chat Completions
 * (`openai-completions`: every OpenAI-compatible host, local servers, models.json custom
 * providers), Mistral's own chat endpoint (`mistral-conversations`), the Responses API
 * (`openai-responses`: OpenAI, xAI, Meta, Copilot), Azure OpenAI (`azure-openai-responses`: the
 * Responses request through the SDK's Azure client) and ChatGPT's Codex backend
 * (`openai-codex-responses`). The models
 * come from the catalog (plugin provider-catalog). Adapters load on first use.
 */
import { definePlugin } from "../../kernel/index.js";
import {
  AZURE_OPENAI_RESPONSES_API,
  MISTRAL_API,
  OPENAI_CODEX_API,
  OPENAI_COMPLETIONS_API,
  OPENAI_RESPONSES_API,
  lazyProviderStream,
  providerModels,
  warmSdkWhenUsed,
} from "../../lib/provider-kit/index.js";

export default definePlugin({
  name: "provider-openai",
  requires: ["models"],
  description:
    "OpenAI Chat Completions (openai-completions), Mistral (mistral-conversations), Responses (openai-responses), Azure OpenAI (azure-openai-responses) and ChatGPT Codex (openai-codex-responses) via the openai SDK.",
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
    k.hooks.stream.for(MISTRAL_API).tap(k.name, (request) => lazyProviderStream(models, request, async () => (await import("./mistral.js")).streamMistral));
    const loadCodex = async () => {
      const [{ streamResponses }, { codexRoute }] = await Promise.all([import("./responses-stream.js"), import("./codex.js")]);
      const route = codexRoute();
      return (call: Parameters<typeof streamResponses>[0]) => streamResponses(call, route);
    };
    k.hooks.stream.for(OPENAI_CODEX_API).tap(k.name, (request) => lazyProviderStream(models, request, loadCodex));
    const warm: Record<string, () => Promise<unknown>> = {
      [OPENAI_COMPLETIONS_API]: () => import("./completions-stream.js"),
      [OPENAI_RESPONSES_API]: () => import("./responses-stream.js"),
      [AZURE_OPENAI_RESPONSES_API]: () => import("./azure.js"),
      [MISTRAL_API]: () => import("./mistral.js"),
      [OPENAI_CODEX_API]: () => import("./codex.js"),
    };
    warmSdkWhenUsed(k, Object.keys(warm), (api) => warm[api]!());
  },
});
