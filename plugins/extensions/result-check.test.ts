/** What a handler returned that its event ignores: named with the field meant, once per extension, event and key. */
import { afterEach, describe, expect, it } from "vitest";
import type { OutEvent } from "../../kernel/index.js";
import { bootExtensions, type Harness } from "./harness.test-support.js";
import { resultProblems } from "./result-check.js";

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});
const messages = (event: string, answer: object, payload: object = {}) => resultProblems(event, payload, answer).map((problem) => problem.message);
const errors = (h: Harness) => h.events.filter((e) => e.type === "extension_error") as OutEvent<"extension_error">[];
/** The tool results the last LLM call was sent. */
const toolTexts = (h: Harness) =>
  h.seen.at(-1)!.messages.flatMap((m) => (m.role === "toolResult" ? [m.content.map((part) => (part.type === "text" ? part.text : "")).join("")] : []));

describe("a handler's result checked against its event's fields", () => {
  it("names the field a returned key is a slip of, and the fields when none is close", () => {
    expect(messages("tool_call", { blocked: true, reason: "no bash" })).toEqual([
      'tool_call handler returned "blocked"; did you mean "block"? It is ignored (tool_call results have block, reason, terminate)',
    ]);
    expect(messages("tool_call", { cancel: true })).toEqual(['tool_call handler returned "cancel", which is ignored (tool_call results have block, reason, terminate)']);
    expect(messages("before_agent_start", { systemprompt: "x" })).toEqual([
      'before_agent_start handler returned "systemprompt"; did you mean "systemPrompt"? It is ignored (before_agent_start results have message, systemPrompt)',
    ]);
    expect(messages("session_before_switch", { canceled: true })[0]).toMatch(/^session_before_switch handler returned "canceled"; did you mean "cancel"\?/);
    expect(messages("tool_result", { contents: [] })[0]).toMatch(/did you mean "content"\?/);
  });

  it("input: an unknown action names the actions; transform needs a string text", () => {
    expect(messages("input", { action: "transfrom", text: "x" })).toEqual([
      'input handler returned action "transfrom"; did you mean "transform"? The result is ignored (the actions are "continue", "transform", "handled")',
    ]);
    expect(messages("input", { action: "skip" })).toEqual([
      'input handler returned action "skip", which is no action; the result is ignored (the actions are "continue", "transform", "handled")',
    ]);
    expect(messages("input", { text: "x" })).toEqual(['input handler returned no "action"; the result is ignored (the actions are "continue", "transform", "handled")']);
    expect(messages("input", { action: "transform", txt: "x" })).toEqual([
      'input handler returned "txt"; did you mean "text"? It is ignored (input results have action, text, images)',
      'input handler returned action "transform" without a string "text" (got undefined); the input is left as it was',
    ]);
  });

  it("leaves valid results, pi's own fields and fields carried over from the event alone", () => {
    expect(messages("tool_call", { block: true, reason: "r", terminate: true })).toEqual([]);
    expect(messages("tool_result", { content: [], structuredContent: {}, usage: {}, isError: false, details: 1 })).toEqual([]);
    expect(messages("input", { action: "transform", text: "t", images: [] })).toEqual([]);
    expect(messages("input", { action: "handled" })).toEqual([]);
    expect(messages("input", {})).toEqual([]);
    const event = { type: "tool_result", toolCallId: "c1", toolName: "read", input: {} };
    expect(messages("tool_result", { ...event, content: [] }, event)).toEqual([]);
    // A key of the event with a new value is not carried over: it is ignored, so it is said.
    expect(messages("tool_call", { input: { command: "ls" } }, { input: {} })).toHaveLength(1);
    expect(messages("agent_start", { anything: 1 })).toEqual([]);
  });

  it("a permission gate's misspelt block is reported once, naming the extension (the call still runs: the answer is read as before)", async () => {
    const answers = [{ tool: "bash", args: { command: "echo RAN" } }, { tool: "bash", args: { command: "echo AGAIN" } }, "done"];
    const h = await bootExtensions([(pi) => pi.on("tool_call", () => ({ blocked: true, reason: "no bash" }) as never)], { answers });
    harnesses.push(h);
    await h.run("go");
    expect(toolTexts(h)).toEqual(["RAN\n", "AGAIN\n"]);
    const message = 'tool_call handler returned "blocked"; did you mean "block"? It is ignored (tool_call results have block, reason, terminate)';
    expect(errors(h)).toEqual([{ type: "extension_error", extensionPath: h.paths[0], event: "tool_call", error: message }]);
    expect(h.warnings).toContain(`[${h.paths[0]}] tool_call failed: ${message}`);
  });
});
