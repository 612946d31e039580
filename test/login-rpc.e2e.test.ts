/**
 * Logging in over the RPC protocol, as an integrator's UI does it: list the logins, start one
 * (the response names the address or code), finish it by the browser's callback, a pasted
 * redirect URL or a device code, or cancel it; the agent then uses the login.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOAuth, type FakeOAuth } from "./fake-oauth/server.js";
import { RpcClient, tempDir, type Record_ } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
let oauth: FakeOAuth;
beforeAll(async () => {
  oauth = await startFakeOAuth();
});
afterAll(() => oauth.close());
afterEach(() => oauth.holdDeviceCodes(false));

function client(): RpcClient {
  const agentDir = tempDir("atomic-login-rpc-");
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: fake.url } } }));
  return new RpcClient({
    agentDir,
    args: ["--mode", "rpc", "--no-session"],
    env: { ANTHROPIC_API_KEY: undefined, ANTHROPIC_OAUTH_TOKEN: undefined, ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin },
  });
}

const data = (record: Record_) => record.data as Record<string, unknown>;
const update = (loginId: unknown, status: string) => (record: Record_) => record.type === "login_update" && record.loginId === loginId && record.status === status;

describe("login over RPC", () => {
  it("start, browser callback, login_wait; the agent then prompts with the login", async () => {
    const rpc = client();
    try {
      const before = data(await rpc.request({ type: "get_login_providers" })).providers as { provider: string; loggedIn: boolean; methods: { id: string }[] }[];
      expect(before.map((entry) => entry.provider)).toEqual(["anthropic", "openai-codex", "github-copilot", "openai", "xai", "kimi-coding", "openrouter", "meta", "radius"]);
      expect(before.find((entry) => entry.provider === "anthropic")).toMatchObject({ loggedIn: false, methods: [{ id: "browser" }, { id: "copy_code" }] });
      const started = await rpc.request({ type: "login", provider: "anthropic" });
      expect(started).toMatchObject({
        success: true,
        data: { provider: "anthropic", method: "browser", kind: "auth_url", acceptsInput: true, url: expect.stringMatching(/^https:\/\/claude\.ai\/oauth\/authorize\?/) },
      });
      const { loginId, url } = data(started) as { loginId: string; url: string };
      await rpc.waitFor(update(loginId, "auth_url"));
      await oauth.browse(url);
      await rpc.waitFor(update(loginId, "succeeded"));
      // Asked after the end: how it ended.
      expect(await rpc.request({ type: "login_wait", loginId })).toMatchObject({ success: true, data: { provider: "anthropic", expires: expect.any(Number) } });
      const after = data(await rpc.request({ type: "get_login_providers" })).providers as { provider: string; loggedIn: boolean; expires?: number }[];
      expect(after.find((entry) => entry.provider === "anthropic")).toMatchObject({ loggedIn: true, expires: expect.any(Number) });
      const models = data(await rpc.request({ type: "get_available_models" })).models as { provider: string }[];
      expect(models.some((model) => model.provider === "anthropic")).toBe(true);
      expect(await rpc.request({ type: "set_model", provider: "anthropic", modelId: "claude-sonnet-5-5" })).toMatchObject({ success: true });
      fake.script({ text: "hello" });
      await rpc.request({ type: "prompt", message: "hi" });
      await rpc.waitForEvent("agent_end", 30_000);
      expect(fake.requests[0]!.headers.authorization).toMatch(/^Bearer sk-ant-oat01-/);
    } finally {
      await rpc.close();
    }
  });

  it("headless: the redirect URL pasted through login_input finishes the login", async () => {
    const rpc = client();
    try {
      const { loginId, url } = data(await rpc.request({ type: "login", provider: "openai-codex" })) as { loginId: string; url: string };
      const redirect = (await oauth.browse(url, { follow: false })).location!;
      expect(await rpc.request({ type: "login_input", loginId, input: redirect })).toMatchObject({
        success: true,
        data: { provider: "openai-codex", expires: expect.any(Number) },
      });
      const providers = data(await rpc.request({ type: "get_login_providers" })).providers as { provider: string; loggedIn: boolean }[];
      expect(providers.find((entry) => entry.provider === "openai-codex")?.loggedIn).toBe(true);
    } finally {
      await rpc.close();
    }
  });

  it("a device code: the response names it; login_wait answers once it is entered", async () => {
    oauth.holdDeviceCodes(true);
    const rpc = client();
    try {
      const started = await rpc.request({ type: "login", provider: "github-copilot" });
      expect(started).toMatchObject({
        success: true,
        data: { kind: "device_code", method: "device_code", acceptsInput: false, userCode: expect.stringMatching(/^CODE-/), verificationUri: "https://github.com/login/device" },
      });
      const { loginId } = data(started) as { loginId: string };
      expect(await rpc.request({ type: "login_input", loginId, input: "x" })).toMatchObject({ success: false, error: expect.stringContaining("takes no pasted input") });
      const waiting = rpc.request({ type: "login_wait", loginId }, 30_000);
      oauth.approve((data(started) as { userCode: string }).userCode);
      expect(await waiting).toMatchObject({ success: true, data: { provider: "github-copilot" } });
    } finally {
      await rpc.close();
    }
  });

  it("login_cancel stops a waiting login (a login_update says so); bad input names the field", async () => {
    oauth.holdDeviceCodes(true);
    const rpc = client();
    try {
      const { loginId } = data(await rpc.request({ type: "login", provider: "kimi-coding" })) as { loginId: string };
      const waiting = rpc.request({ type: "login_wait", loginId }, 30_000);
      expect(await rpc.request({ type: "login_cancel", loginId })).toMatchObject({ success: true, data: { cancelled: true } });
      expect(await rpc.waitFor(update(loginId, "cancelled"))).toMatchObject({ message: "Login cancelled" });
      expect(await waiting).toMatchObject({ success: false, error: "Login cancelled" });
      expect(await rpc.request({ type: "login_cancel", loginId })).toMatchObject({ success: true, data: { cancelled: false } });
      expect(await rpc.request({ type: "login_wait", loginId })).toMatchObject({ success: false, error: "Login cancelled" });
      expect(await rpc.request({ type: "login_wait", loginId: "login-unknown" })).toMatchObject({
        success: false,
        error: "No login login-unknown is running (it ended, or never started).",
      });
      expect(await rpc.request({ type: "login", provider: 5 }, 5_000, { unchecked: true })).toMatchObject({ success: false, error: "Invalid provider: expected string" });
      expect(await rpc.request({ type: "login", provider: "nope" })).toMatchObject({ success: false, error: expect.stringContaining('No login for "nope"') });
    } finally {
      await rpc.close();
    }
  });
});
