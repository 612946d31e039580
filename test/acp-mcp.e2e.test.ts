/**
 * ACP `session/new` with `mcpServers`: the editor's stdio and HTTP servers connect for that
 * session and their tools reach the model; a bad entry is an invalid-params error naming it. The
 * connection's own host connects nothing: only the session's host runs the user's mcp.json.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { AcpAgent } from "./helpers/acp-client.js";
import { probeEvents, probeStdio, toolResults, writeMcpJson } from "./helpers/mcp.js";
import { startHttpProbe } from "./helpers/mcp-http.js";
import { tempDir } from "./helpers/temp.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm({ perTest: true });
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const agents: AcpAgent[] = [];

afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

async function start(): Promise<{ agent: AcpAgent; log: string }> {
  const agentDir = tempDir("atomic-agent-");
  const log = join(agentDir, "probe.log");
  await writeModelsJson(agentDir, fake.url);
  writeMcpJson(agentDir, { configured: probeStdio("--stderr", "configured") });
  const agent = new AcpAgent({ args: ["--mode", "acp", "--model", "fake-openai/fake-1"], cwd: tempDir("atomic-cwd-"), agentDir, env: { ...NO_KEYS, PROBE_LOG: log } });
  agents.push(agent);
  return { agent, log };
}

describe("ACP: MCP servers from session/new", () => {
  it("the editor's stdio and HTTP servers' tools are called in the session; results reach the model", async () => {
    const { agent, log } = await start();
    expect((await agent.initialize()).agentCapabilities).toMatchObject({ mcpCapabilities: { http: true, sse: true } });
    const web = await startHttpProbe();
    const probe = probeStdio("--stderr", "from-editor");
    const { sessionId } = await agent.agent.request("session/new", {
      cwd: tempDir("atomic-cwd-"),
      mcpServers: [
        {
          name: "editor probe",
          command: probe.command,
          args: probe.args,
          env: [
            { name: "PROBE_NAME", value: "editor" },
            { name: "PROBE_LOG", value: log },
          ],
        },
        { type: "http", name: "web", url: web.url, headers: [] },
      ],
    });
    fake.script(
      {
        toolCalls: [
          { id: "call_a", name: "mcp__editor_probe__echo", args: { text: "stdio from the editor" } },
          { id: "call_b", name: "mcp__web__echo", args: { text: "http from the editor" } },
          { id: "call_c", name: "mcp__configured__echo", args: { text: "mine" } },
        ],
      },
      { text: "All answered." },
    );
    expect(await agent.prompt(sessionId, "use the editor's servers")).toEqual({ stopReason: "end_turn" });
    expect(toolResults(fake.requests[1]!)).toEqual(["echo: stdio from the editor", "echo: http from the editor", "echo: mine"]);
    const done = (agent.updates.get(sessionId) ?? []).filter((update) => update.sessionUpdate === "tool_call_update" && "status" in update && update.status === "completed");
    expect(done.map((update) => (update as { toolCallId: string }).toolCallId)).toEqual(["call_a", "call_b", "call_c"]);
    expect(JSON.stringify(done[0])).toContain("echo: stdio from the editor");
    // The connection's host ran no server of its own: mcp.json's started once, for the session.
    const starts = probeEvents(log)
      .filter((event) => event.event === "start")
      .map((event) => (event.argv as string[]).at(-1));
    expect(starts.sort()).toEqual(["configured", "from-editor"]);
    await web.close();
  });

  it("an entry that is not a server is an invalid-params error naming it", async () => {
    const { agent } = await start();
    await agent.initialize();
    await expect(
      agent.agent.request("session/new", { cwd: tempDir("atomic-cwd-"), mcpServers: [{ type: "http", name: "broken", url: "ftp://nowhere", headers: [] }] }),
    ).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("mcpServers: Invalid servers.broken.url: expected an http:// or https:// URL"),
    });
  });
});
