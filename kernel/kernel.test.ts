import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCommand, definePlugin, ErrorCode, type KernelError, silentLogger, type KernelConfig, type OutEvent, type PluginErrorEvent } from "./index.js";
import { Kernel } from "./kernel.js";
import { sampleOwner } from "./sample-hooks.test-support.js";

function config(): KernelConfig {
  return { agentDir: "/tmp/none", cwd: "/tmp", settings: {}, cli: { positionals: [] }, env: {}, trusted: false };
}

function kernel(): Kernel {
  return new Kernel({ config: config(), log: silentLogger });
}

async function withSampleHooks(): Promise<Kernel> {
  const k = kernel();
  await k.use([sampleOwner()]);
  return k;
}

function captureErrors(k: Kernel): PluginErrorEvent[] {
  const reported: PluginErrorEvent[] = [];
  k.hooks.plugin_error.tap("test", (event) => void reported.push(event));
  return reported;
}

function capture(k: Kernel): OutEvent[] {
  const events: OutEvent[] = [];
  k.events.subscribe((e) => events.push(e));
  return events;
}

describe("hooks", () => {
  it("runs taps by group (pre, then the rest, then post), in registration order within one", async () => {
    const k = await withSampleHooks();
    const seen: string[] = [];
    k.context("test").hooks.sample_step.tap({ name: "late", order: "post" }, () => void seen.push("late"));
    k.hook("sample_step").tap("a", () => void seen.push("a"));
    k.context("test").hooks.sample_step.tap({ name: "first", order: "pre" }, () => void seen.push("first"));
    k.hook("sample_step").tap("b", () => void seen.push("b"));
    await k.hook("sample_step").promise({ index: 0 });
    expect(seen).toEqual(["first", "a", "b", "late"]);
  });

  it("places a tap after a named one, whichever registers first", async () => {
    const k = await withSampleHooks();
    const seen: string[] = [];
    k.context("test").hooks.sample_step.tap({ name: "follower", after: "leader" }, () => void seen.push("follower"));
    k.hook("sample_step").tap("other", () => void seen.push("other"));
    k.hook("sample_step").tap("leader", () => void seen.push("leader"));
    await k.hook("sample_step").promise({ index: 0 });
    expect(seen).toEqual(["leader", "follower", "other"]);
    k.context("test").hooks.sample_step.tap({ name: "tail", order: "post" }, () => undefined);
    expect(() => k.context("test").hooks.sample_step.tap({ name: "z", after: "tail" }, () => undefined)).toThrow(
      'Hook "sample_step": "z" runs after "tail", which is in a later group',
    );
    expect(() => k.context("test").hooks.sample_step.tap({ name: "y", order: "pre", after: "other" }, () => undefined)).toThrow(
      '"y" runs after "other", which is in a later group',
    );
  });

  it("guard hooks fail closed: a throwing tap counts as the declared veto and is reported", async () => {
    const k = await withSampleHooks();
    const reported = captureErrors(k);
    k.hook("sample_gate").tapPromise("gate", async () => {
      throw new Error("boom");
    });
    expect(await k.hook("sample_gate").promise({ item: "x" })).toEqual({ refused: true, reason: "Refused: boom" });
    expect(reported).toEqual([{ source: "gate", hook: "sample_gate", error: "boom" }]);
  });

  it("the first veto wins and later taps do not run", async () => {
    const k = await withSampleHooks();
    let ran = false;
    k.hook("sample_gate").tap("one", () => ({ refused: true, reason: "first" }));
    k.hook("sample_gate").tap("two", () => {
      ran = true;
      return { refused: true, reason: "second" };
    });
    expect(await k.hook("sample_gate").promise({ item: "x" })).toEqual({ refused: true, reason: "first" });
    expect(ran).toBe(false);
  });

  it("transform hooks isolate a failing tap and pass the value through", async () => {
    const k = await withSampleHooks();
    const reported = captureErrors(k);
    k.hook("sample_shape").tap("upper", (e) => ({ ...e, text: e.text.toUpperCase() }));
    k.hook("sample_shape").tapPromise("broken", async () => {
      throw new Error("bad transform");
    });
    k.hook("sample_shape").tap("suffix", (e) => ({ ...e, text: `${e.text}!` }));
    expect((await k.hook("sample_shape").promise({ text: "hi" })).text).toBe("HI!");
    expect(reported).toEqual([{ source: "broken", hook: "sample_shape", error: "bad transform" }]);
  });

  it("notify hooks keep running after a failing tap", async () => {
    const k = await withSampleHooks();
    const seen: string[] = [];
    k.hook("sample_step").tap("bad", () => {
      throw new Error("x");
    });
    k.hook("sample_step").tap("good", () => void seen.push("good"));
    await k.hook("sample_step").promise({ index: 0 });
    expect(seen).toEqual(["good"]);
  });

  it("internal hooks propagate errors to the owner", async () => {
    const k = await withSampleHooks();
    k.hook("sample_done").tap("x", () => {
      throw new Error("internal failure");
    });
    await expect(k.hook("sample_done").promise({ count: 1 })).rejects.toThrow("internal failure");
  });

  it("a hook not declared (its owner not loaded, or applied later) fails naming the fix", async () => {
    const k = kernel();
    const view = k.context("early").hooks;
    expect(() => view.sample_step).toThrow(
      'Hook "sample_step" is not declared: the plugin that owns it is not loaded, or "early" is applied before it (list the owner in dependsOn or after)',
    );
    expect("sample_step" in view).toBe(false);
    await k.use([sampleOwner()]);
    expect("sample_step" in view).toBe(true);
  });
});

