/**
 * Where Atomic keeps the seed protocol's answer over pi 1.6's (docs/decisions.md): the messages
 * of a session, `clone` after `fork`, and pi's `compaction.keepRecentTokens` when set. Over the
 * built CLI with the fake LLM.
 */
import { readFileSync, rmSync } from "node:fs";
import { afterEach, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm({ perTest: true });
const clients: RpcClient[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

afterEach(async () => {
  for (const c of clients.splice(0)) {
    await c.close();
    rmSync(c.agentDir, { recursive: true, force: true });
    rmSync(c.cwd, { recursive: true, force: true });
  }
});

async function start(settings?: Record<string, unknown>): Promise<RpcClient> {
  const agentDir = tempDir("atomic-agent-");
  await writeModelsJson(agentDir, fake.url);
  const c = new RpcClient({ agentDir, args: ["--mode", "rpc", "--provider", "fake-openai", "--model", "fake-1"], env: NO_KEYS, ...(settings ? { settings } : {}) });
  clients.push(c);
  return c;
}

async function promptDone(c: RpcClient, message: string): Promise<void> {
  const from = c.records.length;
  await c.ok({ type: "prompt", message });
  await c.waitForEvent("agent_settled", 20_000, from);
}

it("get_messages and the session file hold the conversation only: no system message before the first user message (pi 1.6 persists one)", async () => {
  const c = await start();
  fake.setDefault({ text: "short reply" });
  await promptDone(c, "hi");
  const { messages } = await c.ok({ type: "get_messages" });
  expect(messages.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
  const { sessionFile } = await c.ok({ type: "get_state" });
  const roles = readFileSync(sessionFile, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line) as { type: string; message?: { role: string } })
    .flatMap((entry) => (entry.type === "message" ? [entry.message!.role] : []));
  expect(roles).toEqual(["user", "assistant"]);
});

it("clone after a fork at the first user message answers the seed's error (pi 1.6: its not-saved-yet error)", async () => {
  const c = await start();
  fake.setDefault({ text: "short reply" });
  await promptDone(c, "one");
  await promptDone(c, "two");
  const { messages } = await c.ok({ type: "get_fork_messages" });
  expect(await c.ok({ type: "fork", entryId: messages[0].entryId })).toEqual({ text: "one", cancelled: false });
  expect(await c.request({ type: "clone" })).toMatchObject({ success: false, error: "Cannot clone session: no current entry selected" });
  // After a fork at a later message the branch has entries, and clone works as in pi.
  await promptDone(c, "three");
  expect(await c.ok({ type: "clone" })).toEqual({ cancelled: false });
});

it("with pi's compaction.keepRecentTokens set, compact on a short session answers as pi 1.6 does, without asking the model", async () => {
  const c = await start({ compaction: { keepRecentTokens: 20_000 } });
  fake.setDefault({ text: Array.from({ length: 30 }, (_, i) => `line ${i} of a long answer`).join("\n") });
  await promptDone(c, "tell me a lot");
  await promptDone(c, "and more");
  const requests = fake.requests.length;
  expect(await c.request({ type: "compact" })).toMatchObject({ success: false, error: "Nothing to compact (session too small)" });
  expect(fake.requests).toHaveLength(requests);
});

it("get_commands lists pi 1.6's built-in /llama and /mcp as pi does, and each answers without a terminal as pi's do", async () => {
  const c = await start();
  const { commands } = await c.ok({ type: "get_commands" });
  expect(commands).toEqual([
    {
      name: "llama",
      description: "Manage llama.cpp router models",
      source: "extension",
      sourceInfo: { path: "builtin:llama.cpp", source: "builtin", scope: "temporary", origin: "top-level" },
    },
    {
      name: "mcp",
      description: "Manage MCP servers: sign in, reconnect, enable or disable, and change exposure",
      source: "extension",
      sourceInfo: { path: "builtin:mcp", source: "builtin", scope: "temporary", origin: "top-level" },
    },
  ]);
  const notices: { message: string; notifyType: string }[] = [];
  for (const message of ["/mcp", "/mcp reconnect nope", "/mcp frob", "/mcp login", "/llama"]) {
    const from = c.records.length;
    await c.ok({ type: "prompt", message });
    const notice = await c.waitFor((record) => record.type === "extension_ui_request" && record.method === "notify", 20_000, from);
    notices.push({ message: notice.message as string, notifyType: notice.notifyType as string });
  }
  expect(notices).toEqual([
    { message: `No MCP servers configured. Add them to ${c.agentDir}/mcp.json or .atomic/mcp.json.`, notifyType: "info" },
    { message: 'No MCP server named "nope".', notifyType: "error" },
    { message: "Usage: /mcp, /mcp login [server], /mcp logout [server], /mcp reconnect [server]", notifyType: "warning" },
    { message: expect.stringMatching(/^\/mcp login: Atomic does not sign in to MCP servers/), notifyType: "error" },
    { message: expect.stringMatching(/^\/llama is available in pi's interactive mode only/), notifyType: "warning" },
  ]);
  expect(fake.requests).toHaveLength(0);
});
