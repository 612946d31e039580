/**
 * pi-agent-core's `Agent` as an extension uses it (pi-subagents' watchdog reviewer and permission
 * arbiter): its own system prompt and tools, requests through the running agent's providers,
 * tool calls run until the model answers, `beforeToolCall` blocks, a batch whose results all say
 * `terminate` ends the run, and pi's events in pi's order.
 */
import { afterEach, expect, it } from "vitest";
import { bootExtensions, type Harness, uiRequests } from "../harness.test-support.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const REVIEWER = `
import { Agent } from "@earendil-works/pi-agent-core";
import { getModel } from "@earendil-works/pi-ai";
import { Type } from "typebox";
export default function (pi) {
  pi.registerCommand("review", {
    handler: async (args, ctx) => {
      const calls = [];
      const decide = {
        name: "decide", label: "Decide", description: "Approve or deny.",
        parameters: Type.Object({ verdict: Type.String() }),
        execute: async (id, params) => {
          calls.push(params.verdict);
          return { content: [{ type: "text", text: "noted " + params.verdict }], details: {}, terminate: args === "terminate" };
        },
      };
      const shell = { name: "shell", label: "Shell", description: "Runs a command.", parameters: Type.Object({}), execute: async () => { throw new Error("never runs"); } };
      const agent = new Agent({
        initialState: { systemPrompt: "You review tool calls.", model: getModel("scripted", "m1"), tools: [decide, shell] },
        beforeToolCall: async ({ toolCall }) => (toolCall.name === "decide" ? undefined : { block: true, reason: "only decide" }),
        toolExecution: "sequential",
      });
      const events = [];
      agent.subscribe((event) => { events.push(event.type); });
      await agent.prompt("Review: rm -rf /tmp/x");
      const results = agent.state.messages.filter((m) => m.role === "toolResult").map((m) => m.content[0].text + (m.isError ? " (error)" : ""));
      ctx.ui.notify(JSON.stringify({ roles: agent.state.messages.map((m) => m.role), calls, results, events, streaming: agent.state.isStreaming, error: agent.state.errorMessage ?? null }));
    },
  });
}
`;

const notified = (h: Harness) => uiRequests(h.events, "notify").map((event) => JSON.parse(String((event as { message?: string }).message)));

it("runs its own loop over the running agent's provider: tools until the model answers, a blocked call answered as an error", async () => {
  harness = await bootExtensions([{ source: REVIEWER, name: "reviewer.ts" }], {
    answers: [{ tool: "shell", args: {} }, { tool: "missing", args: {} }, { tool: "decide", args: { verdict: "deny" } }, "Denied."],
  });
  await harness.run("/review");
  const [report] = notified(harness);
  expect(report).toMatchObject({
    roles: ["user", "assistant", "toolResult", "assistant", "toolResult", "assistant", "toolResult", "assistant"],
    calls: ["deny"],
    streaming: false,
    error: null,
  });
  expect(report.results).toEqual(["only decide (error)", "Tool missing not found (error)", "noted deny"]);
  // The agent's own prompt and tools went to the provider, not the host agent's.
  expect(harness.seen).toHaveLength(4);
  expect(harness.seen[0]!.systemPrompt).toBe("You review tool calls.");
  expect(harness.seen[0]!.tools?.map((tool) => tool.name)).toEqual(["decide", "shell"]);
  expect(harness.seen[3]!.messages.map((message) => message.role)).toEqual(["user", "assistant", "toolResult", "assistant", "toolResult", "assistant", "toolResult"]);
  expect(report.events).toEqual([
    "agent_start",
    ...["turn_start", "message_start", "message_end", "message_start", "message_end"],
    ...["tool_execution_start", "tool_execution_end", "message_start", "message_end", "turn_end"],
    ...["turn_start", "message_start", "message_end", "tool_execution_start", "tool_execution_end", "message_start", "message_end", "turn_end"],
    ...["turn_start", "message_start", "message_end", "tool_execution_start", "tool_execution_end", "message_start", "message_end", "turn_end"],
    ...["turn_start", "message_start", "message_end", "turn_end"],
    "agent_end",
  ]);
});

it("a tool batch whose results all say terminate ends the run without another request", async () => {
  harness = await bootExtensions([{ source: REVIEWER, name: "reviewer.ts" }], { answers: [{ tool: "decide", args: { verdict: "approve" } }, "never asked"] });
  await harness.run("/review terminate");
  const [report] = notified(harness);
  expect(report).toMatchObject({ roles: ["user", "assistant", "toolResult"], calls: ["approve"], results: ["noted approve"] });
  expect(harness.seen).toHaveLength(1);
});
