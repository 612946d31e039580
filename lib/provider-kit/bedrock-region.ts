/**
 * Where a Bedrock request goes (both routes: Claude through Anthropic's Bedrock SDK, the other
 * models through Converse). The region: one named in an inference-profile ARN; else the one
 * configured (`AWS_REGION`, `AWS_DEFAULT_REGION`); else the model's own — its catalog endpoint
 * (pi's per-model base URL: `eu.` profiles on eu-central-1) when that lies in the geography its
 * id names, else that geography's usual region (an `apac.` profile is never sent to us-east-1).
 * A standard Bedrock endpoint follows the region; any other base URL (a VPC endpoint, a proxy) is
 * kept, with `{region}` filled.
 */

/** Inference-profile prefixes: the regions that serve them, and the one used when none is given. */
const GEOGRAPHIES: Record<string, { serves: RegExp; region: string }> = {
  us: { serves: /^us-(?!gov-)/, region: "us-east-1" },
  "us-gov": { serves: /^us-gov-/, region: "us-gov-west-1" },
  eu: { serves: /^eu-/, region: "eu-central-1" },
  apac: { serves: /^ap-/, region: "ap-northeast-1" },
  au: { serves: /^ap-southeast-(?:2|4)$/, region: "ap-southeast-2" },
  jp: { serves: /^ap-northeast-(?:1|3)$/, region: "ap-northeast-1" },
  ca: { serves: /^ca-/, region: "ca-central-1" },
  in: { serves: /^ap-south-/, region: "ap-south-1" },
};

const STANDARD_HOST = /^bedrock-runtime(?:-fips)?\.([a-z0-9-]+|\{region\})\.amazonaws\.com(?:\.cn)?$/;

export interface BedrockTarget {
  region: string;
  baseUrl: string;
}

export function bedrockTarget(baseUrl: string, modelId: string, env: NodeJS.ProcessEnv): BedrockTarget {
  const endpoint = standardEndpointRegion(baseUrl);
  const region = arnRegion(modelId) ?? (env.AWS_REGION || env.AWS_DEFAULT_REGION || undefined) ?? modelRegion(modelId, endpoint);
  const standard = endpoint !== undefined || baseUrl.includes("{region}");
  return { region, baseUrl: standard ? `https://bedrock-runtime.${region}.amazonaws.com` : baseUrl.replaceAll("{region}", region) };
}

function arnRegion(modelId: string): string | undefined {
  return /^arn:aws(?:-[a-z0-9-]+)?:bedrock:([a-z0-9-]+):/.exec(modelId)?.[1];
}

function modelRegion(modelId: string, endpoint: string | undefined): string {
  const prefix = /^(us-gov|us|eu|apac|au|jp|ca|in|global)\./.exec(modelId)?.[1];
  const geography = prefix ? GEOGRAPHIES[prefix] : undefined;
  if (!geography) return endpoint ?? "us-east-1";
  return endpoint && geography.serves.test(endpoint) ? endpoint : geography.region;
}

/** The region of a standard `bedrock-runtime.<region>.amazonaws.com` endpoint (a `{region}` template has none). */
function standardEndpointRegion(baseUrl: string): string | undefined {
  try {
    const host = new URL(baseUrl.replace("{region}", "x-template-1")).hostname;
    const region = STANDARD_HOST.exec(host)?.[1];
    return region === "x-template-1" ? undefined : region;
  } catch {
    return undefined;
  }
}
