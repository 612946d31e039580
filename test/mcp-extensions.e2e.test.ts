/**
 * pi 1.6's MCP API for extensions through the built CLI: a server registered while the extension
 * loads connects like a configured one and its tools reach the model; later registrations and
 * removals fire mcp_servers_change; an invalid entry throws naming the key; a server of the same
 * name in mcp.json wins over the extension's.
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, startExtensionAgent, useExtensionAgents } from "./helpers/extension-agent.js";
import { allConnected, PROBE, probeStdio, toolResults, waitForServers, writeMcpJson } from "./helpers/mcp.js";
import { tempDir, type RpcClient } from "./helpers/rpc-client.js";

const EXTENSION = resolve(import.meta.dirname, "fixtures/extensions/mcp-servers.ts");
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

async function start(agentDir?: string): Promise<RpcClient> {
  const client = await startExtensionAgent(fake, { extensions: [EXTENSION], env: { PROBE_SERVER: PROBE }, ...(agentDir ? { agentDir } : {}) });
  clients.push(client);
  return client;
}

async function report(client: RpcClient): Promise<{ servers: { name: string; from: string }[]; changes: string[][]; invalid: string }> {
  const from = client.records.length;
  await client.ok({ type: "prompt", message: "/mcp-report" });
  return JSON.parse(String((await notified(client, /^\{/, from)).message));
}

describe("extensions: pi.registerMcpServer", () => {
  it("a server registered while loading connects and its tools reach the model (from codemode, the default exposure); later changes fire mcp_servers_change", async () => {
    const client = await start();
    const script = `const echoed = await tools.mcp__ext__echo({ text: "from the extension's server" });
return echoed.content[0].text;`;
    fake.script({ toolCalls: [{ name: "codemode", args: { code: script } }] }, { text: "ok" });
    await client.ok({ type: "prompt", message: "call it" });
    await client.waitForEvent("agent_end", 30_000);
    expect(toolResults(fake.requests[1]!)).toEqual([expect.stringMatching(/^Script completed\n[\s\S]*\nOutput:\n+echo: from the extension's server$/)]);
    const first = await report(client);
    expect(first.servers).toEqual([{ name: "ext", from: EXTENSION }]);
    expect(first.changes).toEqual([]);
    expect(first.invalid).toBe('registerMcpServer("broken"): Invalid config.url: expected string');

    await client.ok({ type: "prompt", message: "/mcp-late" });
    const { servers } = await waitForServers(client, allConnected("ext", "late"));
    expect(servers.map((server) => [server.name, server.source, server.origin])).toEqual([
      ["ext", "extension", EXTENSION],
      ["late", "extension", EXTENSION],
    ]);
    await client.ok({ type: "prompt", message: "/mcp-drop" });
    await waitForServers(client, (list) => list.every((server) => server.name !== "late"));
    expect((await report(client)).changes).toEqual([["ext", "late"], ["ext"]]);
  });

  it("a server of the same name in mcp.json wins over the extension's", async () => {
    const agentDir = tempDir("atomic-agent-");
    writeMcpJson(agentDir, { ext: { ...probeStdio(), description: "the user's" } });
    const client = await start(agentDir);
    const { servers } = await waitForServers(client, allConnected("ext"));
    expect(servers).toEqual([expect.objectContaining({ name: "ext", source: "user", description: "the user's" })]);
  });
});
