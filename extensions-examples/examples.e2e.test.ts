/** Every example plugin, loaded by the real CLI from a user settings file (jiti transpiles it). */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { probeLog, promptAndSettle, startAgent } from "../test/helpers/agent-harness.js";
import { PROBE_PLUGIN } from "../test/helpers/agent-harness.js";
import { textTurn, toolTurn, type RpcClient } from "../test/helpers/rpc-client.js";

const example = (name: string) => resolve(import.meta.dirname, `${name}.ts`);
const clients: RpcClient[] = [];
afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

function toolResults(client: RpcClient) {
  return client.records
    .filter((r) => r.type === "tool_execution_end")
    .map((r) => ({ tool: r.toolName, isError: r.isError, text: (r.result as { content: { text: string }[] }).content[0]?.text ?? "" }));
}

describe("extensions-examples", () => {
  it("permission-gate blocks dangerous bash and lets the rest run", async () => {
    const c = startAgent({
      turns: [toolTurn("c1", "bash", { command: "sudo rm -rf /tmp/x" }), toolTurn("c2", "bash", { command: "echo safe" }), textTurn("done")],
      settings: { plugins: [PROBE_PLUGIN, example("permission-gate")] },
    });
    clients.push(c);
    await promptAndSettle(c, "go");
    const [blocked, allowed] = toolResults(c);
    expect(blocked).toMatchObject({ tool: "bash", isError: true });
    expect(blocked!.text).toContain("Blocked by permission-gate: privilege escalation (sudo)");
    expect(allowed).toMatchObject({ tool: "bash", isError: false, text: "safe\n" });
  });

  it("protected-paths blocks writes to .env but not to ordinary files", async () => {
    const c = startAgent({
      turns: [toolTurn("c1", "write", { path: ".env", content: "SECRET=1" }), toolTurn("c2", "write", { path: "notes.txt", content: "hi" }), textTurn("done")],
      settings: { plugins: [PROBE_PLUGIN, example("protected-paths")] },
    });
    clients.push(c);
    await promptAndSettle(c, "go");
    const [blocked, allowed] = toolResults(c);
    expect(blocked).toMatchObject({ tool: "write", isError: true });
    expect(blocked!.text).toContain(".env is protected");
    expect(allowed).toMatchObject({ tool: "write", isError: false });
    expect(existsSync(join(c.cwd, ".env"))).toBe(false);
    expect(readFileSync(join(c.cwd, "notes.txt"), "utf8")).toBe("hi");
  });

  it("usage-report adds a command with a validated input", async () => {
    const c = startAgent({ turns: [textTurn("hello")], settings: { plugins: [PROBE_PLUGIN, example("usage-report")] } });
    clients.push(c);
    await promptAndSettle(c, "go");
    const report = await c.request({ type: "usage_report" });
    expect(report).toMatchObject({ success: true, data: { models: [{ model: "replay/script", messages: 1, input: 10, output: 5, cost: 0 }] } });
    expect(await c.request({ type: "usage_report", model: 7 }, 20_000, { unchecked: true })).toMatchObject({ success: false, error: "Invalid model: expected string" });
    expect(await c.request({ type: "usage_report", model: "other/x" })).toMatchObject({ data: { models: [] } });
  });

  it("house-rules adds its section to the system prompt from its own settings key", async () => {
    const c = startAgent({
      turns: [textTurn("ok")],
      settings: { plugins: [PROBE_PLUGIN, example("house-rules")], houseRules: ["Use tabs.", "Never push to main."] },
    });
    clients.push(c);
    await promptAndSettle(c, "go");
    const log = await probeLog(c);
    expect(log.systemPrompts[0]).toContain("# House rules\n- Use tabs.\n- Never push to main.");
  });
});
