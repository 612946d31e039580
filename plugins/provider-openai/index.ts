/**
 * Plugin `provider-openai`: the `openai` SDK for two APIs — Chat Completions
 * (`openai-completions`: OpenAI-compatible servers, models.json custom providers) and the
 * Responses API (`openai-responses`: the built-in `openai` provider).
 */
import { definePlugin } from "../../kernel/index.js";
import { OPENAI_COMPLETIONS_API, OPENAI_RESPONSES_API } from "../models/catalog.js";
import { providerStream } from "../models/provider-stream.js";
import { warmSdkWhenUsed } from "../models/warm-sdk.js";
import { streamChatCompletions } from "./completions-stream.js";
import { streamResponses } from "./responses-stream.js";

export default definePlugin({
  name: "provider-openai",
  dependsOn: ["models"],
  description: "OpenAI Chat Completions (openai-completions) and Responses (openai-responses) via the openai SDK.",
  apply(k) {
    const models = k.service("models");
    k.hooks.stream.for(OPENAI_COMPLETIONS_API).tap(k.name, (request) => providerStream(models, request, streamChatCompletions));
    k.hooks.stream.for(OPENAI_RESPONSES_API).tap(k.name, (request) => providerStream(models, request, streamResponses));
    warmSdkWhenUsed(k, [OPENAI_COMPLETIONS_API, OPENAI_RESPONSES_API], () => import("openai"));
  },
});
