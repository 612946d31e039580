import { describe, expect, it } from "vitest";
import { BashRequests } from "./requests.js";

describe("BashRequests", () => {
  it("cancels by id within one owner, every request that has it", () => {
    const requests = new BashRequests();
    const a1 = requests.begin("a", "rpc");
    const a2 = requests.begin("a", "rpc");
    const b = requests.begin("b", "rpc");
    const otherOwner = requests.begin("a", "sdk");
    expect(requests.cancel("rpc", "a")).toBe(2);
    expect([a1, a2, b, otherOwner].map((r) => r.signal.aborted)).toEqual([true, true, false, false]);
  });

  it("tells ids of different types apart, and an unknown id cancels nothing", () => {
    const requests = new BashRequests();
    const numeric = requests.begin(1, "rpc");
    expect(requests.cancel("rpc", "1")).toBe(0);
    expect(requests.cancel("rpc", "missing")).toBe(0);
    expect(numeric.signal.aborted).toBe(false);
    expect(requests.cancel("rpc", 1)).toBe(1);
  });

  it("without an id cancels all of the owner's requests, those without an id included", () => {
    const requests = new BashRequests();
    const anonymous = requests.begin(undefined, "rpc");
    const named = requests.begin("x", "rpc");
    const sdk = requests.begin(undefined, "sdk");
    expect(requests.cancel("rpc")).toBe(2);
    expect([anonymous, named, sdk].map((r) => r.signal.aborted)).toEqual([true, true, false]);
    requests.cancelAll();
    expect(sdk.signal.aborted).toBe(true);
  });

  it("drains once every request has ended, and ended requests are not cancelled", async () => {
    const requests = new BashRequests();
    const first = requests.begin("1", "rpc");
    const second = requests.begin("2", "rpc");
    let drained = false;
    const drain = requests.drain().then(() => (drained = true));
    first.end();
    await Promise.resolve();
    expect(drained).toBe(false);
    second.end();
    await drain;
    expect(requests.size).toBe(0);
    expect(requests.cancel("rpc")).toBe(0);
    expect(first.signal.aborted).toBe(false);
  });
});
