/**
 * Plugin `provider-anthropic`: streams `anthropic-messages` models through the official SDK.
 * The SDK is imported on first use (or warmed in the background when the startup model needs it).
 */
import { definePlugin } from "../../kernel/index.js";
import { ANTHROPIC_API } from "../models/catalog.js";
import { providerStream } from "../models/provider-stream.js";
import { warmSdkWhenUsed } from "../models/warm-sdk.js";
import { streamAnthropic } from "./stream.js";

export default definePlugin({
  name: "provider-anthropic",
  dependsOn: ["models"],
  description: "Anthropic Messages API (anthropic-messages) via @anthropic-ai/sdk.",
  apply(k) {
    const models = k.service("models");
    k.hooks.stream.for(ANTHROPIC_API).tap(k.name, (request) => providerStream(models, request, streamAnthropic));
    warmSdkWhenUsed(k, [ANTHROPIC_API], () => import("@anthropic-ai/sdk"));
  },
});
