/**
 * `atomic serve` with a sandbox per agent (issues 34 and 37): `agent_open {sandbox}` confines that
 * agent alone, the choice is kept in the registry (a reload is as confined), and an escalation's
 * confirm dialog reaches every controller of the agent: the first answer wins, the others hear
 * `extension_ui_resolved`, and the command runs outside only because it was approved.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import type { Record_ } from "./helpers/rpc-client.js";
import { sandboxLayout } from "./helpers/sandbox.js";
import { ServerProcess } from "./helpers/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();

describe("atomic serve: a sandbox per agent", { timeout: 60_000 }, () => {
  it("agent_open's sandbox confines that agent; its escalation dialog reaches every controller and the first answer wins", async () => {
    const dirs = sandboxLayout();
    await writeModelsJson(dirs.agentDir, fake.url);
    const server = await ServerProcess.start({
      agentDir: dirs.agentDir,
      cwd: dirs.workspace,
      args: ["--model", "fake-openai/fake-1"],
      env: { HOME: dirs.home, ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined },
    });
    const one = await server.connect();
    const two = await server.connect();
    const observer = await server.connect();
    const policy = { mode: "workspace-write", approval: "on-request" };
    const { agent } = await one.ok({ type: "agent_open", cwd: dirs.workspace, sandbox: policy });
    const plain = await one.ok({ type: "agent_open", cwd: dirs.workspace });
    expect((await one.ok({ type: "get_state", agent })).sandbox).toMatchObject(policy);
    expect((await one.ok({ type: "get_state", agent: plain.agent })).sandbox).toMatchObject({ mode: "off" });
    expect(await one.request({ type: "agent_open", sandbox: "wide-open" })).toMatchObject({ success: false, code: "invalid_request", error: expect.stringContaining("sandbox") });
    await two.ok({ type: "attach", agent });
    await observer.ok({ type: "attach", agent, role: "observe" });

    const command = `echo escaped > ${join(dirs.outside, "approved.txt")}`;
    fake.script({ toolCalls: [{ id: "esc", name: "bash", args: { command, escalate: true, reason: "the report goes outside" } }] }, { text: "done" });
    await one.ok({ type: "prompt", agent, message: "write the report" });
    const isDialog = (r: Record_) => r.type === "extension_ui_request" && r.method === "confirm";
    const [asked, alsoAsked, observed] = await Promise.all([one.waitFor(isDialog), two.waitFor(isDialog), observer.waitFor(isDialog)]);
    expect(asked).toMatchObject({ agent, title: "Run a command outside the sandbox?" });
    expect(String(asked.message)).toContain(command);
    expect(alsoAsked).toEqual(asked);
    expect(observed).toEqual(asked);

    // The second controller answers first; the first one's late "no" changes nothing.
    two.send({ type: "extension_ui_response", id: asked.id, confirmed: true });
    for (const other of [one, observer])
      expect(await other.waitFor((r) => r.type === "extension_ui_resolved")).toEqual({ type: "extension_ui_resolved", agent, id: asked.id, reason: "answered" });
    one.send({ type: "extension_ui_response", id: asked.id, confirmed: false });
    const end = await one.waitFor((r) => r.type === "tool_execution_end" && r.toolCallId === "esc");
    expect(end.isError).toBe(false);
    await one.waitFor((r) => r.agent === agent && r.type === "agent_settled");
    expect(readFileSync(join(dirs.outside, "approved.txt"), "utf8")).toBe("escaped\n");
    expect(two.records.some((r) => r.type === "extension_ui_resolved")).toBe(false);
    const { entries } = await two.ok({ type: "get_entries", agent });
    expect(entries.filter((e: { customType?: string }) => e.customType === "sandbox_escalation").map((e: { data: { outcome: string } }) => e.data.outcome)).toEqual(["approved"]);

    // The registry keeps the agent's sandbox: loaded again (after a restart, an idle unload), it is as confined.
    await server.stop();
    const registry = JSON.parse(readFileSync(join(dirs.agentDir, "serve", "agents.json"), "utf8")).agents;
    expect(registry[agent].sandbox).toEqual(policy);
    expect(registry[plain.agent].sandbox).toBeUndefined();
    const restarted = await ServerProcess.start({ agentDir: dirs.agentDir, cwd: dirs.workspace, args: ["--model", "fake-openai/fake-1"], env: { HOME: dirs.home } });
    const again = await restarted.connect();
    expect((await again.ok({ type: "get_state", agent })).sandbox).toMatchObject(policy);
    await restarted.stop();
  });
});
