import { describe, expect, it } from "vitest";
import { noLoginMessage } from "./logins.js";

describe("a provider with no login", () => {
  it("names the login meant when the name is a slip of one, and always lists them all", () => {
    expect(noLoginMessage("anthropc")).toMatch(/^No login for "anthropc" \(did you mean anthropic\?\)\. Providers with a login: anthropic, openai-codex, /);
    expect(noLoginMessage("github-copliot")).toContain("(did you mean github-copilot?)");
    expect(noLoginMessage("nope")).toMatch(/^No login for "nope"\. Providers with a login: anthropic, /);
    expect(noLoginMessage("gemini")).not.toContain("did you mean");
    expect(noLoginMessage("claude")).toContain('No login for "claude" (did you mean anthropic?)');
    expect(noLoginMessage("copilot")).toContain("(did you mean github-copilot?)");
  });
});
