/**
 * Plugin `provider-bedrock`: streams Amazon Bedrock's models other than Claude (Llama, Nova,
 * Mistral, DeepSeek, Kimi, GPT, ...) through Bedrock's Converse API (`bedrock-converse-stream`)
 * with the AWS SDK, loaded on the first request (Claude goes through Anthropic's Bedrock SDK in
 * provider-anthropic). The models come from the catalog (plugin provider-catalog).
 */
import { definePlugin } from "../../kernel/index.js";
import { BEDROCK_CONVERSE_API, lazyProviderStream, providerModels, warmSdkWhenUsed } from "../../lib/provider-kit/index.js";

export default definePlugin({
  name: "provider-bedrock",
  requires: ["models"],
  description: "Amazon Bedrock's Converse API (bedrock-converse-stream) via @aws-sdk/client-bedrock-runtime.",
  apply(k) {
    const models = providerModels(k);
    const env = k.config.env;
    const load = async () => (await import("./converse-stream.js")).converseStream(env);
    k.hooks.stream.for(BEDROCK_CONVERSE_API).tap(k.name, (request) => lazyProviderStream(models, request, load));
    warmSdkWhenUsed(k, [BEDROCK_CONVERSE_API], () => import("./converse-stream.js"));
  },
});
