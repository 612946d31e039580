/**
 * Secrets over the built CLI: `abort` does not wait for a slow `!command` API key and the
 * command's processes do not outlive it; a failing key command's text never reaches the
 * error; a key in a models.json `baseUrl` query is not shown by get_state or
 * get_available_models. The fake LLM stands in for the provider.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
const dirs: string[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function start(apiKey: string, baseUrlSuffix = "/v1"): RpcClient {
  const agentDir = tempDir("atomic-agent-");
  dirs.push(agentDir);
  const provider = { baseUrl: `${fake.url}${baseUrlSuffix}`, api: "openai-completions", apiKey, models: [{ id: "m1" }] };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { secret: provider } }));
  const client = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--model", "secret/m1"], env: NO_KEYS });
  dirs.push(client.cwd);
  clients.push(client);
  return client;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function poll(test: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (test()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe("API key commands", () => {
  it("abort does not wait for a slow key command, and kills it", async () => {
    const pidFile = join(tempDir("atomic-test-"), "pid");
    dirs.push(join(pidFile, ".."));
    const client = start(`!sh -c 'echo $$ > ${pidFile}; exec sleep 30'`);
    const requestsBefore = fake.requests.length;
    expect((await client.request({ type: "prompt", message: "hi" })).success).toBe(true);
    await poll(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n"), "the key command to start");
    const pid = Number(readFileSync(pidFile, "utf8").trim());
    expect(isAlive(pid)).toBe(true);
    // The command sleeps 30 s and the test times out long before: the abort must not wait for it.
    expect((await client.request({ type: "abort" }, 10_000)).success).toBe(true);
    const end = await client.waitForEvent("agent_end", 10_000);
    const last = (end.messages as { role: string; stopReason?: string }[]).at(-1)!;
    expect(last).toMatchObject({ role: "assistant", stopReason: "aborted" });
    await poll(() => !isAlive(pid), "the key command's process to exit");
    expect(fake.requests.length).toBe(requestsBefore);
  }, 20_000);

  it("a failing key command leaves its text out of errorMessage", async () => {
    const client = start("!echo leaked-secret-output; echo oops >&2; exit 4");
    await client.request({ type: "prompt", message: "hi" });
    const end = await client.waitForEvent("agent_end");
    const last = (end.messages as { errorMessage?: string }[]).at(-1)!;
    expect(last.errorMessage).toBe("Command for the models.json key of provider secret failed (exit 4)");
    expect(JSON.stringify(client.records)).not.toMatch(/leaked-secret-output|echo oops/);
  });
});

describe("base URL secrets", () => {
  it("are redacted in get_state and get_available_models but sent to the server", async () => {
    fake.script({ text: "fine" });
    const client = start("k", "/v1?key=url-secret-123&region=eu");
    const state = await client.ok({ type: "get_state" });
    expect(state.model.baseUrl).toBe(`${fake.url}/v1?key=***&region=***`);
    const listed = await client.ok({ type: "get_available_models" });
    expect(JSON.stringify(listed)).not.toContain("url-secret-123");
    await client.request({ type: "prompt", message: "hi" });
    await client.waitForEvent("agent_end");
    expect(fake.requests.at(-1)!.query).toEqual({ key: "url-secret-123", region: "eu" });
    expect(JSON.stringify(client.records)).not.toContain("url-secret-123");
  });
});
