/**
 * The extension API surface over the built CLI: which lifecycle events an extension sees and in
 * what order, tools with zod and TypeBox parameters (offered, validated, answered), get_commands'
 * extension entries, what `ctx` shows, registered flags, and ctx.shutdown().
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { notified, promptSettled, startExtensionAgent, toolResults, useExtensionAgents } from "./helpers/extension-agent.js";
import type { RpcClient } from "./helpers/rpc-client.js";

const PROBE = resolve(import.meta.dirname, "fixtures/extensions/lifecycle-probe.ts");
const MODEL_CHOICE_LOG = resolve(import.meta.dirname, "fixtures/extensions/model-choice-log.ts");
const clients: RpcClient[] = [];
const fake = useExtensionAgents(clients);

async function start(args: string[] = [], extensions = [PROBE]): Promise<RpcClient> {
  const client = await startExtensionAgent(fake, { extensions, args });
  clients.push(client);
  return client;
}

/** Runs /name and returns the JSON its notify carried. */
async function report(c: RpcClient, name: string): Promise<any> {
  const from = c.records.length;
  await c.ok({ type: "prompt", message: `/${name}` });
  return JSON.parse(String((await notified(c, /^[[{]/, from)).message));
}

describe("the extension API over RPC", () => {
  it("get_commands lists extension commands with source and path; zod and TypeBox tools are offered, validated and answered", async () => {
    const c = await start();
    const { commands } = await c.ok({ type: "get_commands" });
    expect(commands).toEqual(
      expect.arrayContaining([
        {
          name: "seen",
          description: "Report the events seen so far",
          source: "extension",
          path: PROBE,
          sourceInfo: { path: PROBE, source: "cli", scope: "temporary", origin: "top-level" },
        },
        { name: "ctx", source: "extension", path: PROBE, sourceInfo: { path: PROBE, source: "cli", scope: "temporary", origin: "top-level" } },
      ]),
    );
    fake.script(
      {
        toolCalls: [
          { name: "zod_add", args: { a: "one", b: 2 } },
          { name: "zod_add", args: { a: 1, b: 2 } },
          { name: "tb_echo", args: { text: "ab", times: 2 } },
          { name: "tb_echo", args: {} },
        ],
      },
      { text: "done" },
    );
    const from = await promptSettled(c, "use the tools");
    const offered = (fake.requests[0]!.body.tools as { function: { name: string; parameters: Record<string, unknown> } }[]).map((tool) => tool.function);
    expect(offered.find((tool) => tool.name === "zod_add")!.parameters).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect(offered.find((tool) => tool.name === "tb_echo")!.parameters).toMatchObject({
      type: "object",
      properties: { text: { type: "string", description: "What to echo" }, times: { type: "integer" } },
      required: ["text"],
    });
    expect(toolResults(c, from)).toEqual([
      { tool: "zod_add", isError: true, text: 'Validation failed for tool "zod_add": Invalid a: expected number' },
      { tool: "zod_add", isError: false, text: "3" },
      { tool: "tb_echo", isError: false, text: "abab" },
      { tool: "tb_echo", isError: true, text: 'Validation failed for tool "tb_echo": Invalid text: expected a value' },
    ]);
  });

  it("handlers see the lifecycle in order: startup, a prompt with a tool call, model and thinking changes, naming, a new session", async () => {
    const c = await start();
    // An extension command is not input (as in pi): /seen itself does not show.
    expect(await report(c, "seen")).toEqual(["session_start:startup", "model_select:startup"]);
    fake.script({ toolCalls: [{ name: "zod_add", args: { a: 1, b: 1 } }] }, { text: "two" });
    await promptSettled(c, "add");
    const run = [
      "input",
      "before_agent_start",
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "context",
      "message_start:assistant",
      "message_end:assistant",
      "tool_execution_start",
      "tool_call",
      "tool_result",
      "tool_execution_end",
      "message_start:toolResult",
      "message_end:toolResult",
      "turn_end",
      "turn_start",
      "context",
      "message_start:assistant",
      "message_end:assistant",
      "turn_end",
      "agent_end",
    ];
    expect(await report(c, "seen")).toEqual(run);
    await c.ok({ type: "set_model", provider: "fake-anthropic", modelId: "fake-1" });
    await c.ok({ type: "set_thinking_level", level: "high" });
    await c.ok({ type: "set_session_name", name: "probe" });
    await c.ok({ type: "new_session" });
    expect(await report(c, "seen")).toEqual([
      "model_select:set",
      "thinking_level_select",
      "session_info_changed",
      "session_before_switch:new",
      "session_shutdown:new",
      "session_start:new",
    ]);
  });

  it("a model_select handler may write to the session: the startup choice is given right after session_start", async () => {
    const c = await start([], [MODEL_CHOICE_LOG]);
    await c.ok({ type: "set_model", provider: "fake-anthropic", modelId: "fake-1" });
    const shown = await report(c, "choices");
    expect(shown.order).toEqual(["session_start:startup", "model_select:startup", "model_select:set"]);
    expect(shown.stored).toEqual([
      { model: "fake-openai/fake-1", source: "startup", entries: 0 },
      { model: "fake-anthropic/fake-1", source: "set", entries: expect.any(Number) },
    ]);
    expect(c.records.filter((record) => record.type === "extension_error")).toEqual([]);
  });

  it("ctx shows the UI, cwd, model, idle state, session and models; a registered flag is read from the command line; ctx.shutdown() ends the process with 0", async () => {
    const c = await start(["--probe-level", "7"]);
    const shown = await report(c, "ctx");
    expect(shown.models).toBeGreaterThanOrEqual(4);
    expect({ ...shown, models: undefined }).toEqual({
      hasUI: true,
      cwd: c.cwd,
      model: "fake-openai/fake-1",
      idle: true,
      sessionFile: null,
      entries: 0,
      models: undefined,
      flag: "7",
      // pi's four and the extension's tools; grep, find and ls only when named.
      tools: ["read", "edit", "write", "bash", "zod_add", "tb_echo"],
    });
    await c.ok({ type: "prompt", message: "/bye" });
    expect(await c.exited).toEqual({ code: 0, signal: null });
  });
});
