/**
 * MCP servers' lifecycle through the built CLI: a server killed mid-call gives a clear tool error
 * and the next call reconnects; a server that never answers initialize costs the first prompt at
 * most the startup wait and blocks no other server; an abort sends the MCP cancellation; the
 * per-call timeout; tools/list_changed adds and withdraws tools; shutdown stops the servers.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { allConnected, declaredDirectly, declaredTools, probeEvents, probeStdio, type ServerReport, toolResults, waitForServers, writeMcpJson } from "./helpers/mcp.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm({ perTest: true });
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const clients: RpcClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function start(servers: Record<string, unknown>, settings: Record<string, unknown> = {}): Promise<{ client: RpcClient; log: string }> {
  const agentDir = tempDir("atomic-mcp-");
  const log = join(agentDir, "probe.log");
  await writeModelsJson(agentDir, fake.url);
  // The model calls the tools itself: they are declared to it.
  writeMcpJson(agentDir, declaredDirectly(servers));
  const client = new RpcClient({ agentDir, settings, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"], env: { ...NO_KEYS, PROBE_LOG: log } });
  clients.push(client);
  return { client, log };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("MCP lifecycle", () => {
  it("a server killed mid-call gives a clear tool error; the next call reconnects", async () => {
    const { client, log } = await start({ probe: probeStdio() });
    fake.script({ toolCalls: [{ name: "mcp__probe__slow", args: { ms: 20_000 } }] }, { toolCalls: [{ name: "mcp__probe__echo", args: { text: "again" } }] }, { text: "done" });
    await client.ok({ type: "prompt", message: "go" });
    await until(() => probeEvents(log).some((event) => event.tool === "slow"));
    const first = probeEvents(log).find((event) => event.event === "start")!.pid;
    process.kill(first, "SIGKILL");
    await client.waitForEvent("agent_end", 30_000);
    const [killed] = toolResults(fake.requests[1]!);
    expect(killed).toMatch(/MCP server "probe" closed the connection during tool slow \(the server was killed by SIGKILL\); it is reconnected on the next call/);
    expect(toolResults(fake.requests[2]!)[1]).toBe("echo: again");
    const starts = probeEvents(log).filter((event) => event.event === "start");
    expect(starts).toHaveLength(2);
    expect(starts[1]!.pid).not.toBe(first);
    expect(client.stderr).toContain('mcp: server "probe" disconnected');
  });

  it("a server that never answers initialize costs the first prompt at most the wait; the other server's tools are there", async () => {
    // Ordering, not timing: the wait (8 s) ends before the connect timeout (14 s), so the first
    // request goes out while the stuck server is still connecting. Had the second prompt waited
    // again, its wait would end only when the connect timeout fails the server (8 + 8 > 14): its
    // request going out while the server still connects shows it did not.
    const wait = 8;
    const { client } = await start({ stuck: probeStdio("--hang"), probe: probeStdio() }, { mcp: { startupWait: wait, connectTimeout: 14 } });
    const stuckState = async () => ((await client.ok({ type: "get_mcp_servers" })).servers as ServerReport[]).find((server) => server.name === "stuck")!.state;
    fake.script({ text: "first" }, { text: "second" });
    const sent = Date.now();
    await client.ok({ type: "prompt", message: "hi" });
    await fake.waitForRequests(1);
    // A lower bound only: a loaded machine makes it longer, never shorter.
    expect(Date.now() - sent).toBeGreaterThanOrEqual(wait * 1000 - 100);
    expect(await stuckState()).toBe("connecting");
    expect(declaredTools(fake.requests[0]!)).toContain("mcp__probe__echo");
    await client.waitForEvent("agent_end");
    const from = client.records.length;
    await client.ok({ type: "prompt", message: "again" });
    await fake.waitForRequests(2);
    expect(await stuckState()).toBe("connecting");
    await client.waitForEvent("agent_end", undefined, from);
    const { servers } = await waitForServers(client, (list) => list.find((server) => server.name === "stuck")?.state === "failed");
    expect(servers.find((server) => server.name === "stuck")!.error).toBe(
      "the server did not finish connecting (initialize, tools/list) within 14 s (settings mcp.connectTimeout)",
    );
    expect(servers.find((server) => server.name === "probe")!.state).toBe("connected");
  }, 60_000);

  it("an abort sends the MCP cancellation to the server", async () => {
    const { client, log } = await start({ probe: probeStdio() });
    fake.script({ toolCalls: [{ name: "mcp__probe__slow", args: { ms: 20_000 } }] }, { text: "not reached" });
    await client.ok({ type: "prompt", message: "go" });
    await until(() => probeEvents(log).some((event) => event.tool === "slow"));
    await client.ok({ type: "abort" });
    await client.waitForEvent("agent_end", 10_000);
    await until(() => probeEvents(log).some((event) => event.event === "cancelled"));
    expect(fake.requests).toHaveLength(1);
  });

  it("a call longer than the server's timeout fails naming the setting; the server stays usable", async () => {
    const { client } = await start({ quick: { ...probeStdio(), timeout: 1 } });
    fake.script({ toolCalls: [{ name: "mcp__quick__slow", args: { ms: 5_000 } }] }, { toolCalls: [{ name: "mcp__quick__echo", args: { text: "still here" } }] }, { text: "ok" });
    await client.ok({ type: "prompt", message: "go" });
    await client.waitForEvent("agent_end", 30_000);
    expect(toolResults(fake.requests[1]!)[0]).toBe('MCP server "quick" did not answer tool slow within 1 s (its "timeout" setting, or settings mcp.timeout)');
    expect(toolResults(fake.requests[2]!)[1]).toBe("echo: still here");
  });

  it("tools/list_changed: a tool the server adds is declared from the next call, one it removes is withdrawn", async () => {
    const { client } = await start({ probe: probeStdio() });
    fake.script(
      { toolCalls: [{ name: "mcp__probe__add_tool", args: { name: "fresh" } }] },
      { toolCalls: [{ name: "mcp__probe__fresh", args: {} }] },
      { toolCalls: [{ name: "mcp__probe__remove_tool", args: { name: "fresh" } }] },
      { text: "done" },
    );
    await client.ok({ type: "prompt", message: "go" });
    await client.waitForEvent("agent_end", 30_000);
    expect(declaredTools(fake.requests[0]!)).not.toContain("mcp__probe__fresh");
    // The notification is handled while the model is asked again: wait for the list, then look.
    expect(declaredTools(fake.requests[1]!)).toContain("mcp__probe__fresh");
    expect(toolResults(fake.requests[2]!)[1]).toBe("I am fresh");
    expect(declaredTools(fake.requests[3]!)).not.toContain("mcp__probe__fresh");
    const { servers } = await waitForServers(client, allConnected("probe"));
    expect(servers[0]!.tools.map((tool) => tool.name)).not.toContain("fresh");
  });

  it("ending the agent stops its stdio servers", async () => {
    const { client, log } = await start({ probe: probeStdio() });
    await waitForServers(client, allConnected("probe"));
    const pid = probeEvents(log).find((event) => event.event === "start")!.pid;
    expect(alive(pid)).toBe(true);
    await client.close();
    await until(() => !alive(pid), 5_000);
  });
});
