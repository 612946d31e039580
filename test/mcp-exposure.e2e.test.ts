/**
 * How MCP tools reach the model, through the built CLI and the loopback fake LLM: deferred tools
 * are found by `tool_search` and declared from the next call; `toolExposure` hides or defers
 * single tools; results map to text, images and errors, long text is cut with the whole of it in
 * a file; resources are listed and read through tools; server-filesystem's tools work.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { allConnected, declaredTools, FILESYSTEM, probeStdio, toolResults, waitForServers, writeMcpJson } from "./helpers/mcp.js";
import { RpcClient, tempDir, type Record_ } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm({ perTest: true });
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const clients: RpcClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function start(servers: Record<string, unknown>, cwd?: string, args: string[] = []): Promise<RpcClient> {
  const agentDir = tempDir("atomic-mcp-");
  await writeModelsJson(agentDir, fake.url);
  writeMcpJson(agentDir, servers);
  const client = new RpcClient({ agentDir, ...(cwd ? { cwd } : {}), args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", ...args], env: NO_KEYS });
  clients.push(client);
  return client;
}

const systemPrompt = (index: number) => String((fake.requests[index]!.body.messages as { role: string; content: string }[]).find((m) => m.role === "system")?.content ?? "");
const toolEnds = (client: RpcClient) =>
  client.records.filter((r) => r.type === "tool_execution_end") as (Record_ & {
    toolName: string;
    isError: boolean;
    result: { content: { type: string; text?: string; data?: string }[]; details?: { fullOutputPath?: string } };
  })[];

describe("MCP exposure and results", () => {
  it("deferred tools are found by tool_search and declared from the next call", async () => {
    const client = await start({ probe: { ...probeStdio(), exposure: "deferred", description: "Echoes and sleeps on request" } });
    fake.script(
      { toolCalls: [{ name: "tool_search", args: { query: "echo the text back" } }] },
      { toolCalls: [{ name: "mcp__probe__echo", args: { text: "found" } }] },
      { text: "done" },
    );
    await client.ok({ type: "prompt", message: "find a tool" });
    await client.waitForEvent("agent_end", 30_000);
    const first = declaredTools(fake.requests[0]!);
    expect(first).toContain("tool_search");
    expect(first.filter((name) => name.startsWith("mcp__"))).toEqual([]);
    expect(systemPrompt(0)).toContain("find them with tool_search");
    expect(systemPrompt(0)).toContain("- probe: Echoes and sleeps on request");
    const [search] = toolResults(fake.requests[1]!);
    expect(search).toMatch(/^Loaded \d+ tools?; call them from your next turn:\n- mcp__probe__echo: Echoes the text back/);
    expect(declaredTools(fake.requests[1]!)).toContain("mcp__probe__echo");
    expect(toolResults(fake.requests[2]!)[1]).toBe("echo: found");
    const { servers } = await waitForServers(client, allConnected("probe"));
    expect(servers[0]!.tools.find((tool) => tool.name === "echo")).toMatchObject({ exposure: "deferred", loaded: true });
    expect(servers[0]!.tools.find((tool) => tool.name === "die")).toMatchObject({ exposure: "deferred", loaded: false });
  });

  it("toolExposure hides or defers single tools (exact names before patterns)", async () => {
    const client = await start({ probe: { ...probeStdio(), exposure: "direct", toolExposure: { echo: "hidden", "s*": "deferred", slow: "direct" } } });
    fake.script({ toolCalls: [{ name: "mcp__probe__echo", args: { text: "x" } }] }, { text: "ok" });
    await client.ok({ type: "prompt", message: "go" });
    await client.waitForEvent("agent_end", 30_000);
    const declared = declaredTools(fake.requests[0]!);
    expect(declared).toEqual(expect.arrayContaining(["mcp__probe__slow", "mcp__probe__big", "tool_search"]));
    expect(declared).not.toContain("mcp__probe__echo");
    expect(toolResults(fake.requests[1]!)[0]).toBe("Tool mcp__probe__echo not found");
  });

  it("the tool selection applies to MCP tools as to any other: --tools names or patterns, --exclude-tools, --no-tools", async () => {
    const declaredWith = async (args: string[]) => {
      const client = await start({ probe: { ...probeStdio(), exposure: "direct" } }, undefined, args);
      fake.script({ text: "ok" });
      const from = fake.requests.length;
      await client.ok({ type: "prompt", message: "go" });
      await client.waitForEvent("agent_end", 30_000);
      await client.close();
      return declaredTools(fake.requests[from]!);
    };
    expect(await declaredWith(["--tools", "read"])).toEqual(["read"]);
    const patterned = await declaredWith(["--tools", "read,mcp__probe__*"]);
    expect(patterned).toEqual(expect.arrayContaining(["read", "mcp__probe__echo", "mcp__probe__slow"]));
    expect(patterned).not.toContain("bash");
    const excluded = await declaredWith(["--exclude-tools", "mcp__probe__e*"]);
    expect(excluded).toEqual(expect.arrayContaining(["bash", "mcp__probe__slow"]));
    expect(excluded).not.toContain("mcp__probe__echo");
    expect(await declaredWith(["--no-tools"])).toEqual([]);
  });

  it("results: images pass through, isError stays an error, long text is cut with the whole of it in a file", async () => {
    const client = await start({ probe: { ...probeStdio(), exposure: "direct" } });
    fake.script(
      {
        toolCalls: [
          { name: "mcp__probe__image", args: {} },
          { name: "mcp__probe__fail", args: {} },
          { name: "mcp__probe__big", args: { lines: 3000 } },
        ],
      },
      { text: "ok" },
    );
    await client.ok({ type: "prompt", message: "go" });
    await client.waitForEvent("agent_end", 30_000);
    const [image, fail, big] = toolEnds(client);
    expect(image!.result.content.map((block) => block.type)).toEqual(["text", "image"]);
    expect(image!.isError).toBe(false);
    expect(fail).toMatchObject({ isError: true, result: { content: [{ type: "text", text: "the probe failed on purpose" }] } });
    const text = big!.result.content[0]!.text!;
    expect(text).toContain("line 2000 ");
    expect(text).not.toContain("line 2001 ");
    const path = big!.result.details!.fullOutputPath!;
    expect(text).toContain(`[Output truncated: showing the first 2000 of 3000 lines. Full output: ${path}]`);
    expect(readFileSync(path, "utf8").split("\n")).toHaveLength(3000);
  });

  it("resources are listed and read through tools (declared for a direct server)", async () => {
    const client = await start({ probe: { ...probeStdio(), exposure: "direct" } });
    fake.script(
      { toolCalls: [{ name: "list_mcp_resources", args: {} }] },
      { toolCalls: [{ name: "read_mcp_resource", args: { server: "probe", uri: "probe://notes" } }] },
      { toolCalls: [{ name: "read_mcp_resource", args: { server: "nope", uri: "probe://notes" } }] },
      { text: "ok" },
    );
    await client.ok({ type: "prompt", message: "read the notes" });
    await client.waitForEvent("agent_end", 30_000);
    expect(declaredTools(fake.requests[0]!)).toEqual(expect.arrayContaining(["list_mcp_resources", "list_mcp_resource_templates", "read_mcp_resource"]));
    const listed = JSON.parse(toolResults(fake.requests[1]!)[0]!);
    expect(listed.resources).toEqual([expect.objectContaining({ server: "probe", uri: "probe://notes", name: "notes", mimeType: "text/plain" })]);
    expect(toolResults(fake.requests[2]!)[1]).toBe("probe notes: hello");
    expect(toolResults(fake.requests[3]!)[2]).toBe('No MCP server named "nope" offers resources (servers with resources: probe)');
  });

  it("server-filesystem (npm) lists and reads the folder it was given", async () => {
    const cwd = tempDir("atomic-mcp-cwd-");
    writeFileSync(join(cwd, "notes.txt"), "filesystem works\n");
    const client = await start({ fs: { command: process.execPath, args: [FILESYSTEM, cwd], exposure: "direct" } }, cwd);
    fake.script(
      { toolCalls: [{ name: "mcp__fs__list_directory", args: { path: cwd } }] },
      { toolCalls: [{ name: "mcp__fs__read_text_file", args: { path: join(cwd, "notes.txt") } }] },
      { text: "ok" },
    );
    await client.ok({ type: "prompt", message: "look around" });
    await client.waitForEvent("agent_end", 30_000);
    expect(toolResults(fake.requests[1]!)[0]).toContain("[FILE] notes.txt");
    expect(toolResults(fake.requests[2]!)[1]).toContain("filesystem works");
  });
});
