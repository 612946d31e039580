/**
 * Every provider's login, in this process, against the fake OAuth server (test/fake-oauth): the
 * browser callback, the pasted redirect URL or code, device codes; what lands in auth.json (pi's
 * format) and what a request then sends.
 */
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOAuth, type FakeOAuth } from "../../test/fake-oauth/server.js";
import { testIo } from "../../test/fake-oauth/login-io.js";
import { tempDir } from "../../test/helpers/temp.js";
import { Logins } from "./logins.js";

let oauth: FakeOAuth;
beforeAll(async () => {
  oauth = await startFakeOAuth();
});
afterAll(() => oauth.close());
afterEach(() => {
  oauth.holdDeviceCodes(false);
  oauth.setLifetime(3600);
});

function logins(catalog: Record<string, string[]> = {}): Logins {
  return new Logins({ agentDir: tempDir("atomic-login-"), env: { ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin }, catalogModelIds: (provider) => catalog[provider] ?? [] });
}

function stored(target: Logins): Record<string, Record<string, unknown>> {
  return JSON.parse(readFileSync(target.authPath, "utf8")) as Record<string, Record<string, unknown>>;
}

describe("browser logins: the loopback callback, PKCE and state", () => {
  it("anthropic: the callback completes the login; auth.json gets pi's entry, mode 0600", async () => {
    const target = logins();
    const io = testIo(oauth);
    const before = Date.now();
    await target.login("anthropic", io);
    const entry = stored(target).anthropic!;
    expect(entry).toMatchObject({ type: "oauth", access: expect.stringMatching(/^sk-ant-oat01-/), refresh: expect.stringMatching(/^refresh-anthropic-/) });
    // 3600 s less pi's five-minute margin.
    expect(entry.expires).toBeGreaterThanOrEqual(before + 3300_000);
    expect(Object.keys(entry).sort()).toEqual(["access", "expires", "refresh", "type"]);
    expect(statSync(target.authPath).mode & 0o777).toBe(0o600);
    const url = new URL((io.notices.find((notice) => notice.type === "auth_url") as { url: string }).url);
    expect(url.origin + url.pathname).toBe("https://claude.ai/oauth/authorize");
    expect(url.searchParams.get("redirect_uri")).toMatch(/^http:\/\/localhost:\d+\/callback$/);
    expect(url.searchParams.get("state")).not.toBe("");
    const exchange = oauth.grants("authorization_code").at(-1)!;
    expect(exchange).toMatchObject({
      host: "platform.claude.com",
      path: "/v1/oauth/token",
      body: { client_id: "9d1c250a-e61b-44d9-88ed-5944d1962f5e", state: url.searchParams.get("state") },
    });
    expect((await io.browsed).callback?.status).toBe(200);
    expect(await target.requestAuth("anthropic")).toEqual({ apiKey: entry.access });
  });

  it("a callback with the wrong state is refused and the login keeps waiting for the right one", async () => {
    const target = logins();
    const io = testIo(oauth, { browser: "none" });
    const done = target.login("anthropic", io);
    await until(() => io.notices.some((notice) => notice.type === "auth_url"));
    const authUrl = (io.notices.find((notice) => notice.type === "auth_url") as { url: string }).url;
    const redirect = (await oauth.browse(authUrl, { follow: false })).location!;
    const forged = new URL(redirect);
    forged.searchParams.set("state", "forged");
    const refused = await fetch(forged);
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("does not match");
    expect((await fetch(redirect)).status).toBe(200);
    await done;
    expect(stored(target).anthropic).toMatchObject({ type: "oauth" });
  });

  it("headless: the redirect URL pasted from a browser elsewhere completes the login", async () => {
    const target = logins();
    const io = testIo(oauth, {
      browser: "none",
      paste: async (notices) => (await oauth.browse((notices.find((notice) => notice.type === "auth_url") as { url: string }).url, { follow: false })).location!,
    });
    await target.login("anthropic", io);
    expect(stored(target).anthropic).toMatchObject({ type: "oauth" });
  });

  it("a pasted redirect URL from another sign-in (its state differs) fails the login, saying why", async () => {
    const target = logins();
    const io = testIo(oauth, { browser: "none", paste: () => "http://localhost:53692/callback?code=abc&state=someone-elses" });
    await expect(target.login("anthropic", io)).rejects.toThrow("belongs to another sign-in");
    expect(() => stored(target)).toThrow();
  });

  it("anthropic copy_code: Anthropic's page shows code#state, which is pasted", async () => {
    const target = logins();
    const io = testIo(oauth, {
      browser: "none",
      paste: async (notices) => (await oauth.browse((notices.find((notice) => notice.type === "auth_url") as { url: string }).url, { follow: false })).body,
    });
    await target.login("anthropic", io, { method: "copy_code" });
    const url = new URL((io.notices[0] as { url: string }).url);
    expect(url.searchParams.get("redirect_uri")).toBe("https://platform.claude.com/oauth/code/callback");
    expect(stored(target).anthropic).toMatchObject({ type: "oauth" });
  });

  it("openai-codex: the account id comes from the token; the request sends the token", async () => {
    const target = logins();
    await target.login("openai-codex", testIo(oauth));
    const entry = stored(target)["openai-codex"]!;
    expect(entry).toMatchObject({ type: "oauth", accountId: "acct-fake" });
    expect(await target.requestAuth("openai-codex")).toEqual({ apiKey: entry.access });
  });

  it("openai (Sign in with ChatGPT): the issued client id is kept for refreshes; the device id is created once", async () => {
    const target = logins();
    await target.login("openai", testIo(oauth));
    const entry = stored(target).openai!;
    expect(entry).toMatchObject({ type: "oauth", clientId: expect.stringMatching(/^issued-client-/), scopes: expect.arrayContaining(["chatgpt.tokens.use.direct"]) });
    const settings = JSON.parse(readFileSync(join(target.authPath, "..", "settings.json"), "utf8")) as { deviceId: string };
    expect(settings.deviceId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("openrouter: the code becomes a permanent key (no refresh token, never expires)", async () => {
    const target = logins();
    await target.login("openrouter", testIo(oauth));
    expect(stored(target).openrouter).toEqual({ type: "oauth", access: expect.stringMatching(/^sk-or-v1-/), refresh: "", expires: Number.MAX_SAFE_INTEGER });
  });

  it("radius (browser): the gateway names where to authorize", async () => {
    const target = logins();
    await target.login("radius", testIo(oauth));
    expect(stored(target).radius).toMatchObject({ type: "oauth", access: expect.stringMatching(/^radius-access-/) });
  });
});

describe("device-code logins", () => {
  it("github-copilot: device code, Copilot token, the account's models and address", async () => {
    const target = logins({ "github-copilot": ["gpt-6.1-sol", "claude-opus-5"] });
    const io = testIo(oauth);
    await target.login("github-copilot", io);
    expect(io.notices.find((notice) => notice.type === "device_code")).toMatchObject({
      userCode: expect.stringMatching(/^CODE-/),
      verificationUri: "https://github.com/login/device",
    });
    const entry = stored(target)["github-copilot"]!;
    expect(entry).toMatchObject({ type: "oauth", refresh: expect.stringMatching(/^ghu_/), access: expect.stringContaining("proxy-ep=proxy.individual.githubcopilot.com") });
    // The catalog model waiting for its policy was enabled; the one without tool calls is left out.
    expect(entry.availableModelIds).toEqual(["gpt-6.1-sol", "claude-opus-5"]);
    expect(oauth.requests.some((request) => request.path === "/models/claude-opus-5/policy" && (request.body as { state?: string }).state === "enabled")).toBe(true);
    expect(await target.requestAuth("github-copilot")).toEqual({ apiKey: entry.access, baseUrl: `${oauth.origin}/api.individual.githubcopilot.com` });
  });

  it("a device code is polled until it is entered", async () => {
    oauth.holdDeviceCodes(true);
    const target = logins();
    const io = testIo(oauth);
    const done = target.login("xai", io);
    await until(() => io.notices.some((notice) => notice.type === "device_code"));
    const notice = io.notices.find((candidate) => candidate.type === "device_code") as { userCode: string; verificationUri: string };
    expect(notice.verificationUri).toBe(`https://accounts.x.ai/device?code=${notice.userCode}`);
    await until(() => oauth.requests.filter((request) => request.host === "auth.x.ai" && request.body?.device_code).length >= 1);
    oauth.approve(notice.userCode);
    await done;
    expect(stored(target).xai).toMatchObject({ type: "oauth", access: expect.stringMatching(/^xai-access-/) });
  });

  it.each(["kimi-coding", "meta"])("%s", async (provider) => {
    const target = logins();
    await target.login(provider, testIo(oauth));
    expect(stored(target)[provider]).toMatchObject({ type: "oauth" });
    expect((await target.requestAuth(provider))?.apiKey).toBe(stored(target)[provider]!.access);
  });

  it("openai-codex and radius device codes", async () => {
    const target = logins();
    await target.login("openai-codex", testIo(oauth), { method: "device_code" });
    await target.login("radius", testIo(oauth), { method: "device_code" });
    expect(stored(target)["openai-codex"]).toMatchObject({ accountId: "acct-fake" });
    expect(stored(target).radius).toMatchObject({ type: "oauth" });
  });

  it("cancelling stops the polling", async () => {
    oauth.holdDeviceCodes(true);
    const target = logins();
    const io = testIo(oauth);
    const done = target.login("kimi-coding", io);
    await until(() => io.notices.some((notice) => notice.type === "device_code"));
    io.controller.abort();
    await expect(done).rejects.toThrow("Login cancelled");
  });
});

describe("choosing a method", () => {
  it("an unknown provider or method names the ones there are", async () => {
    const target = logins();
    await expect(target.login("nope", testIo(oauth))).rejects.toThrow(/No login for "nope". Providers with a login: anthropic, openai-codex/);
    await expect(target.login("github-copilot", testIo(oauth), { method: "browser" })).rejects.toThrow('GitHub Copilot has no "browser" login; its methods: device_code.');
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!condition()) throw new Error("condition not reached");
}
