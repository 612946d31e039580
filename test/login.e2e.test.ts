/**
 * `atomic login` / `atomic logout` and logged-in agents, through the built CLI, against the fake
 * OAuth server (ATOMIC_OAUTH_TEST_ORIGIN) and the fake LLM: the browser callback, the headless
 * paste, a device code, two agent processes refreshing one expired login at once (one refresh),
 * and pi's auth.json used as it is.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeOAuth, type FakeOAuth } from "./fake-oauth/server.js";
import { NODE } from "./helpers/node.js";
import { CLI } from "./helpers/rpc-client.js";
import { runCli } from "./helpers/run-cli.js";
import { registerStopper, tempDir } from "./helpers/temp.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
let oauth: FakeOAuth;
beforeAll(async () => {
  oauth = await startFakeOAuth();
});
afterAll(() => oauth.close());
afterEach(() => {
  oauth.holdDeviceCodes(false);
  oauth.setRefreshDelay(0);
});

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_OAUTH_TOKEN: undefined, COPILOT_GITHUB_TOKEN: undefined };

function agentDir(auth?: Record<string, unknown>): string {
  const dir = tempDir("atomic-login-e2e-");
  writeFileSync(join(dir, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: fake.url } } }));
  if (auth) writeFileSync(join(dir, "auth.json"), JSON.stringify(auth, null, 2), { mode: 0o600 });
  return dir;
}

/** `atomic <args>` running, its output readable as it comes. */
function start(args: string[], dir: string) {
  const child = spawn(NODE, [CLI, ...args], {
    cwd: dir,
    env: { ...process.env, ...NO_KEYS, ATOMIC_CODING_AGENT_DIR: dir, ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters: (() => void)[] = [];
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    for (const waiter of waiters.splice(0)) waiter();
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("close", resolve));
  registerStopper(() => (child.exitCode === null ? (child.kill("SIGKILL"), exited) : exited));
  return {
    child,
    exited,
    output: () => ({ stdout, stderr }),
    async line(pattern: RegExp): Promise<RegExpMatchArray> {
      for (;;) {
        const match = pattern.exec(stdout);
        if (match) return match;
        if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${stdout}\n${stderr}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
    },
  };
}

const authOf = (dir: string) => JSON.parse(readFileSync(join(dir, "auth.json"), "utf8")) as Record<string, Record<string, unknown>>;

describe("atomic login", () => {
  it("the browser comes back to the loopback callback: logged in, auth.json 0600 in pi's format", async () => {
    const dir = agentDir();
    const login = start(["login", "anthropic"], dir);
    const [, url] = await login.line(/Open this address to sign in:\n {2}(\S+)\n/);
    expect(new URL(url!).host).toBe("claude.ai");
    expect((await oauth.browse(url!)).callback?.status).toBe(200);
    expect(await login.exited).toBe(0);
    expect(login.output().stdout).toContain(`Logged in to Anthropic (Claude Pro/Max). Credentials saved to ${join(dir, "auth.json")}`);
    expect(authOf(dir).anthropic).toMatchObject({ type: "oauth", access: expect.stringMatching(/^sk-ant-oat01-/) });
    expect(statSync(join(dir, "auth.json")).mode & 0o777).toBe(0o600);
  });

  it("--no-browser: Anthropic's copy-code page, the code pasted on stdin", async () => {
    const dir = agentDir();
    const login = start(["login", "anthropic", "--no-browser"], dir);
    const [, url] = await login.line(/Open this address to sign in:\n {2}(\S+)\n/);
    await login.line(/Paste the code Anthropic shows/);
    login.child.stdin.write(`${(await oauth.browse(url!, { follow: false })).body}\n`);
    expect(await login.exited).toBe(0);
    expect(authOf(dir).anthropic).toMatchObject({ type: "oauth" });
  });

  it("--no-browser with stdin at its end: the login fails saying nothing can be pasted, instead of hanging on a promise nobody settles", async () => {
    const dir = agentDir();
    const result = await runCli(["login", "anthropic", "--no-browser"], { cwd: dir, agentDir: dir, env: { ...NO_KEYS, ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin } });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      "Login to Anthropic (Claude Pro/Max) failed: stdin ended before the code was pasted: run atomic login in a terminal, or write the code to its stdin\n",
    );
    expect(existsSync(join(dir, "auth.json"))).toBe(false);
  });

  it("the browser method with stdin at its end still waits for the browser's callback", async () => {
    const dir = agentDir();
    const login = start(["login", "anthropic"], dir);
    login.child.stdin.end();
    const [, url] = await login.line(/Open this address to sign in:\n {2}(\S+)\n/);
    expect((await oauth.browse(url!)).callback?.status).toBe(200);
    expect(await login.exited).toBe(0);
    expect(authOf(dir).anthropic).toMatchObject({ type: "oauth" });
  });

  it("an auth.json that is not JSON stops the login before the sign-in, which would otherwise be lost when it cannot be stored", async () => {
    const dir = agentDir();
    writeFileSync(join(dir, "auth.json"), '{"openai": {"type": "api_key", "key": "sk-1"', { mode: 0o600 });
    const result = await runCli(["login", "github-copilot"], { cwd: dir, agentDir: dir, env: { ...NO_KEYS, ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin } });
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain("enter the code");
    expect(result.stderr).toMatch(
      new RegExp(`^Login to GitHub Copilot failed: Invalid JSON in ${join(dir, "auth.json")}: .+; fix or remove it first: the login is stored there\n$`),
    );
    expect(readFileSync(join(dir, "auth.json"), "utf8")).toBe('{"openai": {"type": "api_key", "key": "sk-1"');
    // The list says so too, rather than showing every provider logged out.
    const list = await runCli(["login"], { cwd: dir, agentDir: dir, env: NO_KEYS });
    expect(list.stderr).toMatch(new RegExp(`^Invalid JSON in ${join(dir, "auth.json")}: .+: no login can be shown or stored until it is fixed or removed\n`));
  });

  it("a device code (GitHub Copilot): shown, then the login completes once it is entered", async () => {
    const dir = agentDir();
    const login = start(["login", "github-copilot"], dir);
    await login.line(/Open https:\/\/github\.com\/login\/device and enter the code: CODE-\d+/);
    expect(await login.exited).toBe(0);
    expect(authOf(dir)["github-copilot"]).toMatchObject({ type: "oauth", refresh: expect.stringMatching(/^ghu_/) });
  });

  it("Ctrl-C while waiting for the device code cancels the login; nothing is stored", async () => {
    oauth.holdDeviceCodes(true);
    const dir = agentDir();
    const login = start(["login", "kimi-coding"], dir);
    await login.line(/enter the code: CODE-\d+/);
    login.child.kill("SIGINT");
    expect(await login.exited).toBe(1);
    expect(login.output().stderr).toBe("Login cancelled.\n");
    expect(existsSync(join(dir, "auth.json"))).toBe(false);
  });

  it("without a provider and no terminal: the list, and a usage error", async () => {
    const result = await runCli(["login"], { cwd: agentDir(), agentDir: agentDir() });
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/1\. anthropic +Anthropic \(Claude Pro\/Max\)/);
    expect(result.stdout).toContain("github-copilot");
    expect(result.stderr).toContain("atomic login needs a provider name");
  });

  it("an unknown provider or method is a usage error naming what there is", async () => {
    const dir = agentDir();
    expect(await runCli(["login", "nope"], { cwd: dir, agentDir: dir })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('No login for "nope". Providers with a login: anthropic'),
    });
    const wrong = await runCli(["login", "xai", "--method", "browser"], { cwd: dir, agentDir: dir });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('xAI (Grok/X subscription) has no "browser" login; its methods: device_code.');
  });

  it("atomic logout removes the login; auth login/logout are pi's spellings", async () => {
    const dir = agentDir({ anthropic: { type: "oauth", access: "a", refresh: "r", expires: 1 }, openai: { type: "api_key", key: "k" } });
    expect(await runCli(["logout", "anthropic"], { cwd: dir, agentDir: dir })).toMatchObject({ code: 0, stdout: "Logged out of Anthropic (Claude Pro/Max).\n" });
    // openai has a login too ("OpenAI (ChatGPT subscription)"), but what was removed is its API key.
    expect(await runCli(["auth", "logout", "openai"], { cwd: dir, agentDir: dir })).toMatchObject({
      code: 0,
      stdout: "Removed the stored API key for openai. Environment variables and models.json are unchanged.\n",
    });
    expect(authOf(dir)).toEqual({});
    expect(await runCli(["logout", "anthropic"], { cwd: dir, agentDir: dir })).toMatchObject({
      code: 0,
      stdout: "No stored credentials for Anthropic (Claude Pro/Max). Environment variables and models.json are unchanged.\n",
    });
    // A built-in provider without a login, with nothing stored: nothing to do, no failure.
    expect(await runCli(["logout", "groq"], { cwd: dir, agentDir: dir })).toMatchObject({ code: 0, stdout: expect.stringContaining("No stored credentials for groq.") });
  });

  it("atomic logout of a name that is no provider and no stored entry is a usage error naming what there is, as atomic login's", async () => {
    const dir = agentDir({ "my-proxy": { type: "api_key", key: "k" } });
    const nope = await runCli(["logout", "nope"], { cwd: dir, agentDir: dir });
    expect(nope).toMatchObject({ code: 2, stdout: "" });
    expect(
      nope.stderr.startsWith(
        `No provider named "nope", and ${join(dir, "auth.json")} has no entry for it (its entries: my-proxy). Providers with a login (atomic login lists them): anthropic, `,
      ),
    ).toBe(true);
    expect(nope.stderr).toMatch(/, github-copilot, .*\.\n$/);
    // A slip of a provider's name (or a model family) says the one meant, and removes nothing.
    const slip = await runCli(["logout", "anthropc"], { cwd: dir, agentDir: dir });
    expect(slip).toMatchObject({ code: 2, stderr: expect.stringContaining('has no entry for it (its entries: my-proxy). Did you mean "anthropic"?') });
    expect((await runCli(["logout", "claude"], { cwd: dir, agentDir: dir })).stderr).toContain('Did you mean "anthropic"?');
    expect((await runCli(["logout", "my-prxy"], { cwd: dir, agentDir: dir })).stderr).toContain('Did you mean "my-proxy"?');
    expect(authOf(dir)).toEqual({ "my-proxy": { type: "api_key", key: "k" } });
    // A stored entry of any name, and a models.json provider with nothing stored, are no errors.
    expect(await runCli(["logout", "my-proxy"], { cwd: dir, agentDir: dir })).toMatchObject({
      code: 0,
      stdout: expect.stringContaining("Removed the stored API key for my-proxy."),
    });
    writeFileSync(join(dir, "models.json"), JSON.stringify({ providers: { anthropic: { baseUrl: fake.url }, "my-proxy": { baseUrl: "http://127.0.0.1:9/v1" } } }));
    expect(await runCli(["logout", "my-proxy"], { cwd: dir, agentDir: dir })).toMatchObject({ code: 0, stdout: expect.stringContaining("No stored credentials for my-proxy.") });
  });
});

