/**
 * The cloud routes' own credentials, on loopback: Bedrock with a Bedrock API key (a bearer token,
 * no SigV4), Vertex AI with Application Default Credentials (an external-account file whose token
 * exchange the test serves, so the SDK's own auth library runs end to end), and Azure's address
 * rules (resource name, root URL, the clear error when none is set).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import { azureBaseUrl, deploymentName } from "../../plugins/provider-openai/azure.js";
import { useFakeLlm } from "../helpers/use-fake-llm.js";
import { VENDOR_PLUGINS, bootKernel, removeDir, runStream, streamRequest, tempDir } from "./harness.js";

const fake = useFakeLlm();
let agentDir: string;

beforeAll(async () => {
  agentDir = await tempDir();
  await writeFile(join(agentDir, "models.json"), JSON.stringify({ providers: { "amazon-bedrock": { baseUrl: fake.url }, "google-vertex": { baseUrl: fake.url } } }));
});
afterAll(() => removeDir(agentDir));

async function streamWith(env: NodeJS.ProcessEnv, provider: string): Promise<{ kernel: Kernel; error?: string }> {
  const kernel = await bootKernel({ agentDir, env, plugins: VENDOR_PLUGINS });
  const model = kernel.services
    .get("models")
    .all()
    .find((m) => m.provider === provider)!;
  fake.requests.length = 0;
  fake.script({ text: "ok" });
  const { final } = await runStream(kernel, streamRequest(model));
  return { kernel, ...(final.type === "error" ? { error: final.error.errorMessage } : {}) };
}

describe("Amazon Bedrock", () => {
  it("sends a Bedrock API key as a bearer token, without SigV4", async () => {
    const { kernel, error } = await streamWith({ AWS_BEARER_TOKEN_BEDROCK: "bedrock-api-key", AWS_REGION: "us-west-2" }, "amazon-bedrock");
    expect(error).toBeUndefined();
    expect(kernel.services.get("models").authStatus("amazon-bedrock")).toEqual({ configured: true, source: "environment", label: "AWS_BEARER_TOKEN_BEDROCK" });
    expect(fake.requests[0]!.headers.authorization).toBe("Bearer bedrock-api-key");
    expect(fake.requests[0]!.headers["x-amz-date"]).toBeUndefined();
  });

  it("counts AWS keys or a profile as credentials (the SDK signs), and nothing else", async () => {
    const keys = await bootKernel({ agentDir, env: { AWS_ACCESS_KEY_ID: "a", AWS_SECRET_ACCESS_KEY: "b" }, plugins: VENDOR_PLUGINS });
    expect(keys.services.get("models").authStatus("amazon-bedrock")).toEqual({ configured: true, source: "environment", label: "AWS_ACCESS_KEY_ID + AWS_SECRET_ACCESS_KEY" });
    const profile = await bootKernel({ agentDir, env: { AWS_PROFILE: "work" }, plugins: VENDOR_PLUGINS });
    expect(profile.services.get("models").authStatus("amazon-bedrock")).toMatchObject({ configured: true, label: "AWS_PROFILE" });
    const half = await bootKernel({ agentDir, env: { AWS_ACCESS_KEY_ID: "a" }, plugins: VENDOR_PLUGINS });
    expect(half.services.get("models").authStatus("amazon-bedrock")).toEqual({ configured: false });
  });
});

describe("Google Vertex AI with Application Default Credentials", () => {
  it("exchanges the credentials file's token and calls the project's location with it", async () => {
    // A workload-identity (external account) ADC file: the SDK's auth library exchanges the subject token at token_url.
    const exchanges: string[] = [];
    const sts = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk));
      req.on("end", () => {
        exchanges.push(body);
        res
          .writeHead(200, { "content-type": "application/json" })
          .end(JSON.stringify({ access_token: "ya29.loopback", issued_token_type: "urn:ietf:params:oauth:token-type:access_token", token_type: "Bearer", expires_in: 3600 }));
      });
    });
    await new Promise<void>((resolve) => sts.listen(0, "127.0.0.1", resolve));
    try {
      const subject = join(agentDir, "subject-token.txt");
      await writeFile(subject, "subject-jwt");
      const credentials = join(agentDir, "adc.json");
      const tokenUrl = `http://127.0.0.1:${(sts.address() as AddressInfo).port}/v1/token`;
      await writeFile(
        credentials,
        JSON.stringify({
          type: "external_account",
          audience: "//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/q",
          subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
          token_url: tokenUrl,
          credential_source: { file: subject },
        }),
      );
      const env = { GOOGLE_CLOUD_PROJECT: "my-project", GOOGLE_CLOUD_LOCATION: "europe-west4", GOOGLE_APPLICATION_CREDENTIALS: credentials };
      const { kernel, error } = await streamWith(env, "google-vertex");
      expect(error).toBeUndefined();
      expect(kernel.services.get("models").authStatus("google-vertex")).toEqual({ configured: true, source: "environment", label: "GOOGLE_CLOUD_PROJECT + GOOGLE_CLOUD_LOCATION" });
      expect(exchanges[0]).toContain("subject_token=subject-jwt");
      const request = fake.requests[0]!;
      expect(request.path).toBe("/v1beta1/projects/my-project/locations/europe-west4/publishers/google/models/gemini-4-argon:streamGenerateContent");
      expect(request.headers.authorization).toBe("Bearer ya29.loopback");
      expect(request.headers["x-goog-api-key"]).toBeUndefined();
    } finally {
      await new Promise<void>((resolve) => sts.close(() => resolve()));
    }
  });
});

describe("Azure OpenAI addresses", () => {
  it("takes AZURE_OPENAI_BASE_URL, else the resource name, else a real models.json URL; a resource root gets /openai/v1", () => {
    expect(azureBaseUrl("https://{resource}.openai.azure.com/openai/v1", { AZURE_OPENAI_RESOURCE_NAME: "team" })).toBe("https://team.openai.azure.com/openai/v1");
    expect(azureBaseUrl("x", { AZURE_OPENAI_BASE_URL: "https://team.cognitiveservices.azure.com/" })).toBe("https://team.cognitiveservices.azure.com/openai/v1");
    expect(azureBaseUrl("https://gateway.example/azure", {})).toBe("https://gateway.example/azure");
    expect(() => azureBaseUrl("https://{resource}.openai.azure.com/openai/v1", {})).toThrow(/AZURE_OPENAI_BASE_URL .* AZURE_OPENAI_RESOURCE_NAME/);
    expect(deploymentName("gpt-6.2-sol", { AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-5.4=a, gpt-6.2-sol = b" })).toBe("b");
    expect(deploymentName("gpt-5.5", { AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-5.4=a" })).toBe("gpt-5.5");
  });

  it("reports a missing address as the request's error, naming the variables", async () => {
    const { error } = await streamWith({ AZURE_OPENAI_API_KEY: "k" }, "azure");
    expect(error).toMatch(/Azure OpenAI needs the resource's address: set AZURE_OPENAI_BASE_URL/);
    expect(fake.requests).toHaveLength(0);
  });
});
