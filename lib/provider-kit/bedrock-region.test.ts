/** Where a Bedrock request goes (issue 36, D5: an `eu.`/`apac.` profile is not sent to us-east-1 when AWS_REGION is unset). */
import { describe, expect, it } from "vitest";
import { bedrockTarget } from "./bedrock-region.js";

const US = "https://bedrock-runtime.us-east-1.amazonaws.com";
const EU = "https://bedrock-runtime.eu-central-1.amazonaws.com";

describe("bedrockTarget", () => {
  it("without AWS_REGION: the model's endpoint when it serves the profile's geography, else that geography's region", () => {
    expect(bedrockTarget(EU, "eu.anthropic.claude-sonnet-5-5", {})).toEqual({ region: "eu-central-1", baseUrl: EU });
    expect(bedrockTarget(US, "apac.anthropic.claude-sonnet-4-20250514-v1:0", {}).region).toBe("ap-northeast-1");
    expect(bedrockTarget(US, "au.anthropic.claude-opus-5", {}).region).toBe("ap-southeast-2");
    expect(bedrockTarget(US, "jp.anthropic.claude-opus-5", {}).region).toBe("ap-northeast-1");
    expect(bedrockTarget(US, "eu.amazon.nova-2-lite-v1:0", {})).toEqual({ region: "eu-central-1", baseUrl: EU });
    expect(bedrockTarget(US, "us.anthropic.claude-opus-5-5", {}).region).toBe("us-east-1");
    expect(bedrockTarget(US, "global.anthropic.claude-fable-5", {}).region).toBe("us-east-1");
    expect(bedrockTarget(US, "amazon.nova-pro-v1:0", {}).region).toBe("us-east-1");
  });

  it("AWS_REGION (or AWS_DEFAULT_REGION) wins over the model's; an ARN's region over both", () => {
    expect(bedrockTarget(EU, "eu.anthropic.claude-sonnet-5-5", { AWS_REGION: "eu-west-1" })).toEqual({
      region: "eu-west-1",
      baseUrl: "https://bedrock-runtime.eu-west-1.amazonaws.com",
    });
    expect(bedrockTarget(US, "amazon.nova-pro-v1:0", { AWS_DEFAULT_REGION: "us-west-2" }).region).toBe("us-west-2");
    expect(bedrockTarget(US, "arn:aws:bedrock:ap-south-1:123:inference-profile/x", { AWS_REGION: "us-east-1" }).region).toBe("ap-south-1");
  });

  it("a custom endpoint (VPC, proxy) is kept; a {region} template is filled", () => {
    expect(bedrockTarget("http://127.0.0.1:9999", "eu.anthropic.claude-sonnet-5-5", {})).toEqual({ region: "eu-central-1", baseUrl: "http://127.0.0.1:9999" });
    expect(bedrockTarget("https://bedrock-runtime.{region}.amazonaws.com", "eu.x", {}).baseUrl).toBe(EU);
  });
});
