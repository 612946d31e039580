import { describe, expect, it } from "vitest";
import { explainMissingSdk, importOptionalSdk } from "./optional-sdk.js";

const BEDROCK_SDK = "@anthropic-ai/bedrock-sdk";
const CONVERSE_SDK = "@aws-sdk/client-bedrock-runtime";

describe("a missing optional SDK", () => {
  it("says which package to install, for CommonJS and ESM resolution errors", () => {
    for (const code of ["MODULE_NOT_FOUND", "ERR_MODULE_NOT_FOUND"]) {
      const error = Object.assign(new Error(`Cannot find module '${BEDROCK_SDK}'`), { code });
      expect((explainMissingSdk(error, BEDROCK_SDK, "amazon-bedrock") as Error).message).toBe(
        "The amazon-bedrock provider needs the optional package @anthropic-ai/bedrock-sdk, which is not installed: run `npm install @anthropic-ai/bedrock-sdk` in the project where atomic-agent is installed.",
      );
    }
  });

  it("passes any other error through", () => {
    const other = Object.assign(new Error("Cannot find module 'left-pad'"), { code: "MODULE_NOT_FOUND" });
    expect(explainMissingSdk(other, BEDROCK_SDK, "amazon-bedrock")).toBe(other);
    const failure = new Error("boom");
    expect(explainMissingSdk(failure, BEDROCK_SDK, "amazon-bedrock")).toBe(failure);
  });

  it("an adapter whose SDK is missing rejects with the instruction; one that loads resolves as is", async () => {
    const missing = () => Promise.reject(Object.assign(new Error(`Cannot find package '${CONVERSE_SDK}' imported from /x/chunk.js`), { code: "ERR_MODULE_NOT_FOUND" }));
    await expect(importOptionalSdk(missing, CONVERSE_SDK, "amazon-bedrock")).rejects.toThrow(
      "The amazon-bedrock provider needs the optional package @aws-sdk/client-bedrock-runtime, which is not installed: run `npm install @aws-sdk/client-bedrock-runtime` in the project where atomic-agent is installed.",
    );
    await expect(importOptionalSdk(() => Promise.resolve(42), CONVERSE_SDK, "amazon-bedrock")).resolves.toBe(42);
  });
});