describe("logged-in agents", () => {
  const prompt = (dir: string) =>
    runCli(["-p", "hi", "--no-session", "--provider", "anthropic", "--model", "claude-sonnet-5-5"], {
      cwd: dir,
      agentDir: dir,
      env: { ...NO_KEYS, ATOMIC_OAUTH_TEST_ORIGIN: oauth.origin },
      timeoutMs: 60_000,
    });

  it("two agent processes with one expired login: one refresh, both send the new token", async () => {
    oauth.setRefreshDelay(500);
    const refresh = oauth.issueRefreshToken("anthropic");
    const dir = agentDir({ anthropic: { type: "oauth", access: "sk-ant-oat01-expired", refresh, expires: Date.now() - 60_000 } });
    fake.setDefault({ text: "hello" });
    const [first, second] = await Promise.all([prompt(dir), prompt(dir)]);
    expect([first.code, second.code]).toEqual([0, 0]);
    expect(oauth.grants("refresh_token").filter((request) => request.body?.refresh_token === refresh)).toHaveLength(1);
    const stored = authOf(dir).anthropic!;
    expect(fake.requests.map((request) => request.headers.authorization)).toEqual([`Bearer ${stored.access}`, `Bearer ${stored.access}`]);
  });

  it("pi's auth.json (OAuth entries and API keys) works unchanged", async () => {
    const text = `${JSON.stringify(
      {
        anthropic: { type: "oauth", refresh: "sk-ant-ort01-pi", access: "sk-ant-oat01-pi", expires: Date.now() + 86_400_000 },
        "openai-codex": { type: "oauth", access: "eyJ.a.b", refresh: "rt", expires: Date.now() + 86_400_000, accountId: "acct" },
        openai: { type: "api_key", key: "sk-pi" },
      },
      null,
      2,
    )}\n`;
    const dir = agentDir();
    writeFileSync(join(dir, "auth.json"), text, { mode: 0o600 });
    fake.setDefault({ text: "hello" });
    const result = await prompt(dir);
    expect(result).toMatchObject({ code: 0, stdout: "hello\n" });
    expect(fake.requests[0]!.headers).toMatchObject({ authorization: "Bearer sk-ant-oat01-pi", "x-app": "cli" });
    expect(readFileSync(join(dir, "auth.json"), "utf8")).toBe(text);
    const list = await runCli(["auth", "list"], { cwd: dir, agentDir: dir, env: NO_KEYS });
    expect(list.stdout).toMatch(/^anthropic: auth\.json \(login: atomic login\)$/m);
  });

  it("a subscription without a login says how to get one", async () => {
    const dir = agentDir();
    const result = await runCli(["-p", "hi", "--no-session", "--model", "openai-codex/gpt-6.2-sol"], { cwd: dir, agentDir: dir, env: NO_KEYS });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("No API key found for openai-codex. Log in with `atomic login openai-codex`.");
    const list = await runCli(["--list-models", "openai-codex/gpt-6.2-sol"], { cwd: dir, agentDir: dir, env: NO_KEYS });
    expect(list.stdout).toContain("none (atomic login)");
  });

  it("a revoked login: the prompt fails, saying to log in again", async () => {
    const refresh = oauth.issueRefreshToken("anthropic");
    oauth.revoke(refresh);
    const dir = agentDir({ anthropic: { type: "oauth", access: "sk-ant-oat01-expired", refresh, expires: 0 } });
    const result = await prompt(dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Log in again: atomic login anthropic");
    expect(fake.requests).toHaveLength(0);
  });
});
