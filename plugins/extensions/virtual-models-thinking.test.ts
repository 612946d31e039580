/**
 * The thinking level a virtual model's router reads back (pi 1.6): answers of the agent loop
 * record the level they were requested at, clamped to the model that answered, and the router
 * gets it as `previous.thinkingLevel` and, on a retry, `failed.thinkingLevel`.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { AgentMessage, Model, ThinkingLevel } from "../../lib/llm/index.js";
import { bootExtensions, MODEL, type Harness } from "./harness.test-support.js";
import type { ExtensionAPI } from "./types/api.js";

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** A reasoning model of the scripted provider that accepts three levels. */
const THINKER: Model = { ...MODEL, id: "t1", name: "Thinker", reasoning: true, thinkingLevels: ["off", "low", "high"] };

interface Routed {
  reason: string;
  previous?: string;
  failed?: string;
}
const named = (seen: { model: Model; thinkingLevel?: ThinkingLevel } | undefined) => seen && `${seen.model.provider}/${seen.model.id}@${seen.thinkingLevel ?? "none"}`;

/** A router to scripted/t1 at the levels given, one per call (the last repeats); records what each request brought. */
function leveledRouter(levels: ThinkingLevel[]) {
  const routed: Routed[] = [];
  const extension = (pi: ExtensionAPI) => {
    pi.registerVirtualModel({
      provider: "router",
      id: "auto",
      name: "Auto",
      thinkingLevels: ["off", "low", "high"],
      route(request, ctx) {
        const previous = named(request.previous);
        const failed = named(request.failed);
        routed.push({ reason: request.reason, ...(previous ? { previous } : {}), ...(failed ? { failed } : {}) });
        const level = levels[Math.min(routed.length - 1, levels.length - 1)]!;
        return { model: ctx.modelRegistry.find("scripted", "t1")!, thinkingLevel: level };
      },
    });
    pi.registerTool({
      name: "noop",
      label: "No-op",
      description: "Does nothing",
      parameters: { type: "object", properties: {} },
      execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
    });
  };
  return { routed, extension };
}

async function assistantLevels(h: Harness): Promise<(string | undefined)[]> {
  const { data } = await h.send({ type: "get_messages" });
  return (data.messages as AgentMessage[]).flatMap((m) => (m.role === "assistant" ? [m.thinkingLevel] : []));
}

describe("virtual models: the thinking level of previous and failed", () => {
  it("each answer records the level it was routed at, clamped to the model; the next call's previous carries it", async () => {
    // xhigh is not one of t1's levels: it runs (and is recorded) as high.
    const { routed, extension } = leveledRouter(["xhigh", "low", "off"]);
    const h = await bootExtensions([extension], { answers: [{ tool: "noop", args: {} }, "done", "again"], models: [THINKER] });
    harnesses.push(h);
    expect((await h.send({ type: "set_model", provider: "router", modelId: "auto" })).success).toBe(true);
    await h.run("hello");
    await h.run("once more");
    expect(routed).toEqual([{ reason: "user" }, { reason: "continuation", previous: "scripted/t1@high" }, { reason: "user", previous: "scripted/t1@low" }]);
    expect(await assistantLevels(h)).toEqual(["high", "low", "off"]);
  });

  it("the retry of a failed call names the level the failed call was routed at", async () => {
    const { routed, extension } = leveledRouter(["low", "high"]);
    const h = await bootExtensions([extension], { answers: [{ error: "429 Too Many Requests" }, "recovered"], models: [THINKER], settings: { retry: { baseDelayMs: 1 } } });
    harnesses.push(h);
    expect((await h.send({ type: "set_model", provider: "router", modelId: "auto" })).success).toBe(true);
    await h.run("hello");
    expect(h.events.filter((e) => e.type === "auto_retry_end")).toMatchObject([{ success: true, attempt: 1 }]);
    expect(routed).toEqual([{ reason: "user" }, { reason: "retry", failed: "scripted/t1@low" }]);
    // The failed answer left the conversation, as in pi; the retry's stays.
    expect(await assistantLevels(h)).toEqual(["high"]);
  });

  it("a physical model's answer records the session's level; a one-off completion (direct) records none", async () => {
    const asides: (ThinkingLevel | undefined)[] = [];
    const { routed, extension } = leveledRouter(["low"]);
    const aside = (pi: ExtensionAPI) => {
      pi.registerTool({
        name: "aside",
        label: "Aside",
        description: "Asks the session model aside",
        parameters: { type: "object", properties: {} },
        async execute(_id, _params, _signal, _update, ctx) {
          const answer = await ctx.modelRegistry.complete(ctx.model!, { messages: [{ role: "user", content: "aside", timestamp: Date.now() }] });
          asides.push((answer as { thinkingLevel?: ThinkingLevel }).thinkingLevel);
          return { content: [{ type: "text", text: "ok" }], details: {} };
        },
      });
    };
    const h = await bootExtensions([extension, aside], {
      answers: [{ tool: "aside", args: {} }, "physical aside", "done", { tool: "aside", args: {} }, "routed aside", "done"],
      models: [THINKER],
    });
    harnesses.push(h);
    expect((await h.send({ type: "set_model", provider: "scripted", modelId: "t1" })).success).toBe(true);
    expect((await h.send({ type: "set_thinking_level", level: "high" })).success).toBe(true);
    await h.run("on t1");
    expect((await h.send({ type: "set_model", provider: "router", modelId: "auto" })).success).toBe(true);
    await h.run("on the router");
    expect(asides).toEqual([undefined, undefined]);
    expect(routed.map((r) => r.reason)).toEqual(["user", "direct", "continuation"]);
    expect(await assistantLevels(h)).toEqual(["high", "high", "low", "low"]);
  });
});
