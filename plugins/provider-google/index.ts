/**
 * Plugin `provider-google`: streams `google-generative-ai` (Gemini API) models through the
 * official `@google/genai` SDK, imported on first use.
 */
import { definePlugin } from "../../kernel/index.js";
import { GOOGLE_API } from "../models/catalog.js";
import { providerStream } from "../models/provider-stream.js";
import { warmSdkWhenUsed } from "../models/warm-sdk.js";
import { streamGemini } from "./stream.js";

export default definePlugin({
  name: "provider-google",
  dependsOn: ["models"],
  description: "Google Gemini API (google-generative-ai) via @google/genai.",
  apply(k) {
    const models = k.service("models");
    k.hooks.stream.for(GOOGLE_API).tap(k.name, (request) => providerStream(models, request, streamGemini));
    warmSdkWhenUsed(k, [GOOGLE_API], () => import("@google/genai"));
  },
});
