/**
 * A stored login as requests use it: refreshed before it expires (once, however many agents ask
 * at the same time), an answer the server refuses for good reported as "log in again", pi's own
 * auth.json read as it is.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isRetryableError } from "../../lib/provider-kit/index.js";
import { startFakeOAuth, type FakeOAuth } from "../../test/fake-oauth/server.js";
import { tempDir } from "../../test/helpers/temp.js";
import { Logins } from "./logins.js";

let oauth: FakeOAuth;
beforeAll(async () => {
  oauth = await startFakeOAuth();
});
afterAll(() => oauth.close());
afterEach(() => oauth.setRefreshDelay(0));

const MINUTE = 60_000;

/** Two agents (registries) of one process reading one agent dir. */
function agents(entries: Record<string, unknown>): [Logins, Logins, string] {
  const agentDir = tempDir("atomic-refresh-");
  const env = { ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin };
  const first = new Logins({ agentDir, env });
  writeFileSync(first.authPath, JSON.stringify(entries, null, 2), { mode: 0o600 });
  return [first, new Logins({ agentDir, env }), first.authPath];
}

function read(path: string): Record<string, Record<string, unknown>> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, Record<string, unknown>>;
}

function refreshesOf(refreshToken: string): number {
  return oauth.grants("refresh_token").filter((request) => request.body?.refresh_token === refreshToken).length;
}

describe("refresh before expiry", () => {
  it("an expired login is refreshed once, stored, and then used as it is", async () => {
    const refresh = oauth.issueRefreshToken("anthropic");
    const [logins, , path] = agents({ anthropic: { type: "oauth", access: "sk-ant-oat01-old", refresh, expires: Date.now() - MINUTE } });
    const auth = await logins.requestAuth("anthropic");
    const entry = read(path).anthropic!;
    expect(auth).toEqual({ apiKey: entry.access });
    expect(entry.access).not.toBe("sk-ant-oat01-old");
    expect(entry.refresh).not.toBe(refresh);
    expect(entry.expires).toBeGreaterThan(Date.now() + 50 * MINUTE);
    expect(refreshesOf(refresh)).toBe(1);
    expect(await logins.requestAuth("anthropic")).toEqual(auth);
    expect(refreshesOf(entry.refresh as string)).toBe(0);
  });

  it("a token with less than five minutes left is refreshed; one with more is not", async () => {
    const soon = oauth.issueRefreshToken("xai");
    const later = oauth.issueRefreshToken("kimi-coding");
    const [logins] = agents({
      xai: { type: "oauth", access: "xai-old", refresh: soon, expires: Date.now() + 4 * MINUTE },
      "kimi-coding": { type: "oauth", access: "kimi-current", refresh: later, expires: Date.now() + 6 * MINUTE },
    });
    expect((await logins.requestAuth("xai"))?.apiKey).not.toBe("xai-old");
    expect(await logins.requestAuth("kimi-coding")).toEqual({ apiKey: "kimi-current" });
    expect(refreshesOf(soon)).toBe(1);
    expect(refreshesOf(later)).toBe(0);
  });

  it("many requests of two agents at once: one refresh, every one gets the new token", async () => {
    oauth.setRefreshDelay(200);
    const refresh = oauth.issueRefreshToken("anthropic");
    const [first, second, path] = agents({ anthropic: { type: "oauth", access: "sk-ant-oat01-old", refresh, expires: Date.now() - MINUTE } });
    const answers = await Promise.all([...Array.from({ length: 4 }, () => first.requestAuth("anthropic")), ...Array.from({ length: 4 }, () => second.requestAuth("anthropic"))]);
    expect(refreshesOf(refresh)).toBe(1);
    expect(new Set(answers.map((answer) => answer?.apiKey))).toEqual(new Set([read(path).anthropic!.access]));
  });

  it("a revoked refresh token: a clear 'log in again', the stored login left alone", async () => {
    const refresh = oauth.issueRefreshToken("anthropic");
    oauth.revoke(refresh);
    const [logins, , path] = agents({ anthropic: { type: "oauth", access: "sk-ant-oat01-old", refresh, expires: Date.now() - MINUTE } });
    const before = readFileSync(path, "utf8");
    const failure = await logins.requestAuth("anthropic").then(
      () => "no failure",
      (error: Error) => error.message,
    );
    expect(failure).toBe(
      "The Anthropic (Claude Pro/Max) login is no longer valid (Anthropic refused the refresh token (HTTP 400: Refresh token not found or invalid)). Log in again: atomic login anthropic",
    );
    // Not a transient failure: the agent's retry gives up at once.
    expect(isRetryableError(failure)).toBe(false);
    expect(readFileSync(path, "utf8")).toBe(before);
  });

  it("a refresh that cannot reach the server is a transient failure (retried), the login kept", async () => {
    const agentDir = tempDir("atomic-refresh-");
    const logins = new Logins({ agentDir, env: { ATOMIC_OAUTH_TEST_ORIGIN: "http://127.0.0.1:9" } });
    writeFileSync(logins.authPath, JSON.stringify({ xai: { type: "oauth", access: "a", refresh: "r", expires: 0 } }));
    const failure = await logins.requestAuth("xai").then(
      () => "no failure",
      (error: Error) => error.message,
    );
    expect(failure).toMatch(/^Refreshing the xAI \(Grok\/X subscription\) login failed: Cannot reach auth\.x\.ai: .*ECONNREFUSED/);
    expect(isRetryableError(failure)).toBe(true);
  });

  it("github-copilot: the GitHub token stays, the Copilot token is renewed; a revoked GitHub token means logging in again", async () => {
    const github = oauth.issueRefreshToken("github-copilot");
    const [logins, , path] = agents({
      "github-copilot": { type: "oauth", access: "tid=0;proxy-ep=proxy.individual.githubcopilot.com;", refresh: github, expires: 0, availableModelIds: ["x"] },
    });
    await logins.requestAuth("github-copilot");
    const entry = read(path)["github-copilot"]!;
    expect(entry).toMatchObject({ refresh: github, availableModelIds: ["gpt-6.1-sol", "claude-opus-5"] });
    expect(entry.access).not.toBe("tid=0;proxy-ep=proxy.individual.githubcopilot.com;");
    oauth.revoke(github);
    writeFileSync(path, JSON.stringify({ "github-copilot": { ...entry, expires: 0 } }));
    await expect(logins.requestAuth("github-copilot")).rejects.toThrow(
      /^The GitHub Copilot login is no longer valid \(GitHub refused the stored token \(HTTP 401: Bad credentials\)\)\. Log in again/,
    );
  });

  it("meta: a refresh mints a new key with the identity token", async () => {
    const identity = oauth.issueRefreshToken("meta");
    const [logins, , path] = agents({ meta: { type: "oauth", access: "meta-key-old", refresh: identity, expires: 0 } });
    const auth = await logins.requestAuth("meta");
    expect(auth?.apiKey).toMatch(/^meta-key-/);
    expect(read(path).meta).toMatchObject({ refresh: identity, access: auth?.apiKey });
  });

  it("openai (ChatGPT): the refresh uses the issued client id", async () => {
    const [logins, , path] = agents({});
    const { testIo } = await import("../../test/fake-oauth/login-io.js");
    await logins.login("openai", testIo(oauth));
    const entry = read(path).openai!;
    writeFileSync(path, JSON.stringify({ openai: { ...entry, expires: 0 } }));
    await logins.requestAuth("openai");
    expect(oauth.grants("refresh_token").at(-1)!.body).toMatchObject({ client_id: entry.clientId, refresh_token: entry.refresh, resource: "https://api.openai.com/v1" });
  });
});

