/** The reason a virtual model's router is given, in-process through the real loader. */
import { afterEach, describe, expect, it } from "vitest";
import { bootExtensions, MODEL, type Harness } from "./harness.test-support.js";
import type { ExtensionAPI } from "./types/api.js";

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

interface Routed {
  reason: string;
  state: unknown;
  failed?: { model: string; stopReason: string; errorMessage?: string | undefined };
  last: string | undefined;
}

type ToolDefinition = Parameters<ExtensionAPI["registerTool"]>[0];
const NOOP_TOOL: ToolDefinition = {
  name: "noop",
  label: "No-op",
  description: "Does nothing",
  parameters: { type: "object", properties: {} },
  execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
};

/** A router to scripted/m1 that records what each request brought and counts its calls in its state, and `tool`. */
function recordingRouter(tool: ToolDefinition = NOOP_TOOL) {
  const routed: Routed[] = [];
  const extension = (pi: ExtensionAPI) => {
    pi.registerVirtualModel<{ calls: number }>({
      provider: "router",
      id: "auto",
      name: "Auto",
      route(request, ctx) {
        const failed = request.failed;
        routed.push({
          reason: request.reason,
          state: request.state,
          ...(failed ? { failed: { model: `${failed.model.provider}/${failed.model.id}`, stopReason: failed.message.stopReason, errorMessage: failed.message.errorMessage } } : {}),
          last: (request.messages.at(-1) as { role: string } | undefined)?.role,
        });
        const model = ctx.modelRegistry.find(MODEL.provider, MODEL.id)!;
        return { model, thinkingLevel: "off", state: { calls: (request.state?.calls ?? 0) + 1 } };
      },
    });
    pi.registerTool(tool);
  };
  return { routed, extension };
}

describe("virtual models: the route reason", () => {
  it("a one-off completion during a run (a tool's ctx.modelRegistry.complete) is direct: no state in, none stored", async () => {
    const { routed, extension } = recordingRouter({
      name: "ask",
      label: "Ask",
      description: "Asks the session model aside",
      parameters: { type: "object", properties: {} },
      async execute(_id, _params, _signal, _update, ctx) {
        const aside = await ctx.modelRegistry.complete(ctx.model!, { messages: [{ role: "user", content: "aside", timestamp: Date.now() }] });
        const text = aside.content.map((part) => (part.type === "text" ? part.text : "")).join("");
        return { content: [{ type: "text", text }], details: {} };
      },
    });
    const h = await bootExtensions([extension], { answers: [{ tool: "ask", args: {} }, "the aside's answer", "done"], cli: { noSession: false } });
    harnesses.push(h);
    expect((await h.send({ type: "set_model", provider: "router", modelId: "auto" })).success).toBe(true);
    await h.run("use ask");
    // The aside ran inside the run and its context ends with a user message: still direct.
    expect(routed.map(({ reason, state }) => ({ reason, state }))).toEqual([
      { reason: "user", state: undefined },
      { reason: "direct", state: undefined },
      { reason: "continuation", state: { calls: 1 } },
    ]);
    const session = h.host.kernel.services.get("session");
    const states = session
      .branch()
      .filter((entry) => entry.type === "custom" && entry.customType === "pi.virtual-model-state")
      .map((entry) => (entry as { data: { state: unknown } }).data.state);
    expect(states).toEqual([{ calls: 1 }, { calls: 2 }]);
  });

  it("the automatic retry of a failed call (a 429) is retry, naming the failed call, with the branch's state; the calls after it are continuations", async () => {
    const { routed, extension } = recordingRouter();
    const h = await bootExtensions([extension], {
      answers: [{ error: "429 Too Many Requests" }, { tool: "noop", args: {} }, "done"],
      cli: { noSession: false },
      settings: { retry: { baseDelayMs: 1 } },
    });
    harnesses.push(h);
    expect((await h.send({ type: "set_model", provider: "router", modelId: "auto" })).success).toBe(true);
    await h.run("hello");
    expect(h.events.filter((e) => e.type === "auto_retry_end")).toMatchObject([{ success: true, attempt: 1 }]);
    // The failed answer is gone from the retried context: it ends with the user's message again.
    expect(routed).toEqual([
      { reason: "user", state: undefined, last: "user" },
      { reason: "retry", state: { calls: 1 }, failed: { model: "scripted/m1", stopReason: "error", errorMessage: "429 Too Many Requests" }, last: "user" },
      { reason: "continuation", state: { calls: 2 }, last: "toolResult" },
    ]);
  });

  it("the retry after compacting an overflowed context is retry, naming the overflow; the planner's call is direct", async () => {
    const overflow = "400 prompt is too long: 250000 tokens > 100000 maximum";
    const { routed, extension } = recordingRouter();
    // The planner's refusal makes compaction drop the whole region (rung fresh), then the prompt is retried.
    const h = await bootExtensions([extension], {
      answers: ["first answer", "second answer", { error: overflow }, { error: "401 invalid x-api-key" }, "recovered"],
      cli: { noSession: false },
    });
    harnesses.push(h);
    expect((await h.send({ type: "set_model", provider: "router", modelId: "auto" })).success).toBe(true);
    await h.run("first");
    await h.run("second");
    await h.run("third");
    expect(h.events.filter((e) => e.type === "compaction_end")).toMatchObject([{ reason: "overflow", willRetry: true }]);
    expect(routed.slice(2).map(({ reason, failed }) => ({ reason, failed }))).toEqual([
      { reason: "user", failed: undefined },
      { reason: "direct", failed: undefined },
      { reason: "retry", failed: { model: "scripted/m1", stopReason: "error", errorMessage: overflow } },
    ]);
  });

  it("a retry after the router itself failed is retry without failed (no physical call to name)", async () => {
    const routed: { reason: string; failed: boolean }[] = [];
    const h = await bootExtensions(
      [
        (pi) => {
          pi.registerVirtualModel({
            provider: "router",
            id: "auto",
            name: "Auto",
            route(request, ctx) {
              routed.push({ reason: request.reason, failed: request.failed !== undefined });
              if (routed.length === 1) throw new Error("503 Service Unavailable (the classifier)");
              return { model: ctx.modelRegistry.find(MODEL.provider, MODEL.id)!, thinkingLevel: "off" };
            },
          });
        },
      ],
      { answers: ["recovered"], settings: { retry: { baseDelayMs: 1 } } },
    );
    harnesses.push(h);
    expect((await h.send({ type: "set_model", provider: "router", modelId: "auto" })).success).toBe(true);
    await h.run("hello");
    expect(h.events.filter((e) => e.type === "auto_retry_start")).toMatchObject([{ attempt: 1, errorMessage: "503 Service Unavailable (the classifier)" }]);
    expect(routed).toEqual([
      { reason: "user", failed: false },
      { reason: "retry", failed: false },
    ]);
  });
});
