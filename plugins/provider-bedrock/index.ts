/**
 * Plugin `provider-bedrock`: streams Amazon Bedrock's models other than Claude (Llama, Nova,
 * Mistral, DeepSeek, Kimi, GPT, ...) through Bedrock's Converse API (`bedrock-converse-stream`)
 * with the AWS SDK, loaded on the first request (Claude goes through Anthropic's Bedrock SDK in
 * provider-anthropic). The models come from the catalog (plugin provider-catalog). The AWS SDK is
 * an optional peer dependency: without it a request fails naming the command that installs it.
 */
import { definePlugin } from "../../kernel/index.js";
import { BEDROCK_CONVERSE_API, lazyProviderStream, providerModels, warmSdkWhenUsed } from "../../lib/provider-kit/index.js";
import { importOptionalSdk } from "../../lib/provider-kit/optional-sdk.js";

const CONVERSE_SDK = "@aws-sdk/client-bedrock-runtime";
const importConverse = () => importOptionalSdk(() => import("./converse-stream.js"), CONVERSE_SDK, "amazon-bedrock");

export default definePlugin({
  name: "provider-bedrock",
  requires: ["models"],
  description: "Amazon Bedrock's Converse API (bedrock-converse-stream) via @aws-sdk/client-bedrock-runtime.",
  apply(k) {
    const models = providerModels(k);
    const env = k.config.env;
    const load = async () => (await importConverse()).converseStream(env);
    k.hooks.stream.for(BEDROCK_CONVERSE_API).tap(k.name, (request) => lazyProviderStream(models, request, load));
    warmSdkWhenUsed(k, [BEDROCK_CONVERSE_API], importConverse);
  },
});
