/**
 * Claude on Amazon Bedrock through Anthropic's official `@anthropic-ai/bedrock-sdk` (loaded on
 * first use): the same Messages request and stream mapping as Anthropic's own API (the SDK
 * rewrites the path to `/model/<id>/invoke-with-response-stream`, moves the API version and
 * betas into the body, and turns Bedrock's binary event stream back into server-sent events).
 * Auth: a Bedrock API key (`AWS_BEARER_TOKEN_BEDROCK`, or a stored key) as a bearer token;
 * otherwise SigV4 with the environment's AWS keys, or the AWS credential chain (`AWS_PROFILE`,
 * SSO, container and instance roles). The region: lib/provider-kit/bedrock-region.ts.
 */
import { AnthropicBedrock } from "@anthropic-ai/bedrock-sdk";
import { bedrockTarget } from "../../lib/provider-kit/bedrock-region.js";
import type { ProviderCall } from "../../lib/provider-kit/provider-stream.js";
import type { AnthropicClientFactory } from "./stream.js";

export function bedrockClient(env: NodeJS.ProcessEnv): AnthropicClientFactory {
  return (call: ProviderCall, headers) => {
    const { region, baseUrl } = bedrockTarget(call.baseUrl, call.request.model.id, env);
    const keys =
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? { awsAccessKey: env.AWS_ACCESS_KEY_ID, awsSecretKey: env.AWS_SECRET_ACCESS_KEY, awsSessionToken: env.AWS_SESSION_TOKEN || null }
        : {};
    const client = new AnthropicBedrock({
      // null, not undefined: the SDK would otherwise read AWS_BEARER_TOKEN_BEDROCK from the process itself.
      apiKey: call.apiKey || null,
      awsRegion: region,
      baseURL: baseUrl,
      maxRetries: 0,
      fetch: call.fetch,
      defaultHeaders: headers,
      ...keys,
    } as unknown as ConstructorParameters<typeof AnthropicBedrock>[0]);
    return client as never;
  };
}
