import { describe, expect, it } from "vitest";
import { ProcessScope } from "./shared.js";

describe("ProcessScope", () => {
  it("makes a key's value once for every holder and disposes it when the last lease goes", async () => {
    const scope = new ProcessScope();
    const [a, b] = [scope.holder(), scope.holder()];
    let made = 0;
    const disposed: number[] = [];
    const create = () => ({ id: ++made });
    const first = a.acquire("pool", create, (value) => void disposed.push(value.id));
    const second = b.acquire("pool", create, (value) => void disposed.push(value.id));
    expect(second.value).toBe(first.value);
    expect(made).toBe(1);
    await first.release();
    await first.release();
    expect(disposed).toEqual([]);
    await second.release();
    expect(disposed).toEqual([1]);
    expect(scope.keys()).toEqual([]);
    // Asked for again after that: a new one.
    expect(a.acquire("pool", create).value).toEqual({ id: 2 });
  });

  it("releaseAll gives back every lease a holder still has, not the other holders'", async () => {
    const scope = new ProcessScope();
    const [a, b] = [scope.holder(), scope.holder()];
    const disposed: string[] = [];
    a.acquire(
      "x",
      () => "x",
      (value) => void disposed.push(value),
    );
    a.acquire(
      "y",
      () => "y",
      (value) => void disposed.push(value),
    );
    const held = b.acquire(
      "x",
      () => "other",
      (value) => void disposed.push(`${value} by b`),
    );
    a.acquire("x", () => "unused");
    await a.releaseAll();
    expect(disposed).toEqual(["y"]);
    expect(scope.keys()).toEqual(["x"]);
    await held.release();
    // The first acquirer's dispose runs.
    expect(disposed).toEqual(["y", "x"]);
  });

  it("two scopes share nothing", () => {
    const one = new ProcessScope().holder();
    const two = new ProcessScope().holder();
    expect(one.acquire("k", () => ({})).value).not.toBe(two.acquire("k", () => ({})).value);
  });

  it("a failing dispose still releases the rest and is reported", async () => {
    const scope = new ProcessScope();
    const holder = scope.holder();
    let closed = false;
    holder.acquire(
      "bad",
      () => 1,
      () => Promise.reject(new Error("cannot close")),
    );
    holder.acquire(
      "good",
      () => 2,
      () => void (closed = true),
    );
    await expect(holder.releaseAll()).rejects.toThrow("cannot close");
    expect(closed).toBe(true);
    expect(scope.keys()).toEqual([]);
  });

  it("a create that throws holds nothing", () => {
    const scope = new ProcessScope();
    expect(() =>
      scope.holder().acquire("k", () => {
        throw new Error("no");
      }),
    ).toThrow("no");
    expect(scope.keys()).toEqual([]);
  });
});
