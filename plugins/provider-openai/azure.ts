/**
 * OpenAI models deployed on Azure (`azure-openai-responses`): the Responses request through the
 * openai SDK's `AzureOpenAI` client (the `api-key` header, the `api-version` query). Configured
 * as pi configures it: the resource's base URL (`AZURE_OPENAI_BASE_URL`, or
 * `AZURE_OPENAI_RESOURCE_NAME`, or a models.json `baseUrl`), the API version
 * (`AZURE_OPENAI_API_VERSION`, default `v1`), and deployments named after the model ids unless
 * `AZURE_OPENAI_DEPLOYMENT_NAME_MAP` (`gpt-5.4=my-deployment,...`) says otherwise.
 */
import { AzureOpenAI } from "openai";
import type { ProviderCall } from "../../lib/provider-kit/provider-stream.js";
import { sdkUserAgent } from "./client.js";
import type { ResponsesRoute } from "./responses-stream.js";

const DEFAULT_API_VERSION = "v1";
const AZURE_HOST = /\.(openai\.azure\.com|cognitiveservices\.azure\.com|ai\.azure\.com)$/;

export function azureRoute(env: NodeJS.ProcessEnv): ResponsesRoute {
  return {
    client: (call: ProviderCall) =>
      new AzureOpenAI({
        apiKey: call.apiKey,
        baseURL: azureBaseUrl(call.baseUrl, env),
        apiVersion: env.AZURE_OPENAI_API_VERSION?.trim() || DEFAULT_API_VERSION,
        maxRetries: 0,
        fetch: call.fetch,
        organization: null,
        project: null,
        defaultHeaders: { ...sdkUserAgent("AzureOpenAI"), ...call.headers },
      }),
    modelName: (call: ProviderCall) => deploymentName(call.request.model.id, env),
  };
}

/**
 * The environment's base URL or resource first (as pi does), then the model's own when it is a
 * real URL (a models.json `baseUrl`, not the catalog's `{resource}` template). A resource's root
 * URL becomes its OpenAI API path (`/openai/v1`).
 */
export function azureBaseUrl(modelBaseUrl: string, env: NodeJS.ProcessEnv): string {
  const resource = env.AZURE_OPENAI_RESOURCE_NAME?.trim();
  const configured =
    env.AZURE_OPENAI_BASE_URL?.trim() || (resource ? `https://${resource}.openai.azure.com` : undefined) || (modelBaseUrl.includes("{") ? undefined : modelBaseUrl);
  if (!configured)
    throw new Error(
      "Azure OpenAI needs the resource's address: set AZURE_OPENAI_BASE_URL (https://<resource>.openai.azure.com) or AZURE_OPENAI_RESOURCE_NAME, or providers.azure.baseUrl in models.json.",
    );
  let url: URL;
  try {
    url = new URL(configured.replace(/\/+$/, ""));
  } catch {
    throw new Error(`Invalid Azure OpenAI base URL: ${configured}`);
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (AZURE_HOST.test(url.hostname) && (path === "" || path === "/openai")) url.pathname = "/openai/v1";
  return url.toString().replace(/\/+$/, "");
}

export function deploymentName(modelId: string, env: NodeJS.ProcessEnv): string {
  for (const entry of (env.AZURE_OPENAI_DEPLOYMENT_NAME_MAP ?? "").split(",")) {
    const [id, deployment] = entry.split("=", 2).map((part) => part.trim());
    if (id === modelId && deployment) return deployment;
  }
  return modelId;
}
