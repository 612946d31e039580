/**
 * Signing in from an editor over ACP: `initialize` lists a login per provider as auth methods,
 * `authenticate` runs it and the editor shows the link (a URL elicitation, or Atomic's
 * `_atomic/login` notification for an editor without them); declining cancels the login.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOAuth, type FakeOAuth } from "./fake-oauth/server.js";
import { AcpAgent } from "./helpers/acp-client.js";
import { tempDir } from "./helpers/temp.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();

let oauth: FakeOAuth;
beforeAll(async () => {
  oauth = await startFakeOAuth();
});
afterAll(() => oauth.close());
const agents: AcpAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

function agent(args: string[] = []): { agent: AcpAgent; agentDir: string } {
  const agentDir = tempDir("atomic-login-acp-");
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: fake.url } } }));
  const created = new AcpAgent({
    args: ["--mode", "acp", ...args],
    cwd: tempDir("atomic-cwd-"),
    agentDir,
    env: { ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin, ANTHROPIC_API_KEY: undefined, ANTHROPIC_OAUTH_TOKEN: undefined },
  });
  agents.push(created);
  return { agent: created, agentDir };
}

const loginOf = (agentDir: string, provider: string) => (JSON.parse(readFileSync(join(agentDir, "auth.json"), "utf8")) as Record<string, unknown>)[provider];

describe("ACP sign-in", () => {
  it("initialize offers the logins; authenticate shows the link as a URL elicitation and answers once logged in", async () => {
    const { agent: acp, agentDir } = agent();
    const init = await acp.initialize({ elicitation: { url: {} } });
    expect(init.authMethods?.map((method) => method.id)).toEqual(["anthropic", "openai-codex", "github-copilot", "openai", "xai", "kimi-coding", "openrouter", "meta", "radius"]);
    expect(init.authMethods?.[0]).toMatchObject({ name: "Anthropic (Claude Pro/Max)" });
    const elicited: Record<string, unknown>[] = [];
    acp.elicit = async (request) => {
      elicited.push(request);
      await oauth.browse(String(request.url));
      return { action: "accept" };
    };
    expect(await acp.agent.request("authenticate", { methodId: "anthropic" })).toEqual({});
    expect(elicited).toHaveLength(1);
    expect(elicited[0]).toMatchObject({
      mode: "url",
      url: expect.stringMatching(/^https:\/\/claude\.ai\/oauth\/authorize\?/),
      elicitationId: expect.stringMatching(/^login-/),
      requestId: expect.anything(),
    });
    expect(loginOf(agentDir, "anthropic")).toMatchObject({ type: "oauth" });
    await until(() => acp.otherNotifications.some((note) => note.method === "elicitation/complete"));
  });

  it("a session opened before the login prompts with it once the editor has signed in", async () => {
    const { agent: acp } = agent(["--model", "anthropic/claude-sonnet-5-5"]);
    await acp.initialize({ elicitation: { url: {} } });
    const { sessionId } = await acp.newSession(tempDir("atomic-cwd-"));
    await expect(acp.prompt(sessionId, "hi")).rejects.toThrow(/No API key found for anthropic/);
    acp.elicit = async (request) => {
      await oauth.browse(String(request.url));
      return { action: "accept" };
    };
    await acp.agent.request("authenticate", { methodId: "anthropic" });
    fake.script({ text: "Hello." });
    expect(await acp.prompt(sessionId, "hi")).toEqual({ stopReason: "end_turn" });
    expect(fake.requests[0]!.headers.authorization).toMatch(/^Bearer sk-ant-oat01-/);
  });

  it("an editor without elicitations gets the device code in an _atomic/login notification", async () => {
    const { agent: acp, agentDir } = agent();
    await acp.initialize();
    expect(await acp.agent.request("authenticate", { methodId: "github-copilot" })).toEqual({});
    const note = acp.otherNotifications.find((candidate) => candidate.method === "_atomic/login");
    expect(note?.params).toMatchObject({ provider: "github-copilot", kind: "device_code", url: "https://github.com/login/device", userCode: expect.stringMatching(/^CODE-/) });
    expect(loginOf(agentDir, "github-copilot")).toMatchObject({ type: "oauth" });
  });

  it("declining the link cancels the login; an unknown method is invalid params", async () => {
    const { agent: acp, agentDir } = agent();
    await acp.initialize({ elicitation: { url: {} } });
    acp.elicit = () => ({ action: "decline" });
    await expect(acp.agent.request("authenticate", { methodId: "anthropic" })).rejects.toThrow(/Login cancelled/);
    await expect(acp.agent.request("authenticate", { methodId: "nope" })).rejects.toThrow(/No login for "nope"/);
    expect(existsSync(join(agentDir, "auth.json"))).toBe(false);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  expect(condition()).toBe(true);
}
