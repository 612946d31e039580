import { describe, expect, it } from "vitest";
import { optionName } from "./index.js";

describe("optionName", () => {
  it("names the flag, the createAgent option for the SDK, or what the option's giver set", () => {
    expect(optionName({}, "--provider", "the provider option")).toBe("--provider");
    expect(optionName({ origin: "sdk" }, "--provider", "the provider option")).toBe("the provider option");
    expect(optionName({ origin: "sdk" }, "--no-skills")).toBe("flags.noSkills");
    const server = { optionNames: { "--provider": 'the "provider" field of agent_open' } };
    expect(optionName(server, "--provider", "the provider option")).toBe('the "provider" field of agent_open');
    expect(optionName(server, "--model")).toBe("--model");
  });
});