describe("pi's auth.json", () => {
  it("works unchanged: every OAuth entry gives its token, API keys are not touched, the file is not rewritten", async () => {
    const far = Date.now() + 7 * 24 * 60 * MINUTE;
    const text = `${JSON.stringify(
      {
        anthropic: { type: "oauth", refresh: "sk-ant-ort01-pi", access: "sk-ant-oat01-pi", expires: far },
        "openai-codex": { type: "oauth", access: "eyJ.pi.codex", refresh: "rt-pi", expires: far, accountId: "acct-pi" },
        "github-copilot": { type: "oauth", refresh: "ghu_pi", access: "tid=9;proxy-ep=proxy.business.githubcopilot.com;", expires: far, availableModelIds: ["gpt-6.1-sol"] },
        openrouter: { type: "oauth", access: "sk-or-v1-pi", refresh: "", expires: Number.MAX_SAFE_INTEGER },
        openai: { type: "api_key", key: "sk-pi" },
        cloudflare: { type: "api_key", key: "cf", env: { CLOUDFLARE_ACCOUNT_ID: "abc" } },
      },
      null,
      2,
    )}\n`;
    const [logins, , path] = agents({});
    writeFileSync(path, text);
    expect(await logins.requestAuth("anthropic")).toEqual({ apiKey: "sk-ant-oat01-pi" });
    expect(await logins.requestAuth("openai-codex")).toEqual({ apiKey: "eyJ.pi.codex" });
    expect(await logins.requestAuth("github-copilot")).toEqual({
      apiKey: "tid=9;proxy-ep=proxy.business.githubcopilot.com;",
      baseUrl: `${oauth.origin}/api.business.githubcopilot.com`,
    });
    expect(await logins.requestAuth("openrouter")).toEqual({ apiKey: "sk-or-v1-pi" });
    // An API key is not a login: the registry reads it itself.
    expect(await logins.requestAuth("openai")).toBeUndefined();
    expect(readFileSync(path, "utf8")).toBe(text);
    expect(oauth.requests.some((request) => ["rt-pi", "sk-ant-ort01-pi", "ghu_pi"].includes(String(request.body?.refresh_token)))).toBe(false);
  });

  it("a login of a provider Atomic has no flow for is used until it expires, then said to be expired", async () => {
    const [logins] = agents({ "my-extension-provider": { type: "oauth", access: "ext-token", refresh: "ext-refresh", expires: Date.now() + MINUTE } });
    expect(await logins.requestAuth("my-extension-provider")).toEqual({ apiKey: "ext-token" });
    const [expired] = agents({ "my-extension-provider": { type: "oauth", access: "ext-token", refresh: "ext-refresh", expires: Date.now() - 1 } });
    await expect(expired.requestAuth("my-extension-provider")).rejects.toThrow(/has expired, and Atomic cannot refresh a login it has no flow for/);
  });
});
