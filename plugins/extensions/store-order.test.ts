import { describe, expect, it } from "vitest";
import { StoreOrder } from "./store-order.js";

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe("StoreOrder", () => {
  it("writes at once when nothing is being stored, and starts a store in the same tick", () => {
    const order = new StoreOrder();
    const done: string[] = [];
    order.after(
      () => done.push("entry"),
      () => undefined,
    );
    void order.store(async () => void done.push("store started"));
    expect(done).toEqual(["entry", "store started"]);
  });

  it("keeps writes behind the stores asked for before them, in call order", async () => {
    const order = new StoreOrder();
    const done: string[] = [];
    let finish!: () => void;
    void order.store(() => new Promise<void>((resolve) => (finish = resolve)).then(() => void done.push("message 1")));
    order.after(
      () => done.push("entry 2"),
      () => undefined,
    );
    void order.store(async () => void done.push("message 3"));
    order.after(
      () => done.push("entry 4"),
      () => undefined,
    );
    await tick();
    expect(done).toEqual([]);
    finish();
    await order.settled();
    expect(done).toEqual(["message 1", "entry 2", "message 3", "entry 4"]);
    order.after(
      () => done.push("entry 5"),
      () => undefined,
    );
    expect(done.at(-1)).toBe("entry 5");
  });

  it("a store that fails, or throws before its promise, holds nothing up; a deferred write that throws is reported", async () => {
    const order = new StoreOrder();
    const reported: unknown[] = [];
    await expect(
      order.store(() => {
        throw new Error("at once");
      }),
    ).rejects.toThrow("at once");
    const failing = order.store(async () => Promise.reject(new Error("later")));
    order.after(
      () => {
        throw new Error("write failed");
      },
      (error) => reported.push((error as Error).message),
    );
    const written: string[] = [];
    order.after(
      () => written.push("next"),
      () => undefined,
    );
    await expect(failing).rejects.toThrow("later");
    await order.settled();
    expect(reported).toEqual(["write failed"]);
    expect(written).toEqual(["next"]);
  });
});
