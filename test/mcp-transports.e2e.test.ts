/**
 * MCP over each transport, end to end: the built CLI, the loopback fake LLM, and real servers
 * (server-everything from the npm registry over stdio, streamable HTTP and the older SSE
 * transport; the probe server over loopback streamable HTTP with a bearer token from the
 * environment). A scripted conversation calls a tool of each; its result reaches the model.
 */
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { allConnected, declaredDirectly, declaredTools, everythingStdio, startEverythingHttp, toolResults, waitForServers, writeMcpJson } from "./helpers/mcp.js";
import { startHttpProbe } from "./helpers/mcp-http.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm({ perTest: true });
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const clients: RpcClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function start(servers: Record<string, unknown>, env: Record<string, string | undefined> = {}): Promise<RpcClient> {
  const agentDir = tempDir("atomic-mcp-");
  await writeModelsJson(agentDir, fake.url);
  // The model calls the tools itself: they are declared to it.
  writeMcpJson(agentDir, declaredDirectly(servers));
  const client = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"], env: { ...NO_KEYS, ...env } });
  clients.push(client);
  return client;
}

describe("MCP transports", () => {
  it("stdio, streamable HTTP and SSE (server-everything): each tool's result reaches the model", async () => {
    const [web, legacy] = await Promise.all([startEverythingHttp("streamableHttp"), startEverythingHttp("sse")]);
    const client = await start({ everything: everythingStdio(), web: { url: web.url }, legacy: { url: legacy.url } });
    fake.script(
      {
        toolCalls: [
          { name: "mcp__everything__echo", args: { message: "over stdio" } },
          { name: "mcp__web__get_sum", args: { a: 2, b: 3 } },
          { name: "mcp__legacy__echo", args: { message: "over sse" } },
        ],
      },
      { text: "All three answered." },
    );
    // The first prompt waits for the servers with direct tools, so their tools are declared.
    await client.ok({ type: "prompt", message: "use the servers" });
    await client.waitForEvent("agent_end", 30_000);
    expect(declaredTools(fake.requests[0]!)).toEqual(expect.arrayContaining(["mcp__everything__echo", "mcp__web__get_sum", "mcp__legacy__echo"]));
    const results = toolResults(fake.requests[1]!);
    expect(results[0]).toContain("Echo: over stdio");
    expect(results[1]).toContain("5");
    expect(results[2]).toContain("Echo: over sse");
    const { servers } = await waitForServers(client, allConnected("everything", "web", "legacy"));
    expect(servers.map((server) => [server.name, server.transport])).toEqual([
      ["everything", "stdio"],
      ["web", "http"],
      ["legacy", "sse"],
    ]);
    const echo = servers[0]!.tools.find((tool) => tool.name === "echo");
    expect(echo).toMatchObject({ toolName: "mcp__everything__echo", exposure: "direct", loaded: true });
    // Tool names are sanitised as pi names them: get-sum -> get_sum.
    expect(servers[1]!.tools.map((tool) => tool.toolName)).toContain("mcp__web__get_sum");
    await Promise.all([web.stop(), legacy.stop()]);
  });

  it("streamable HTTP with a bearer token from an environment variable; without it, a 401 names OAuth as unsupported", async () => {
    const probe = await startHttpProbe({ token: "s3cret" });
    const client = await start({ probe: { url: probe.url, headers: { Authorization: "Bearer ${PROBE_TOKEN}" } }, nokey: { url: probe.url } }, { PROBE_TOKEN: "s3cret" });
    fake.script({ toolCalls: [{ name: "mcp__probe__echo", args: { text: "with a token" } }] }, { text: "ok" });
    await client.ok({ type: "prompt", message: "echo" });
    await client.waitForEvent("agent_end", 30_000);
    expect(toolResults(fake.requests[1]!)).toEqual(["echo: with a token"]);
    expect(probe.authorizations).toContain("Bearer s3cret");
    const { servers } = await waitForServers(client, (list) => list.find((server) => server.name === "nokey")?.state === "failed");
    expect(servers.find((server) => server.name === "nokey")!.error).toMatch(/401.*OAuth sign-in is not supported by Atomic/);
    expect(client.stderr).toMatch(/mcp: server "nokey" could not connect: .*401/);
    await probe.close();
  });

  it("an HTTP server that went away: a clear error, then the next call reconnects (a new session once it restarted)", async () => {
    const probe = await startHttpProbe();
    const client = await start({ web: { url: probe.url } });
    const call = (text: string) => ({ toolCalls: [{ name: "mcp__web__echo", args: { text } }] });
    fake.script(call("one"), { text: "ok" }, call("two"), { text: "ok" }, call("three"), { text: "ok" });
    const turn = async (message: string) => {
      const from = client.records.length;
      await client.ok({ type: "prompt", message });
      await client.waitForEvent("agent_end", 30_000, from);
    };
    await turn("first");
    await probe.down();
    await turn("while it is down");
    await probe.up();
    await turn("after it restarted");
    expect(toolResults(fake.requests[1]!)).toEqual(["echo: one"]);
    expect(toolResults(fake.requests[3]!)[1]).toMatch(/^MCP server "web" cannot be reached \(.*ECONNREFUSED.*\); it is reconnected on the next call$/);
    expect(toolResults(fake.requests[5]!)[2]).toBe("echo: three");
    await probe.close();
  });

  it("an HTTP server that forgot the session (404) gets a new one and the call runs once", async () => {
    const probe = await startHttpProbe();
    const client = await start({ web: { url: probe.url } });
    await waitForServers(client, allConnected("web"));
    await probe.down();
    await probe.up();
    fake.script({ toolCalls: [{ name: "mcp__web__echo", args: { text: "new session" } }] }, { text: "ok" });
    await client.ok({ type: "prompt", message: "go" });
    await client.waitForEvent("agent_end", 30_000);
    expect(toolResults(fake.requests[1]!)).toEqual(["echo: new session"]);
    await probe.close();
  });
});
