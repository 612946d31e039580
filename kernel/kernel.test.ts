import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineCommand, definePlugin, ErrorCode, KernelError, silentLogger, STAGE, type KernelConfig, type OutEvent } from "./index.js";
import { Kernel } from "./kernel.js";

function config(): KernelConfig {
  return { agentDir: "/tmp/none", cwd: "/tmp", settings: {}, cli: { positionals: [] }, env: {}, trusted: false };
}

function kernel(): Kernel {
  return new Kernel({ config: config(), log: silentLogger });
}

function capture(k: Kernel): OutEvent[] {
  const events: OutEvent[] = [];
  k.events.subscribe((e) => events.push(e));
  return events;
}

describe("hooks", () => {
  it("runs taps by stage, then registration order", async () => {
    const k = kernel();
    const seen: string[] = [];
    k.hooks.agent_start.tap({ name: "late", stage: STAGE.OBSERVE }, () => void seen.push("late"));
    k.hooks.agent_start.tap("a", () => void seen.push("a"));
    k.hooks.agent_start.tap({ name: "first", stage: STAGE.FIRST }, () => void seen.push("first"));
    k.hooks.agent_start.tap("b", () => void seen.push("b"));
    await k.hooks.agent_start.promise({});
    expect(seen).toEqual(["first", "a", "b", "late"]);
  });

  it("guard hooks fail closed: a throwing tool_call tap blocks the call and is reported", async () => {
    const k = kernel();
    const events = capture(k);
    k.hooks.tool_call.tapPromise("gate", async () => {
      throw new Error("boom");
    });
    const verdict = await k.hooks.tool_call.promise({ toolCallId: "1", toolName: "bash", input: {} });
    expect(verdict).toEqual({ block: true, reason: "Tool call blocked: boom" });
    expect(events).toEqual([{ type: "extension_error", extensionPath: "gate", event: "tool_call", error: "boom" }]);
  });

  it("a throwing session_before_switch tap cancels", async () => {
    const k = kernel();
    k.hooks.session_before_switch.tap("x", () => {
      throw new Error("no");
    });
    expect(await k.hooks.session_before_switch.promise({ reason: "new" })).toEqual({ cancel: true });
  });

  it("the first veto wins and later taps do not run", async () => {
    const k = kernel();
    let ran = false;
    k.hooks.tool_call.tap("one", () => ({ block: true, reason: "first" }));
    k.hooks.tool_call.tap("two", () => {
      ran = true;
      return { block: true, reason: "second" };
    });
    expect(await k.hooks.tool_call.promise({ toolCallId: "1", toolName: "x", input: {} })).toEqual({ block: true, reason: "first" });
    expect(ran).toBe(false);
  });

  it("transform hooks isolate a failing tap and pass the value through", async () => {
    const k = kernel();
    const events = capture(k);
    k.hooks.input.tap("upper", (e) => ({ ...e, text: e.text.toUpperCase() }));
    k.hooks.input.tapPromise("broken", async () => {
      throw new Error("bad transform");
    });
    k.hooks.input.tap("suffix", (e) => ({ ...e, text: `${e.text}!` }));
    const result = await k.hooks.input.promise({ text: "hi", source: "rpc", via: "prompt" });
    expect(result.text).toBe("HI!");
    expect(events).toEqual([{ type: "extension_error", extensionPath: "broken", event: "input", error: "bad transform" }]);
  });

  it("notify hooks keep running after a failing tap", async () => {
    const k = kernel();
    const seen: string[] = [];
    k.hooks.turn_end.tap("bad", () => {
      throw new Error("x");
    });
    k.hooks.turn_end.tap("good", () => void seen.push("good"));
    await k.hooks.turn_end.promise({ turnIndex: 0, message: {} as never, toolResults: [] });
    expect(seen).toEqual(["good"]);
  });

  it("internal hooks propagate errors to the owner", async () => {
    const k = kernel();
    k.hooks.run_end.tap("x", () => {
      throw new Error("internal failure");
    });
    const edge = { messages: [], produced: [], lastAssistant: undefined, signal: new AbortController().signal, setContext() {} };
    await expect(k.hooks.run_end.promise(edge)).rejects.toThrow("internal failure");
  });

  it("the catalogue is frozen", () => {
    const k = kernel();
    expect(Object.isFrozen(k.hooks)).toBe(true);
    expect(() => ((k.hooks as Record<string, unknown>).extra = 1)).toThrow();
  });
});

describe("plugins and boot", () => {
  it("orders by dependsOn and freezes after boot", async () => {
    const k = kernel();
    const order: string[] = [];
    await k.use([
      definePlugin({ name: "b", dependsOn: ["a"], apply: () => void order.push("b") }),
      definePlugin({ name: "a", apply: () => void order.push("a") }),
    ]);
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
    await expect(
      k.use([definePlugin({ name: "x", dependsOn: ["y"], apply() {} }), definePlugin({ name: "y", dependsOn: ["x"], apply() {} })]),
    ).rejects.toMatchObject({ code: ErrorCode.PLUGIN_CYCLE });
  });

  it("a failing apply is labelled with its plugin", async () => {
    const k = kernel();
    await expect(k.use([definePlugin({ name: "faulty", apply() { throw new Error("nope"); } })])).rejects.toMatchObject({
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
    const seen: string[] = [];
    a.hooks.agent_start.tap("x", () => void seen.push("a"));
    await b.hooks.agent_start.promise({});
    expect(seen).toEqual([]);
  });
});

describe("events emitted during boot", () => {
  it("reach the first subscriber that asks (the transport), in order, once; other subscribers see only new events", () => {
    const k = kernel();
    const plugin = capture(k);
    k.reportError({ source: "/ext/broken.ts", hook: "load", error: "SyntaxError" });
    k.events.emit("queue_update", { steering: ["a"], followUp: [] });
    const transport: OutEvent[] = [];
    k.events.subscribe((e) => transport.push(e), { replay: true });
    expect(transport.map((e) => e.type)).toEqual(["extension_error", "queue_update"]);
    const late: OutEvent[] = [];
    k.events.subscribe((e) => late.push(e), { replay: true });
    k.events.emit("agent_start", {});
    expect(transport.map((e) => e.type)).toEqual(["extension_error", "queue_update", "agent_start"]);
    expect(plugin.map((e) => e.type)).toEqual(["extension_error", "queue_update", "agent_start"]);
    expect(late.map((e) => e.type)).toEqual(["agent_start"]);
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
