/**
 * Escalation with approval "on-request": the model asks (the bash tool's `escalate` and `reason`)
 * to run one command outside the sandbox; the client is asked with a confirm dialog (RPC's
 * extension_ui_request, ACP's session/request_permission, the sandbox set by ACP's session
 * `_meta`), the answer is recorded in the session, and without a client (print mode) it is refused.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { AcpAgent } from "./helpers/acp-client.js";
import { RpcClient, runCli } from "./helpers/rpc-client.js";
import { sandboxLayout, type SandboxLayout } from "./helpers/sandbox.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const clients: { close(): Promise<unknown> }[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

const ON_REQUEST = { sandbox: { mode: "workspace-write", approval: "on-request" } };
const ENV = (dirs: SandboxLayout) => ({ HOME: dirs.home, ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined });
const escalated = (dirs: SandboxLayout, name: string) => ({
  name: "bash",
  args: { command: `echo escaped > ${join(dirs.outside, name)}`, escalate: true, reason: "the report belongs next to the project" },
});
type End = { toolCallId: string; isError: boolean; result: { content: { text?: string }[] } };
const textOf = (end: End) => end.result.content.map((block) => block.text ?? "").join("");

describe("sandbox escalation", () => {
  it("over RPC: the client confirms or declines; the command runs outside only when confirmed; both answers are in the session", async () => {
    const dirs = sandboxLayout();
    await writeModelsJson(dirs.agentDir, fake.url);
    const c = new RpcClient({ agentDir: dirs.agentDir, cwd: dirs.workspace, args: ["--mode", "rpc", "--model", "fake-openai/fake-1"], settings: ON_REQUEST, env: ENV(dirs) });
    clients.push(c);
    const state = await c.ok({ type: "get_state" });
    expect(state.sandbox).toMatchObject({ mode: "workspace-write", approval: "on-request" });

    fake.script(
      {
        toolCalls: [
          { id: "yes", ...escalated(dirs, "approved.txt") },
          { id: "no", ...escalated(dirs, "declined.txt") },
        ],
      },
      { text: "done" },
    );
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "write the report" });
    let after = from;
    for (const answer of [true, false]) {
      const request = await c.waitFor((r) => r.type === "extension_ui_request" && r.method === "confirm", 20_000, after);
      after = c.records.indexOf(request) + 1;
      expect(request).toMatchObject({ title: "Run a command outside the sandbox?" });
      expect(String(request.message)).toContain(`echo escaped > ${join(dirs.outside, answer ? "approved.txt" : "declined.txt")}`);
      expect(String(request.message)).toContain("Reason: the report belongs next to the project");
      c.send({ type: "extension_ui_response", id: request.id, confirmed: answer });
    }
    await c.waitForEvent("agent_settled", 30_000, from);
    const ends = c.records.slice(from).filter((r) => r.type === "tool_execution_end") as unknown as End[];
    expect(ends.map((end) => [end.toolCallId, end.isError])).toEqual([
      ["yes", false],
      ["no", true],
    ]);
    expect(textOf(ends[1]!)).toBe(
      "blocked by the sandbox: the user declined to run this command outside it; the command was not run. Find a way inside the sandbox, or ask the user.",
    );
    expect(readFileSync(join(dirs.outside, "approved.txt"), "utf8")).toBe("escaped\n");
    expect(existsSync(join(dirs.outside, "declined.txt"))).toBe(false);

    const { entries } = await c.ok({ type: "get_entries" });
    const recorded = (entries as { type: string; customType?: string; data?: Record<string, unknown> }[]).filter(
      (entry) => entry.type === "custom" && entry.customType === "sandbox_escalation",
    );
    expect(recorded.map((entry) => entry.data)).toEqual([
      {
        command: `echo escaped > ${join(dirs.outside, "approved.txt")}`,
        reason: "the report belongs next to the project",
        cwd: dirs.workspace,
        toolCallId: "yes",
        outcome: "approved",
      },
      {
        command: `echo escaped > ${join(dirs.outside, "declined.txt")}`,
        reason: "the report belongs next to the project",
        cwd: dirs.workspace,
        toolCallId: "no",
        outcome: "declined",
      },
    ]);
  });

  it("the tool schema offers escalate and reason only with approval on-request, and reason is required with it", async () => {
    const dirs = sandboxLayout();
    await writeModelsJson(dirs.agentDir, fake.url);
    const c = new RpcClient({
      agentDir: dirs.agentDir,
      cwd: dirs.workspace,
      args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"],
      settings: ON_REQUEST,
      env: ENV(dirs),
    });
    clients.push(c);
    fake.script({ toolCalls: [{ id: "bare", name: "bash", args: { command: "true", escalate: true } }] }, { text: "done" });
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "go" });
    await c.waitForEvent("agent_settled", 30_000, from);
    expect(bashProperties(fake.requests[0]!.body)).toEqual(["command", "timeout", "escalate", "reason"]);
    const end = c.records.slice(from).find((r) => r.type === "tool_execution_end") as unknown as End;
    expect(textOf(end)).toBe('Validation failed for tool "bash": Invalid reason: expected a non-empty string when escalate is true');
    await c.close();

    const fresh = sandboxLayout();
    await writeModelsJson(fresh.agentDir, fake.url);
    const never = new RpcClient({
      agentDir: fresh.agentDir,
      cwd: fresh.workspace,
      args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", "--sandbox", "workspace-write"],
      env: ENV(fresh),
    });
    clients.push(never);
    fake.script({ text: "hi" });
    const asked = fake.requests.length;
    await never.ok({ type: "prompt", message: "hi" });
    await never.waitForEvent("agent_settled", 30_000);
    expect(bashProperties(fake.requests[asked]!.body)).toEqual(["command", "timeout"]);
  });

  it("in print mode nobody can be asked: refused, recorded, and the command does not run", async () => {
    const dirs = sandboxLayout();
    await writeModelsJson(dirs.agentDir, fake.url);
    writeFileSync(join(dirs.agentDir, "settings.json"), JSON.stringify(ON_REQUEST));
    fake.script({ toolCalls: [{ id: "print", ...escalated(dirs, "print.txt") }] }, { text: "could not" });
    const run = await runCli(["-p", "--model", "fake-openai/fake-1", "write the report"], { cwd: dirs.workspace, agentDir: dirs.agentDir, env: ENV(dirs) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("could not\n");
    expect(existsSync(join(dirs.outside, "print.txt"))).toBe(false);
    // What the model was told, in the next request.
    expect(JSON.stringify(fake.requests[1]!.body)).toContain(
      "blocked by the sandbox: running a command outside it needs the user's approval, and no client can be asked in this mode; the command was not run.",
    );
    const sessionFile = findSessionFile(join(dirs.agentDir, "sessions"));
    const entries = readFileSync(sessionFile, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; customType?: string; data?: { outcome?: string } });
    expect(entries.filter((entry) => entry.customType === "sandbox_escalation").map((entry) => entry.data?.outcome)).toEqual(["unavailable"]);
  });

  it("over ACP: the session's _meta sets the sandbox, and the escalation becomes session/request_permission on the tool call", async () => {
    const dirs = sandboxLayout();
    await writeModelsJson(dirs.agentDir, fake.url);
    const agent = new AcpAgent({ args: ["--mode", "acp", "--model", "fake-openai/fake-1"], cwd: dirs.workspace, agentDir: dirs.agentDir, env: ENV(dirs) });
    clients.push({ close: () => agent.close() });
    await agent.initialize();
    const { sessionId } = await agent.agent.request("session/new", { cwd: dirs.workspace, mcpServers: [], _meta: { atomic: { sandbox: ON_REQUEST.sandbox } } });
    agent.policy = (request) => ({ outcome: { outcome: "selected", optionId: request.options.find((option) => option.kind === "allow_once")!.optionId } });
    fake.script({ toolCalls: [{ id: "acp", ...escalated(dirs, "acp.txt") }] }, { text: "done" });
    expect(await agent.prompt(sessionId, "write the report")).toMatchObject({ stopReason: "end_turn" });
    expect(agent.permissions).toHaveLength(1);
    expect(agent.permissions[0]).toMatchObject({ sessionId, toolCall: { toolCallId: "acp", title: "Run a command outside the sandbox?" } });
    expect(JSON.stringify(agent.permissions[0]!.toolCall.content)).toContain("Reason: the report belongs next to the project");
    expect(readFileSync(join(dirs.outside, "acp.txt"), "utf8")).toBe("escaped\n");

    const invalid = agent.agent.request("session/new", { cwd: dirs.workspace, mcpServers: [], _meta: { atomic: { sandbox: "locked-down" } } });
    await expect(invalid).rejects.toThrow(/sandbox\.mode/);
  });
});

/** The bash tool's parameter names in an OpenAI chat request. */
function bashProperties(body: unknown): string[] {
  const tools = (body as { tools: { function: { name: string; parameters: { properties: Record<string, unknown> } } }[] }).tools;
  return Object.keys(tools.find((tool) => tool.function.name === "bash")!.function.parameters.properties);
}

function findSessionFile(dir: string): string {
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith(".jsonl")) return join(entry.parentPath, entry.name);
  }
  throw new Error(`no session file under ${dir}`);
}
