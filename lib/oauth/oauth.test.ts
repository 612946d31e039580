import { describe, expect, it } from "vitest";
import { isOAuthCredential, oauthEndpoint, expiresSoon, MIN_VALIDITY_MS } from "./index.js";

describe("the test-only endpoint override", () => {
  it("without it, every address is the provider's own", () => {
    expect(oauthEndpoint("https://platform.claude.com/v1/oauth/token", {})).toBe("https://platform.claude.com/v1/oauth/token");
  });

  it("under a loopback origin: the same host and path on it, nothing added", () => {
    const env = { ATOMIC_OAUTH_TEST_ORIGIN: "http://127.0.0.1:4567" };
    expect(oauthEndpoint("https://auth.openai.com/oauth/token?x=1", env)).toBe("http://127.0.0.1:4567/auth.openai.com/oauth/token?x=1");
    expect(oauthEndpoint("https://api.individual.githubcopilot.com", env)).toBe("http://127.0.0.1:4567/api.individual.githubcopilot.com");
  });

  it.each(["https://127.0.0.1:4567", "http://example.com:80", "http://10.0.0.2:80", "http://127.0.0.1:4567/prefix", "not a url"])(
    "refuses %s: never a token off this machine",
    (origin) => {
      expect(() => oauthEndpoint("https://claude.ai/oauth/authorize", { ATOMIC_OAUTH_TEST_ORIGIN: origin })).toThrow(/ATOMIC_OAUTH_TEST_ORIGIN must be a loopback/);
    },
  );
});

describe("pi's OAuth entry", () => {
  it("needs type, access, refresh and a finite expires", () => {
    expect(isOAuthCredential({ type: "oauth", access: "a", refresh: "", expires: 1 })).toBe(true);
    expect(isOAuthCredential({ type: "oauth", access: "a", refresh: "r", expires: Number.POSITIVE_INFINITY })).toBe(false);
    expect(isOAuthCredential({ type: "oauth", access: "a", expires: 1 })).toBe(false);
    expect(isOAuthCredential({ type: "api_key", key: "k" })).toBe(false);
  });

  it("is due for a refresh with five minutes or less left", () => {
    const now = 1_000_000_000;
    expect(expiresSoon({ type: "oauth", access: "a", refresh: "r", expires: now + MIN_VALIDITY_MS }, now)).toBe(true);
    expect(expiresSoon({ type: "oauth", access: "a", refresh: "r", expires: now + MIN_VALIDITY_MS + 1 }, now)).toBe(false);
  });
});
