/**
 * Hostile or unlucky MCP servers, through the built CLI and the loopback fake LLM: a server that
 * lists 20,000 tools with 2 KB descriptions does not put them all in every request (a cap on what
 * is offered directly; the rest through tool_search, the user told once), and tools whose names
 * are built-in object keys (`__proto__`, `constructor`, ...) are offered like any other.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson, type RecordedRequest } from "./fake-llm/server.js";
import { allConnected, declaredTools, toolResults, waitForServers, writeMcpJson } from "./helpers/mcp.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm({ perTest: true });
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const FLOOD = resolve(import.meta.dirname, "fixtures/mcp/flood-server.mjs");
const clients: RpcClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function start(servers: Record<string, unknown>, settings: Record<string, unknown> = {}): Promise<RpcClient> {
  const agentDir = tempDir("atomic-mcp-");
  await writeModelsJson(agentDir, fake.url);
  writeMcpJson(agentDir, servers);
  const client = new RpcClient({ agentDir, settings, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"], env: NO_KEYS });
  clients.push(client);
  return client;
}

const flood = (...args: string[]) => ({ command: process.execPath, args: [FLOOD, ...args] });
const peakRssMb = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const requestBytes = (request: RecordedRequest) => Buffer.byteLength(JSON.stringify(request.body));
const mcpTools = (request: RecordedRequest) => declaredTools(request).filter((name) => name.startsWith("mcp__"));

describe("an MCP tool flood", () => {
  it.runIf(process.platform === "linux")(
    "20,000 tools with 2 KB descriptions: at most the cap is offered directly, the rest through tool_search; told once; request and memory bounded",
    async () => {
      const tools = 20_000;
      const client = await start({ flood: flood("--tools", String(tools), "--description-bytes", "2048") });
      // Listed and capped: the peak so far is the listing's own (45 MB of JSON in one message).
      while (!client.stderr.includes("offered to the model directly")) await new Promise((resolve) => setTimeout(resolve, 50));
      const listingPeak = peakRssMb(client.child.pid!);
      fake.script(
        { toolCalls: [{ name: "tool_search", args: { query: "tool_19999" } }] },
        { toolCalls: [{ name: "mcp__flood__tool_19999", args: { text: "hi" } }] },
        { text: "done" },
        { text: "again" },
      );
      await client.ok({ type: "prompt", message: "use the last tool" });
      await client.waitForEvent("agent_end", 120_000);
      const first = fake.requests[0]!;
      const offered = mcpTools(first);
      console.log(
        `MCP flood of ${tools} tools: first request ${(requestBytes(first) / 1024).toFixed(0)} KiB, ${offered.length} MCP tools offered; peak RSS ${listingPeak.toFixed(0)} MB after listing, ${peakRssMb(client.child.pid!).toFixed(0)} MB after the prompt`,
      );
      // 2 KB descriptions: the per-server character budget (64 Ki) stops it first.
      expect(offered.length).toBeGreaterThan(0);
      expect(offered.length).toBeLessThanOrEqual(64);
      expect(declaredTools(first)).toContain("tool_search");
      expect(requestBytes(first)).toBeLessThan(512 * 1024);
      expect(toolResults(fake.requests[1]!)[0]).toMatch(/^Loaded 1 tool; call them from your next turn:\n- mcp__flood__tool_19999: Tool number 19999/);
      expect(toolResults(fake.requests[2]!)[1]).toBe("called tool_19999");

      // A second prompt: the cap is not announced again.
      await client.ok({ type: "prompt", message: "again" });
      await client.waitForEvent("agent_end", 60_000, client.records.length - 1);
      const notes = client.stderr.split("\n").filter((line) => line.includes("offered to the model directly"));
      expect(notes).toEqual([
        expect.stringContaining(
          `mcp: server "flood" lists ${tools} tools: ${offered.length} are offered to the model directly (mcp.directTools.perServerChars is 65536), the other ${tools - offered.length} through tool_search`,
        ),
      ]);
      // The prompt's part of the peak is the tool_search index of 20,000 tools (built once, at the
      // first search: 90-140 MB by Node major) and four requests of the capped size. Before the cap
      // each request was 47.6 MB of JSON, copied by the SDK and the HTTP body, and the peak grew to
      // 580 MB. Measured from the listing's own peak because V8's heap sizing differs by Node
      // major (Node 24 peaks higher than Node 20 on the listing alone).
      expect(peakRssMb(client.child.pid!) - listingPeak).toBeLessThan(250);
    },
    180_000,
  );

  it("past the cap, codemode scripts find (searchTools, ALL_TOOLS) and call the capped tools", async () => {
    const agentDir = tempDir("atomic-mcp-");
    await writeModelsJson(agentDir, fake.url);
    writeMcpJson(agentDir, { flood: flood("--tools", "20000", "--description-bytes", "2048") });
    const client = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", "--tools", "+codemode"], env: NO_KEYS });
    clients.push(client);
    const script = `const found = await searchTools("tool_19999", { namespace: "flood" });
const called = await tools.mcp__flood__tool_19999({ text: "hi" });
return { found: found.map((tool) => tool.name).includes("mcp__flood__tool_19999"), listed: ALL_TOOLS.filter((tool) => tool.name.startsWith("mcp__flood__")).length, called: called.content[0].text };`;
    fake.script({ toolCalls: [{ id: "cm", name: "codemode", args: { code: script } }] }, { text: "done" });
    // Listed and capped (get_mcp_servers would answer with all 20,000 tools at every poll).
    while (!client.stderr.includes("offered to the model directly")) await new Promise((resolve) => setTimeout(resolve, 50));
    await client.ok({ type: "prompt", message: "script the last tool" });
    await client.waitForEvent("agent_settled", 120_000);
    const offered = mcpTools(fake.requests[0]!);
    expect(offered.length).toBeLessThanOrEqual(64);
    expect(offered).not.toContain("mcp__flood__tool_19999");
    const [result] = toolResults(fake.requests[1]!);
    expect(JSON.parse(result!.split("Output:\n")[1]!)).toEqual({ found: true, listed: 20_000, called: "called tool_19999" });
  }, 240_000);

  it("a server that pages out 30,000 tools: the first 20,000 are kept, and the user is told", async () => {
    const client = await start({ flood: flood("--tools", "30000", "--description-bytes", "200", "--page-size", "5000") });
    const { servers } = await waitForServers(client, allConnected("flood"), 60_000);
    expect(servers[0]!.tools).toHaveLength(20_000);
    expect(servers[0]!.tools.at(-1)).toMatchObject({ name: "tool_19999", exposure: "deferred", capped: true });
    expect(client.stderr).toContain('mcp: server "flood" lists more than 20000 tools: only the first 20000 are kept');
  }, 120_000);
});

describe("MCP tools named like built-in object keys", () => {
  it("__proto__, constructor, toString, hasOwnProperty and valueOf are offered and called like any tool", async () => {
    const keys = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
    const client = await start({ keys: flood("--names", [...keys, "echo"].join(",")) });
    fake.script(
      {
        toolCalls: [
          { name: "mcp__keys__constructor", args: {} },
          { name: "mcp__keys____proto__", args: {} },
        ],
      },
      { text: "done" },
    );
    await client.ok({ type: "prompt", message: "call them" });
    await client.waitForEvent("agent_end", 60_000);
    expect(mcpTools(fake.requests[0]!).sort()).toEqual([...keys, "echo"].map((key) => `mcp__keys__${key}`).sort());
    expect(toolResults(fake.requests[1]!)).toEqual(["called constructor", "called __proto__"]);
    const { servers } = await waitForServers(client, allConnected("keys"));
    expect(servers[0]!.tools.map((tool) => tool.exposure)).toEqual(Array(6).fill("direct"));
  }, 60_000);
});

describe("what a stdio MCP server is given of the agent's environment", () => {
  it("HOME, PATH and what its entry names (and the variables its ${VAR}s name), never the provider keys", async () => {
    const agentDir = tempDir("atomic-mcp-");
    await writeModelsJson(agentDir, fake.url);
    writeMcpJson(agentDir, { env: { ...flood("--names", "environment"), env: { GIVEN: "${SHARED_FOR_MCP}", LITERAL: "plain" } } });
    const secrets = { OPENAI_API_KEY: "sk-openai-secret", ANTHROPIC_API_KEY: "sk-ant-secret", GEMINI_API_KEY: "gemini-secret", UNRELATED_TOKEN: "unrelated" };
    const client = new RpcClient({
      agentDir,
      args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"],
      env: { ...secrets, SHARED_FOR_MCP: "shared" },
    });
    clients.push(client);
    fake.script({ toolCalls: [{ name: "mcp__env__environment", args: {} }] }, { text: "done" });
    await client.ok({ type: "prompt", message: "show the environment" });
    await client.waitForEvent("agent_end", 60_000);
    const seen = JSON.parse(toolResults(fake.requests[1]!)[0]!) as Record<string, string>;
    expect(seen).toMatchObject({ GIVEN: "shared", SHARED_FOR_MCP: "shared", LITERAL: "plain", PATH: process.env.PATH });
    for (const name of Object.keys(secrets)) expect(seen[name], name).toBeUndefined();
    expect(Object.values(seen)).not.toContain("sk-openai-secret");
  }, 60_000);
});
