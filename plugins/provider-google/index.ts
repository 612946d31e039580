/**
 * Plugin `provider-google`: registers the Gemini model table and streams `google-generative-ai`
 * (Gemini API) models through the official `@google/genai` SDK. The adapter, which imports the
 * SDK, is loaded on first use.
 */
import { definePlugin } from "../../kernel/index.js";
import { GOOGLE_API, lazyProviderStream, providerModels, warmSdkWhenUsed } from "../../lib/provider-kit/index.js";
import { googleProvider } from "./models.js";

export default definePlugin({
  name: "provider-google",
  requires: ["models"],
  description: "Google Gemini API (google-generative-ai) via @google/genai.",
  apply(k) {
    const models = providerModels(k);
    models.registerProvider(googleProvider());
    k.hooks.stream.for(GOOGLE_API).tap(k.name, (request) => lazyProviderStream(models, request, async () => (await import("./stream.js")).streamGemini));
    warmSdkWhenUsed(k, [GOOGLE_API], () => import("./stream.js"));
  },
});
