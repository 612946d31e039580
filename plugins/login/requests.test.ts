/**
 * A stored login as requests carry it, through the whole path: the model registry finds the
 * login in auth.json, the login plugin refreshes it when due, the provider adapter sends what the
 * subscription API needs (Claude Pro/Max: Claude Code's request; Copilot: the account's address).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Kernel } from "../../kernel/kernel.js";
import type { AssistantMessage, Model } from "../../lib/llm/index.js";
import { startFakeLlm, type FakeLlm } from "../../test/fake-llm/server.js";
import { BASH_TOOL, bootKernel, runStream, streamRequest, VENDOR_PLUGINS } from "../../test/fake-llm/harness.js";
import { startFakeOAuth, type FakeOAuth } from "../../test/fake-oauth/server.js";
import { tempDir } from "../../test/helpers/temp.js";
import loginPlugin from "./index.js";

let fake: FakeLlm;
let oauth: FakeOAuth;
beforeAll(async () => {
  [fake, oauth] = await Promise.all([startFakeLlm(), startFakeOAuth()]);
});
afterAll(async () => {
  await Promise.all([fake.close(), oauth.close()]);
});
beforeEach(() => {
  fake.requests.length = 0;
});

const FAR = Date.now() + 24 * 3600_000;

/** A kernel whose agent dir holds `auth` (and models.json pointing `anthropic` at the fake LLM). */
async function kernelWith(auth: Record<string, unknown>): Promise<Kernel> {
  const agentDir = tempDir("atomic-login-requests-");
  writeFileSync(join(agentDir, "auth.json"), JSON.stringify(auth), { mode: 0o600 });
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: fake.url } } }));
  return bootKernel({ agentDir, env: { ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin }, plugins: [...VENDOR_PLUGINS, loginPlugin] });
}

function anthropicModel(kernel: Kernel): Model {
  return kernel.services.get("models").modelsOf("anthropic")[0]!;
}

describe("Claude Pro/Max: the request pi sends with a subscription token", () => {
  it("bearer token, Claude Code's headers and betas, its identity first, its tool names (mapped back in the answer)", async () => {
    const kernel = await kernelWith({ anthropic: { type: "oauth", access: "sk-ant-oat01-stored", refresh: "r", expires: FAR } });
    const model = anthropicModel(kernel);
    fake.script({ toolCalls: [{ name: "Bash", args: { command: "ls" } }] });
    const { final } = await runStream(kernel, streamRequest(model, { systemPrompt: "Be brief.", tools: [BASH_TOOL, { ...BASH_TOOL, name: "my_tool" }] }));
    const request = fake.requests[0]!;
    expect(request.path).toBe("/v1/messages");
    expect(request.headers.authorization).toBe("Bearer sk-ant-oat01-stored");
    expect(request.headers["x-api-key"]).toBeUndefined();
    expect(request.headers).toMatchObject({
      "user-agent": "claude-cli/2.1.322",
      "x-app": "cli",
      "anthropic-dangerous-direct-browser-access": "true",
      accept: "application/json",
      "anthropic-version": "2023-06-01",
    });
    expect(String(request.headers["anthropic-beta"]).split(",").slice(0, 2)).toEqual(["claude-code-20250219", "oauth-2025-04-20"]);
    expect(request.body.system).toEqual([
      { type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: "ephemeral" } },
      { type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } },
    ]);
    expect(request.body.tools.map((tool: { name: string }) => tool.name)).toEqual(["Bash", "my_tool"]);
    const answer = (final as { message: AssistantMessage }).message;
    expect(answer.content.find((block) => block.type === "toolCall")).toMatchObject({ name: "bash", arguments: { command: "ls" } });
  });

  it("an API key is sent as before: x-api-key or bearer of the key, none of Claude Code's identity", async () => {
    const kernel = await kernelWith({ anthropic: { type: "api_key", key: "sk-ant-api03-key" } });
    fake.script({ text: "ok" });
    await runStream(kernel, streamRequest(anthropicModel(kernel), { systemPrompt: "Be brief.", tools: [BASH_TOOL] }));
    const request = fake.requests[0]!;
    expect(request.headers["x-app"]).toBeUndefined();
    expect(request.body.system).toEqual([{ type: "text", text: "Be brief.", cache_control: { type: "ephemeral" } }]);
    expect(request.body.tools[0].name).toBe("bash");
  });

  it("an expired login is refreshed before the request, which carries the new token", async () => {
    const refresh = oauth.issueRefreshToken("anthropic");
    const kernel = await kernelWith({ anthropic: { type: "oauth", access: "sk-ant-oat01-expired", refresh, expires: Date.now() - 1000 } });
    fake.script({ text: "ok" });
    const { final } = await runStream(kernel, streamRequest(anthropicModel(kernel)));
    expect(final.type).toBe("done");
    expect(fake.requests[0]!.headers.authorization).toMatch(/^Bearer sk-ant-oat01-fake\d+$/);
    expect(oauth.grants("refresh_token").filter((request) => request.body?.refresh_token === refresh)).toHaveLength(1);
  });

  it("a revoked login: the request fails before reaching the provider, saying to log in again", async () => {
    const refresh = oauth.issueRefreshToken("anthropic");
    oauth.revoke(refresh);
    const kernel = await kernelWith({ anthropic: { type: "oauth", access: "sk-ant-oat01-expired", refresh, expires: 0 } });
    const { final } = await runStream(kernel, streamRequest(anthropicModel(kernel)));
    expect(final.type).toBe("error");
    expect((final as { error: AssistantMessage }).error.errorMessage).toMatch(/login is no longer valid .*Log in again: atomic login anthropic$/);
    expect(fake.requests).toHaveLength(0);
  });

  it("the registry counts a login as the provider's credential", async () => {
    const kernel = await kernelWith({ anthropic: { type: "oauth", access: "sk-ant-oat01-stored", refresh: "r", expires: FAR } });
    expect(kernel.services.get("models").authStatus("anthropic")).toEqual({ configured: true, source: "stored", label: "auth.json" });
  });
});

