import { AsyncSeriesHook, SyncHook } from "tapable";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { PluginContext } from "../../kernel/index.js";
import { warmSdkWhenUsed } from "./provider-plugin.js";

/** The two hooks the warm-up uses, as the kernel's (tapable) hooks. */
function fakeContext() {
  const hooks = { model_select: new SyncHook<[{ model: { api: string; baseUrl: string } }]>(["event"]), shutdown: new AsyncSeriesHook<[string]>(["reason"]) };
  const select = (api: string) => hooks.model_select.call({ model: { api, baseUrl: "" } });
  return { k: { name: "provider-test", hooks } as unknown as PluginContext, select, shutdown: () => hooks.shutdown.promise("exit") };
}

afterEach(() => vi.useRealTimers());

describe("the SDK warm-up after a model is chosen", () => {
  it("loads the chosen API's SDK once, after a pause", async () => {
    vi.useFakeTimers();
    const { k, select } = fakeContext();
    const load = vi.fn(async () => undefined);
    warmSdkWhenUsed(k, ["x-api"], load);
    select("x-api");
    select("x-api");
    select("other-api");
    expect(load).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(load.mock.calls).toEqual([["x-api"]]);
  });

  it("starts nothing once the host has shut down, and shutdown waits for a load already started", async () => {
    vi.useFakeTimers();
    const pending = fakeContext();
    const load = vi.fn(async () => undefined);
    warmSdkWhenUsed(pending.k, ["x-api"], load);
    pending.select("x-api");
    await pending.shutdown();
    pending.select("x-api");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(load).not.toHaveBeenCalled();

    const started = fakeContext();
    let finish = () => {};
    const slow = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    warmSdkWhenUsed(started.k, ["x-api"], slow);
    started.select("x-api");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(slow).toHaveBeenCalledTimes(1);
    let down = false;
    const shutdown = started.shutdown().then(() => (down = true));
    await vi.advanceTimersByTimeAsync(10);
    expect(down).toBe(false);
    finish();
    await shutdown;
    expect(down).toBe(true);
  });
});
