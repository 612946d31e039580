/** The reason a virtual model's router is given, in-process through the real loader. */
import { afterEach, describe, expect, it } from "vitest";
import { bootExtensions, MODEL, type Harness } from "./harness.test-support.js";

const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

describe("virtual models: the route reason", () => {
  it("a one-off completion during a run (a tool's ctx.modelRegistry.complete) is direct: no state in, none stored", async () => {
    const routed: { reason: string; state: unknown }[] = [];
    const h = await bootExtensions(
      [
        (pi) => {
          pi.registerVirtualModel<{ calls: number }>({
            provider: "router",
            id: "auto",
            name: "Auto",
            route(request, ctx) {
              routed.push({ reason: request.reason, state: request.state });
              const model = ctx.modelRegistry.find(MODEL.provider, MODEL.id)!;
              return { model, thinkingLevel: "off", state: { calls: (request.state?.calls ?? 0) + 1 } };
            },
          });
          pi.registerTool({
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
        },
      ],
      { answers: [{ tool: "ask", args: {} }, "the aside's answer", "done"], cli: { noSession: false } },
    );
    harnesses.push(h);
    expect((await h.send({ type: "set_model", provider: "router", modelId: "auto" })).success).toBe(true);
    await h.run("use ask");
    // The aside ran inside the run and its context ends with a user message: still direct.
    expect(routed).toEqual([
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
});
