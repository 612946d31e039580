/**
 * Extensions driving the agent, over the built CLI and the fake LLM: commands while streaming (and
 * refused by steer/follow_up), veto and rewrite hooks as the model sees them, abort not blocked by
 * a handler that never finishes, setActiveTools changing what the model is offered, messages an
 * extension sends, and flags an extension registers.
 */
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, promptSettled, startExtensionAgent, stderrContains, toolNames, toolResults, useExtensionAgents, userTexts, wireText } from "./helpers/extension-agent.js";
import type { RpcClient } from "./helpers/rpc-client.js";

const fixture = (name: string) => resolve(import.meta.dirname, "fixtures/extensions", `${name}.ts`);
const QUEUE_ERROR = 'Extension command "/state" cannot be queued. Use prompt() or execute the command when not streaming.';
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

async function start(names: string[], args: string[] = []): Promise<RpcClient> {
  const client = await startExtensionAgent(fake, { extensions: names.map(fixture), args });
  clients.push(client);
  return client;
}

const slowText = { text: Array.from({ length: 40 }, (_, i) => `word${i}`).join(" "), chunkDelayMs: 25 };

describe("extensions and the agent", () => {
  it("an extension command runs at once while the agent streams; steer and follow_up refuse it", async () => {
    const c = await start(["ui-probe"]);
    fake.script(slowText);
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "tell me a story" });
    await c.waitForEvent("message_update", 10_000, from);
    await c.ok({ type: "prompt", message: "/state" });
    await notified(c, "idle=false", from);
    expect(await c.request({ type: "steer", message: "/state" })).toMatchObject({ success: false, error: QUEUE_ERROR });
    expect(await c.request({ type: "follow_up", message: "/state now" })).toMatchObject({ success: false, error: QUEUE_ERROR });
    const end = await c.waitForEvent("agent_end", 15_000, from);
    expect(c.records.indexOf(end)).toBeGreaterThan(c.records.findIndex((r) => r.type === "extension_ui_request" && r.message === "idle=false"));
    expect(fake.requests).toHaveLength(1);
  });

  it("veto and rewrite hooks: the model sees the blocked call's reason, the rewritten command's output, the patched result, the system prompt rule, the newest note and the request hooks' changes", async () => {
    const c = await start(["hooks-probe"]);
    writeFileSync(join(c.cwd, "a.txt"), "original text");
    fake.script(
      {
        toolCalls: [
          { name: "bash", args: { command: "echo forbidden" } },
          { name: "bash", args: { command: "say-hi" } },
          { name: "read", args: { path: "a.txt" } },
        ],
      },
      { text: "done" },
    );
    const from = await promptSettled(c, "first");
    expect(toolResults(c, from).map((r) => [r.isError, r.text])).toEqual([
      [true, "forbidden commands are not allowed"],
      [false, "rewritten by extension\n"],
      [false, "[patched by extension]"],
    ]);
    const second = fake.requests[1]!.body.messages as { role: string; content: unknown }[];
    expect(second.filter((m) => m.role === "tool").map((m) => wireText(m as never))).toEqual([
      "forbidden commands are not allowed",
      "rewritten by extension\n",
      "[patched by extension]",
    ]);
    expect(wireText(second[0] as never)).toMatch(/\nExtension rule: answer briefly\.$/);
    expect(userTexts(fake.requests[0]!)).toEqual(["first", "note for: first"]);
    await promptSettled(c, "second");
    expect(userTexts(fake.requests[2]!)).toEqual(["first", "second", "note for: second"]);
    expect(fake.requests.map((r) => [r.headers["x-extension"], r.body.user])).toEqual(Array(3).fill(["hooks-probe", "hooks-probe"]));
    await c.ok({ type: "prompt", message: "/responses" });
    await notified(c, "responses=3");
  });

  it("a tool_call handler that never finishes does not block abort; the agent stays usable", async () => {
    const c = await start(["slow"]);
    fake.script({ toolCalls: [{ name: "bash", args: { command: "echo hi" } }] }, { text: "after abort" });
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "run it" });
    await c.waitForEvent("tool_execution_start", 10_000, from);
    const abort = await c.request({ type: "abort" });
    expect(abort.success).toBe(true);
    const end = c.records.findIndex((r, i) => i >= from && r.type === "agent_end");
    expect(end).toBeGreaterThan(-1);
    expect(end).toBeLessThan(c.records.indexOf(abort));
    expect(toolResults(c, from)).toEqual([{ tool: "bash", isError: true, text: "Tool call blocked: the call was aborted" }]);
    await promptSettled(c, "still there?");
    expect(userTexts(fake.requests.at(-1)!).at(-1)).toBe("still there?");
  });

  it("a command handler that never finishes holds the lane until abort releases it", async () => {
    const c = await start(["slow"]);
    c.send({ type: "prompt", id: "hang", message: "/hang" });
    c.send({ type: "get_state", id: "queued" });
    const abort = await c.request({ type: "abort" });
    expect(abort.success).toBe(true);
    await c.waitFor((r) => r.type === "response" && r.id === "queued");
    const ids = c.records.filter((r) => r.type === "response").map((r) => r.id);
    expect(ids.indexOf("hang")).toBeLessThan(ids.indexOf("queued"));
    expect(c.records.find((r) => r.id === "hang")).toMatchObject({ success: true });
  });

  it("setActiveTools changes what the model is offered (unknown names left out with a warning)", async () => {
    const c = await start(["actions"]);
    await promptSettled(c, "before");
    expect(toolNames(fake.requests[0]!)).toEqual(["read", "edit", "write", "bash"]);
    await c.ok({ type: "prompt", message: "/readonly" });
    await promptSettled(c, "after");
    // An extension may switch on a tool registered inactive (ls).
    expect(toolNames(fake.requests[1]!)).toEqual(["read", "ls"]);
    await stderrContains(c, "setActiveTools: no tool named no-such-tool (left out)");
  });

  it("sendMessage with triggerTurn starts a run; steer is delivered mid-run; sendUserMessage prompts", async () => {
    const c = await start(["actions"]);
    let from = c.records.length;
    await c.ok({ type: "prompt", message: "/trigger now" });
    await c.waitForEvent("agent_end", 10_000, from);
    expect(userTexts(fake.requests[0]!)).toEqual(["triggered: now"]);

    fake.script({ ...slowText, text: "one two three four five six" }, { text: "second turn" });
    from = c.records.length;
    await c.ok({ type: "prompt", message: "go" });
    await c.waitForEvent("message_update", 10_000, from);
    await c.ok({ type: "prompt", message: "/steer left" });
    await c.waitForEvent("agent_end", 10_000, from);
    expect(userTexts(fake.requests[2]!).slice(-2)).toEqual(["go", "steered: left"]);

    from = c.records.length;
    await c.ok({ type: "prompt", message: "/ask the question" });
    await c.waitForEvent("agent_end", 10_000, from);
    expect(userTexts(fake.requests.at(-1)!).at(-1)).toBe("asked: the question");
  });

  it("flags an extension registers are accepted and readable; an unknown flag still fails", async () => {
    const c = await start(["actions"], ["--plan", "--persona", "pirate"]);
    await c.ok({ type: "prompt", message: "/flag" });
    await notified(c, "plan=true persona=pirate");
    const plain = await start(["actions"]);
    await plain.ok({ type: "prompt", message: "/flag" });
    await notified(plain, "plan=false persona=plain");
    const bad = await start(["actions"], ["--nope"]);
    expect((await bad.exited).code).toBe(2);
    expect(bad.stderr).toContain("Unknown option: --nope");
  });
});
