/**
 * MCP's `codemode` exposure, the default as in pi 1.6, over the built CLI: the server's tools are
 * not declared to the model, codemode is offered without being named, and a script finds and
 * calls them (`describeNamespace`, `searchTools`, `tools.mcp__<server>__<tool>`), getting the
 * whole CallToolResult, `isError` included. With mcp.json's `autoEnableCodemode: false` codemode
 * stays off, the user is told the tools cannot be reached, and a selected `tool_search` loads them;
 * `--tools +tool_search` is taken at boot although tool_search registers once the servers are known.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { allConnected, declaredTools, probeStdio, toolResults, waitForServers } from "./helpers/mcp.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm({ perTest: true });
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const clients: RpcClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function start(servers: Record<string, unknown>, args: string[] = [], top: Record<string, unknown> = {}, settings?: Record<string, unknown>): Promise<RpcClient> {
  const agentDir = tempDir("atomic-mcp-");
  await writeModelsJson(agentDir, fake.url);
  writeFileSync(join(agentDir, "mcp.json"), JSON.stringify({ ...top, mcpServers: servers }));
  const client = new RpcClient({ agentDir, ...(settings ? { settings } : {}), args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", ...args], env: NO_KEYS });
  clients.push(client);
  return client;
}

const SCRIPT = `const ns = await describeNamespace("probe");
const notes = await tools.read_mcp_resource({ server: "probe", uri: "probe://notes" });
const echoed = await tools.mcp__probe__echo({ text: "hi" });
const failed = await tools.mcp__probe__fail({});
const found = await searchTools("echo the text back", { namespace: "mcp__probe" });
return {
  namespace: [ns.name, ns.description, ns.tools.includes("mcp__probe__echo")],
  echoed: echoed.content[0].text,
  failed: [failed.isError, failed.content[0].text],
  best: found[0].name,
  listed: ALL_TOOLS.some((tool) => tool.name === "mcp__probe__slow"),
  notes,
};`;

describe("MCP codemode exposure", () => {
  it("a server with no exposure set (pi's default, codemode): its tools and resources are reached from scripts only; codemode is offered without being named", async () => {
    const client = await start({ probe: { ...probeStdio(), description: "Echoes and sleeps on request" } });
    await waitForServers(client, allConnected("probe"));
    fake.script({ toolCalls: [{ id: "cm", name: "codemode", args: { code: SCRIPT } }] }, { text: "done" });
    await client.ok({ type: "prompt", message: "use the probe" });
    await client.waitForEvent("agent_settled", 30_000);
    const declared = declaredTools(fake.requests[0]!);
    expect(declared).toContain("codemode");
    expect(declared.filter((name) => name.startsWith("mcp__") || name.includes("mcp_resource"))).toEqual([]);
    // Nothing is deferred: tool_search is there for a selection that names it, not offered.
    expect(declared).not.toContain("tool_search");
    // Deferred tools are never listed in its description: it does not change while servers connect.
    const codemode = (fake.requests[0]!.body.tools as { function: { name: string; description: string } }[]).find((tool) => tool.function.name === "codemode")!;
    expect(codemode.function.description).not.toContain("mcp__probe");
    const system = String((fake.requests[0]!.body.messages as { role: string; content: string }[]).find((m) => m.role === "system")?.content);
    expect(system).toContain("MCP servers whose tools codemode scripts call");
    expect(system).toContain("- probe: Echoes and sleeps on request");
    const [result] = toolResults(fake.requests[1]!);
    expect(result).toMatch(/^Script completed\nWall time \d+\.\d seconds\nOutput:\n/);
    expect(JSON.parse(result!.split("Output:\n")[1]!)).toEqual({
      namespace: ["mcp__probe", "Echoes and sleeps on request", true],
      echoed: "echo: hi",
      failed: [true, "the probe failed on purpose"],
      best: "mcp__probe__echo",
      listed: true,
      notes: "probe notes: hello",
    });
    const nested = client.records.filter((r) => r.type === "tool_execution_end" && r.parentToolCallId === "cm").map((r) => [r.toolName, r.isError]);
    expect(nested).toEqual([
      ["read_mcp_resource", false],
      ["mcp__probe__echo", false],
      ["mcp__probe__fail", true],
    ]);
    const { servers } = await waitForServers(client, allConnected("probe"));
    expect(servers[0]).toMatchObject({ exposure: "codemode" });
    expect(servers[0]!.tools.find((tool) => tool.name === "echo")).toMatchObject({ exposure: "codemode", loaded: false });
  }, 60_000);

  it("a script calling a server still connecting waits for it (bounded), as pi does", async () => {
    const client = await start({ probe: probeStdio("--start-delay", "1500") });
    const code = 'const echoed = await tools.mcp__probe__echo({ text: "late" }); return echoed.content[0].text;';
    fake.script({ toolCalls: [{ id: "cm", name: "codemode", args: { code } }] }, { text: "done" });
    await client.ok({ type: "prompt", message: "use the probe at once" });
    await client.waitForEvent("agent_settled", 30_000);
    const [result] = toolResults(fake.requests[1]!);
    expect(result).toMatch(/^Script completed\nWall time \d+\.\d seconds\nOutput:\n\necho: late$/);
  }, 60_000);

  it("--tools naming the tools leaves codemode out unless named; scripts still reach MCP tools when it is", async () => {
    const client = await start({ probe: probeStdio() }, ["--tools", "read,codemode"]);
    await waitForServers(client, allConnected("probe"));
    fake.script({ toolCalls: [{ id: "cm", name: "codemode", args: { code: 'return (await tools.mcp__probe__echo({ text: "named" })).content[0].text;' } }] }, { text: "done" });
    await client.ok({ type: "prompt", message: "go" });
    await client.waitForEvent("agent_settled", 30_000);
    expect(declaredTools(fake.requests[0]!).sort()).toEqual(["codemode", "read"]);
    expect(toolResults(fake.requests[1]!)[0]).toMatch(/\nOutput:\n+echo: named$/);
  }, 60_000);
  it("--tools +tool_search with only codemode tools (pi's default exposure): accepted at boot, offered beside codemode, and it loads a tool", async () => {
    const client = await start({ probe: probeStdio() }, ["--tools", "+tool_search"]);
    await waitForServers(client, allConnected("probe"));
    const from = fake.requests.length;
    fake.script(
      { toolCalls: [{ name: "tool_search", args: { query: "echo the text back" } }] },
      { toolCalls: [{ name: "mcp__probe__echo", args: { text: "searched" } }] },
      { text: "done" },
    );
    await client.ok({ type: "prompt", message: "find it" });
    await client.waitForEvent("agent_settled", 30_000);
    const first = declaredTools(fake.requests[from]!);
    expect(first).toEqual(expect.arrayContaining(["read", "bash", "edit", "write", "codemode", "tool_search"]));
    expect(first.filter((name) => name.startsWith("mcp__"))).toEqual([]);
    expect(declaredTools(fake.requests[from + 1]!)).toContain("mcp__probe__echo");
    expect(toolResults(fake.requests[from + 2]!).at(-1)).toBe("echo: searched");
  }, 60_000);

  it("autoEnableCodemode false (pi's mcp.json key): codemode is not offered and the user is told once; tool_search, when turned on, still reaches the tools", async () => {
    const unreached = await start({ probe: probeStdio() }, [], { autoEnableCodemode: false });
    fake.script({ text: "nothing to call" }, { text: "still nothing" });
    for (const message of ["first", "second"]) {
      const from = unreached.records.length;
      await unreached.ok({ type: "prompt", message });
      await unreached.waitForEvent("agent_settled", 30_000, from);
    }
    expect(declaredTools(fake.requests[0]!).filter((name) => name === "codemode" || name === "tool_search" || name.startsWith("mcp__"))).toEqual([]);
    expect(unreached.stderr.split("\n").filter((line) => line.includes("only reachable from the codemode or tool_search tool"))).toEqual([
      expect.stringContaining("but neither is offered (autoEnableCodemode is false in mcp.json); they cannot be called"),
    ]);

    // pi's way to turn tool_search on (docs/cli.md): it is registered once the servers are known, after boot.
    const searching = await start({ probe: probeStdio() }, [], { autoEnableCodemode: false }, { defaultTools: ["+tool_search"] });
    await waitForServers(searching, allConnected("probe"));
    const from = fake.requests.length;
    fake.script(
      { toolCalls: [{ name: "tool_search", args: { query: "echo the text back" } }] },
      { toolCalls: [{ name: "mcp__probe__echo", args: { text: "loaded" } }] },
      { text: "done" },
    );
    await searching.ok({ type: "prompt", message: "find it" });
    await searching.waitForEvent("agent_settled", 30_000);
    const first = declaredTools(fake.requests[from]!);
    expect(first).toContain("tool_search");
    expect(first).not.toContain("codemode");
    const system = String((fake.requests[from]!.body.messages as { role: string; content: string }[]).find((m) => m.role === "system")?.content);
    expect(system).toContain("find them with tool_search");
    expect(system).not.toContain("codemode scripts call");
    expect(toolResults(fake.requests[from + 2]!).at(-1)).toBe("echo: loaded");
    expect(searching.stderr).not.toContain("only reachable from the codemode or tool_search tool");
  }, 60_000);
});
