/**
 * Plugin `provider-google`: streams `google-generative-ai` (Gemini API) and `google-vertex`
 * (Gemini on Vertex AI) models through the official `@google/genai` SDK. The models come from the
 * catalog (plugin provider-catalog). The adapter, which imports the SDK, is loaded on first use.
 */
import { definePlugin } from "../../kernel/index.js";
import { GOOGLE_API, GOOGLE_VERTEX_API, lazyProviderStream, providerModels, warmSdkWhenUsed } from "../../lib/provider-kit/index.js";

export default definePlugin({
  name: "provider-google",
  requires: ["models"],
  description: "Google Gemini API (google-generative-ai) and Vertex AI (google-vertex) via @google/genai.",
  apply(k) {
    const models = providerModels(k);
    const env = k.config.env;
    k.hooks.stream.for(GOOGLE_API).tap(k.name, (request) => lazyProviderStream(models, request, async () => (await import("./stream.js")).streamGemini));
    const loadVertex = async () => {
      const [{ streamGemini }, { vertexClient }] = await Promise.all([import("./stream.js"), import("./vertex.js")]);
      const clientFor = vertexClient(env);
      return (call: Parameters<typeof streamGemini>[0]) => streamGemini(call, clientFor);
    };
    k.hooks.stream.for(GOOGLE_VERTEX_API).tap(k.name, (request) => lazyProviderStream(models, request, loadVertex));
    warmSdkWhenUsed(k, [GOOGLE_API, GOOGLE_VERTEX_API], (api) => (api === GOOGLE_API ? import("./stream.js") : import("./vertex.js")));
  },
});
