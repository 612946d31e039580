import { describe, expect, it } from "vitest";
import { announce, definePlugin, ErrorCode, Kernel, silentLogger, type KernelConfig, type OutEvent } from "./index.js";
import { sampleHooks, sampleOwner } from "./sample-hooks.test-support.js";

const config = (): KernelConfig => ({ agentDir: "/tmp/none", cwd: "/tmp", settings: {}, cli: { positionals: [] }, env: {}, trusted: false });
const kernel = () => new Kernel({ config: config(), log: silentLogger });
async function withSampleHooks(): Promise<Kernel> {
  const k = kernel();
  await k.use([sampleOwner()]);
  return k;
}

describe("who may call a hook", () => {
  it("plugins get a tap-only view: tapping works, calling does not exist", async () => {
    const k = await withSampleHooks();
    const view = k.context("p").hooks;
    const seen: string[] = [];
    view.sample_step.tap("p", () => void seen.push("tapped"));
    expect(view.sample_step.isUsed()).toBe(true);
    expect("promise" in view.sample_step).toBe(false);
    expect("call" in view.sample_render.for("x")).toBe(false);
    // @ts-expect-error a tap-only hook has no caller side
    expect(() => view.sample_gate.promise({ item: "x" })).toThrow();
    await k.hook("sample_step").promise({ index: 0 });
    expect(seen).toEqual(["tapped"]);
  });

  it("an untapped hook is not used, though the policy interceptor is installed on it", async () => {
    const k = await withSampleHooks();
    expect(k.hook("sample_step").isUsed()).toBe(false);
    expect(k.context("p").hooks.sample_step.isUsed()).toBe(false);
    k.hook("sample_step").tap("p", () => undefined);
    expect(k.hook("sample_step").isUsed()).toBe(true);
  });

  it("an untapped hook answers as tapable would (a waterfall passes its value through) until tapped or intercepted", async () => {
    const k = await withSampleHooks();
    const shape = { text: "as is" };
    expect(await k.hook("sample_shape").promise(shape)).toBe(shape);
    expect(await k.hook("sample_gate").promise({ item: "x" })).toBeUndefined();
    expect(k.hook("sample_render").for("plain").call("v")).toBeUndefined();
    const viaCallback = await new Promise((resolve) => k.hook("sample_shape").callAsync(shape, (_error, result) => resolve(result)));
    expect(viaCallback).toBe(shape);
    expect((k.hook("sample_step") as unknown as { call?: unknown }).call).toBeUndefined();

    k.context("p").hooks.sample_shape.tap("upper", (event) => ({ text: event.text.toUpperCase() }));
    expect(await k.hook("sample_shape").promise(shape)).toEqual({ text: "AS IS" });
    k.context("p")
      .hooks.sample_render.for("plain")
      .tap("r", (value) => `<${value}>`);
    expect(k.hook("sample_render").for("plain").call("v")).toBe("<v>");

    const calls: unknown[] = [];
    k.context("p").hooks.sample_step.intercept({ call: (event) => void calls.push(event) });
    await k.hook("sample_step").promise({ index: 3 });
    expect(calls).toEqual([{ index: 3 }]);
  });

  it("a hook has one owner: declaring it twice fails naming both plugins; only the owner gets it callable", async () => {
    const k = kernel();
    let owned: { sample_step: { promise: unknown } } | undefined;
    await k.use([sampleOwner((c) => void (owned = c.ownHooks(sampleHooks)))]);
    expect(typeof owned?.sample_step.promise).toBe("function");
    await expect(k.use([definePlugin({ name: "other", hooks: sampleHooks, apply() {} })])).rejects.toMatchObject({
      code: ErrorCode.DUPLICATE,
      message: 'Hook "sample_gate" is declared by plugin "sample"; plugin "other" cannot declare it too',
    });
    expect(() => k.context("x").ownHooks(sampleHooks)).toThrow('Plugin "x" asks for hooks it does not declare');
    await expect(k.use([definePlugin({ name: "y", hooks: () => ({ closing: sampleHooks().sample_step }), apply() {} })])).rejects.toThrow('declared by plugin "kernel"');
  });

  it("a guard without a veto is refused when declared", async () => {
    const k = kernel();
    const { sample_gate } = sampleHooks();
    await expect(k.use([definePlugin({ name: "z", hooks: () => ({ broken: { ...sample_gate, veto: undefined } }), apply() {} })])).rejects.toThrow(
      'Guard hook "broken" of plugin "z" needs a veto',
    );
  });

  it("lists every declared hook with its owner, policy and purpose", async () => {
    const k = await withSampleHooks();
    expect(k.hookRegistry.list().find((hook) => hook.name === "sample_gate")).toEqual({
      name: "sample_gate",
      owner: "sample",
      policy: "guard",
      description: "Before an item is used: a tap may refuse it.",
    });
    expect(
      k.hookRegistry
        .list()
        .slice(0, 3)
        .map((hook) => hook.owner),
    ).toEqual(["kernel", "kernel", "kernel"]);
  });

  it("the event map is closed: emitting an unknown event does not compile", () => {
    const k = kernel();
    const events: OutEvent[] = [];
    k.events.subscribe((e) => events.push(e));
    // @ts-expect-error "sample_addd" is not an event
    k.events.emit("sample_addd", {});
    // @ts-expect-error a known event with a wrong payload
    k.events.emit("sample_added", { item: 1 });
    expect(events).toHaveLength(2);
  });

  it("an event emitted by a listener goes out after the event it reacts to, to every listener", () => {
    const k = kernel();
    const first: string[] = [];
    const second: string[] = [];
    k.events.subscribe((e) => {
      first.push(e.type);
      if (e.type === "sample_added") k.events.emit("sample_step", { index: 1 });
    });
    k.events.subscribe((e) => void second.push(e.type));
    k.events.emit("sample_added", { item: "a" });
    expect(first).toEqual(["sample_added", "sample_step"]);
    expect(second).toEqual(["sample_added", "sample_step"]);
  });

  it("announce writes the event first, then runs the hook of the same name", async () => {
    const k = await withSampleHooks();
    const order: string[] = [];
    k.events.subscribe((e) => void order.push(`event ${JSON.stringify(e)}`));
    k.hook("sample_step").tap("p", (e) => void order.push(`tap ${e.index}`));
    await announce({ events: k.events, hooks: { sample_step: k.hook("sample_step") } }, "sample_step", { index: 3 });
    expect(order).toEqual(['event {"type":"sample_step","index":3}', "tap 3"]);
  });
});

describe("plugin definitions", () => {
  it("plugin definitions are checked for a name and an apply function", () => {
    expect(() => definePlugin({ name: "", apply() {} })).toThrow("a plugin needs a name");
    expect(() => definePlugin({ name: "x" } as never)).toThrow('plugin "x" needs an apply(kernel) function');
  });
});
