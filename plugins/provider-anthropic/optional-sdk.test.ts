import { describe, expect, it } from "vitest";
import { BEDROCK_SDK, explainMissingSdk } from "./optional-sdk.js";

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
});