describe("plugins and boot", () => {
  it("orders by dependsOn and freezes after boot", async () => {
    const k = kernel();
    const order: string[] = [];
    await k.use([definePlugin({ name: "b", dependsOn: ["a"], apply: () => void order.push("b") }), definePlugin({ name: "a", apply: () => void order.push("a") })]);
    await k.boot();
    expect(order).toEqual(["a", "b"]);
    const error = (() => {
      try {
        k.commands.register(defineCommand({ name: "late", input: z.object({}), run: () => undefined }));
      } catch (e) {
        return e as KernelError;
      }
    })();
    expect(error?.code).toBe(ErrorCode.KERNEL_FROZEN);
    expect(() => k.tools.register({ name: "t", description: "", parameters: z.object({}), execute: async () => ({ content: [] }) })).toThrow(/frozen/);
    // An open layer (extensions) still registers after boot.
    k.openLayer("/ext.ts").registerTool({ name: "t", description: "", parameters: z.object({}), execute: async () => ({ content: [] }) });
    expect(k.tools.ownerOf("t")).toBe("/ext.ts");
  });

  it("a missing dependency is a coded error naming the plugin", async () => {
    const k = kernel();
    const promise = k.use([definePlugin({ name: "needs", dependsOn: ["ghost"], apply() {} })]);
    await expect(promise).rejects.toMatchObject({ code: ErrorCode.PLUGIN_MISSING_DEPENDENCY, plugin: "needs" });
    await expect(promise).rejects.toThrow('Plugin "needs" depends on "ghost", which is not loaded');
  });

  it("a dependency cycle is reported", async () => {
    const k = kernel();
    await expect(k.use([definePlugin({ name: "x", dependsOn: ["y"], apply() {} }), definePlugin({ name: "y", dependsOn: ["x"], apply() {} })])).rejects.toMatchObject({
      code: ErrorCode.PLUGIN_CYCLE,
    });
  });

  it("a failing apply is labelled with its plugin", async () => {
    const k = kernel();
    await expect(
      k.use([
        definePlugin({
          name: "faulty",
          apply() {
            throw new Error("nope");
          },
        }),
      ]),
    ).rejects.toMatchObject({
      plugin: "faulty",
      message: "[plugin faulty] apply failed: nope",
    });
  });

  it("a hung apply fails with a timeout naming the plugin", async () => {
    const k = new Kernel({ config: config(), log: silentLogger, applyTimeoutMs: 30 });
    await expect(k.use([definePlugin({ name: "slow", apply: () => new Promise(() => undefined) })])).rejects.toMatchObject({
      code: ErrorCode.PLUGIN_BOOT_TIMEOUT,
      plugin: "slow",
    });
  });

  it("duplicate command names are refused", async () => {
    const k = kernel();
    const command = defineCommand({ name: "dup", input: z.object({}), run: () => undefined });
    await expect(
      k.use([definePlugin({ name: "p1", apply: (c) => c.registerCommand(command) }), definePlugin({ name: "p2", apply: (c) => c.registerCommand(command) })]),
    ).rejects.toMatchObject({ code: ErrorCode.DUPLICATE });
  });

  it("two kernels in one process stay independent", async () => {
    const a = kernel();
    const b = kernel();
    await a.use([definePlugin({ name: "svc", apply: (c) => c.registerCommand(defineCommand({ name: "ping", input: z.object({}), run: () => "a" })) })]);
    await b.use([definePlugin({ name: "svc", apply: (c) => c.registerCommand(defineCommand({ name: "ping", input: z.object({}), run: () => "b" })) })]);
    await a.boot();
    expect(await a.commands.invoke("ping", {})).toBe("a");
    expect(await b.commands.invoke("ping", {})).toBe("b");
    expect(b.frozen).toBe(false);
    await b.use([sampleOwner()]);
    expect(b.hookRegistry.has("sample_step")).toBe(true);
    expect(a.hookRegistry.has("sample_step")).toBe(false);
  });
});

describe("events emitted during boot", () => {
  it("reach the first subscriber that asks (the transport), in order, once; other subscribers see only new events", () => {
    const k = kernel();
    const plugin = capture(k);
    k.events.emit("sample_added", { item: "a" });
    k.events.emit("sample_step", { index: 1 });
    const transport: OutEvent[] = [];
    k.events.subscribe((e) => transport.push(e), { replay: true });
    expect(transport.map((e) => e.type)).toEqual(["sample_added", "sample_step"]);
    const late: OutEvent[] = [];
    k.events.subscribe((e) => late.push(e), { replay: true });
    k.events.emit("sample_step", { index: 2 });
    expect(transport.map((e) => e.type)).toEqual(["sample_added", "sample_step", "sample_step"]);
    expect(plugin.map((e) => e.type)).toEqual(["sample_added", "sample_step", "sample_step"]);
    expect(late.map((e) => e.type)).toEqual(["sample_step"]);
  });

  it("requestShutdown is carried out by the serving host; without one it fails clearly", () => {
    const k = kernel();
    const ctx = k.context("ext-plugin");
    expect(() => ctx.requestShutdown()).toThrow('Plugin "ext-plugin" asked for shutdown, but no host serves this kernel');
    let asked = 0;
    k.setShutdownHandler(() => asked++);
    ctx.requestShutdown();
    expect(asked).toBe(1);
  });
});