describe("GitHub Copilot: the account's own address, from its token", () => {
  it("the request goes to the token's proxy-ep (here through the test origin) with the Copilot token and Copilot's headers", async () => {
    const agentDir = tempDir("atomic-login-requests-");
    writeFileSync(
      join(agentDir, "auth.json"),
      JSON.stringify({ "github-copilot": { type: "oauth", access: "tid=1;proxy-ep=proxy.individual.githubcopilot.com;", refresh: "ghu_x", expires: FAR } }),
    );
    // The fake LLM stands in for every OAuth-derived address.
    const kernel = await bootKernel({ agentDir, env: { ATOMIC_OAUTH_TEST_ORIGIN: fake.url }, plugins: [...VENDOR_PLUGINS, loginPlugin] });
    fake.script({ text: "ok" });
    const model = kernel.services.get("models").find("github-copilot", "gpt-6.1-sol")!;
    const { final } = await runStream(kernel, streamRequest(model));
    expect(final.type).toBe("done");
    const request = fake.requests[0]!;
    expect(request.path).toBe("/api.individual.githubcopilot.com/responses");
    expect(request.headers).toMatchObject({
      authorization: "Bearer tid=1;proxy-ep=proxy.individual.githubcopilot.com;",
      "copilot-integration-id": "vscode-chat",
      "editor-version": "vscode/1.107.0",
      "x-initiator": "user",
    });
  });
});

describe("ChatGPT Plus/Pro (openai-codex): a login made here, then a request", () => {
  it("the Codex backend gets the token and the account it names", async () => {
    const agentDir = tempDir("atomic-login-requests-");
    writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { "openai-codex": { baseUrl: fake.url } } }));
    const kernel = await bootKernel({ agentDir, env: { ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin }, plugins: [...VENDOR_PLUGINS, loginPlugin] });
    const { Logins } = await import("./logins.js");
    const { testIo } = await import("../../test/fake-oauth/login-io.js");
    const credential = await new Logins({ agentDir, env: { ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin } }).login("openai-codex", testIo(oauth));
    fake.script({ text: "ok" });
    const model = kernel.services.get("models").modelsOf("openai-codex")[0]!;
    const { final } = await runStream(kernel, streamRequest(model));
    expect(final.type).toBe("done");
    const request = fake.requests[0]!;
    expect(request.path).toBe("/codex/responses");
    expect(request.headers).toMatchObject({ authorization: `Bearer ${credential.access}`, "chatgpt-account-id": "acct-fake", originator: "pi" });
  });
});
