import { describe, expect, it } from "vitest";
import { definePlugin, ErrorCode, Kernel, silentLogger, type KernelConfig, type PluginDefinition } from "./index.js";

const config = (): KernelConfig => ({ agentDir: "/tmp/none", cwd: "/tmp", settings: {}, cli: { positionals: [] }, env: {}, trusted: false });
const kernel = () => new Kernel({ config: config(), log: silentLogger });
/** A plugin that records when it is applied and provides what it declares. */
function plugin(name: string, extra: Omit<Partial<PluginDefinition>, "apply"> = {}, order?: string[]): PluginDefinition {
  return definePlugin({
    name,
    ...extra,
    apply(k) {
      order?.push(name);
      for (const service of extra.provides ?? []) k.provide(service as never, {} as never);
    },
  });
}

describe("admission", () => {
  it("orders by requires (after the publisher), after (when present) and dependsOn", async () => {
    const order: string[] = [];
    const k = kernel();
    await k.use([
      plugin("consumer", { requires: ["store"] }, order),
      plugin("late", { after: ["consumer", "absent"] }, order),
      plugin("publisher", { provides: ["store"] }, order),
    ]);
    expect(order).toEqual(["publisher", "consumer", "late"]);
  });

  it("a required service nobody provides fails before anything runs, naming the plugin and the service", async () => {
    const order: string[] = [];
    const k = kernel();
    const attempt = k.use([plugin("first", {}, order), plugin("session", { requires: ["sessionStore"] }, order)]);
    await expect(attempt).rejects.toMatchObject({ code: ErrorCode.SERVICE_MISSING, plugin: "session" });
    await expect(attempt).rejects.toThrow('Plugin "session" requires the service "sessionStore", which no loaded plugin provides');
    expect(order).toEqual([]);
  });

  it("two publishers of one service fail naming both", async () => {
    await expect(kernel().use([plugin("a", { provides: ["x"] }), plugin("b", { provides: ["x"] })])).rejects.toThrow('Service "x" is provided by both "a" and "b"');
  });

  it("providing an undeclared service, or not providing a declared one, is refused", async () => {
    await expect(kernel().use([definePlugin({ name: "sneaky", apply: (k) => k.provide("agent" as never, {} as never) })])).rejects.toThrow(
      'Plugin "sneaky" provides the service "agent" without declaring it in "provides"',
    );
    await expect(kernel().use([definePlugin({ name: "lazy", provides: ["x"], apply() {} })])).rejects.toThrow('Plugin "lazy" declares it provides "x" but did not provide it');
  });

  it("use() works in batches: a later batch may depend on an earlier one", async () => {
    const k = kernel();
    await k.use([plugin("base", { provides: ["base"] })]);
    await k.use([plugin("extra", { dependsOn: ["base"], requires: ["base"] })]);
    await expect(k.use([plugin("base")])).rejects.toMatchObject({ code: ErrorCode.DUPLICATE });
    expect(k.plugins).toEqual(["base", "extra"]);
  });

  it("a cycle through after/requires is reported with its chain", async () => {
    await expect(kernel().use([plugin("x", { after: ["y"] }), plugin("y", { dependsOn: ["x"] })])).rejects.toThrow("Plugin dependency cycle: x -> y -> x");
  });

  it("boot taps run under the apply timeout and failures are labelled {code, plugin, hook}", async () => {
    const slow = new Kernel({ config: config(), log: silentLogger, applyTimeoutMs: 30 });
    await slow.use([definePlugin({ name: "hangs", apply: (k) => k.hooks.boot_start.tapPromise(k.name, () => new Promise(() => undefined)) })]);
    await expect(slow.boot()).rejects.toMatchObject({ code: ErrorCode.PLUGIN_BOOT_TIMEOUT, plugin: "hangs", hook: "boot_start" });
    const failing = kernel();
    await failing.use([
      definePlugin({
        name: "breaks",
        apply: (k) =>
          k.hooks.boot_start.tap(k.name, () => {
            throw new Error("no disk");
          }),
      }),
    ]);
    await expect(failing.boot()).rejects.toMatchObject({ code: ErrorCode.HOOK_FAILED, plugin: "breaks", hook: "boot_start", message: "[plugin breaks] boot failed: no disk" });
  });
});
