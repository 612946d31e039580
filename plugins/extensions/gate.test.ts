import { describe, expect, it } from "vitest";
import { HandlerGate } from "./gate.js";

const never = () => new Promise<string>(() => {});

describe("handler gate", () => {
  it("passes results and errors through; a release resolves pending work with its fallback", async () => {
    const gate = new HandlerGate();
    expect(
      await gate.run(
        async () => "done",
        () => "released",
      ),
    ).toBe("done");
    await expect(
      gate.run(
        async () => Promise.reject(new Error("boom")),
        () => "released",
      ),
    ).rejects.toThrow("boom");
    const pending = gate.run(never, () => "released");
    gate.release(1);
    expect(await pending).toBe("released");
    expect(
      await gate.run(
        async () => "next epoch",
        () => "released",
      ),
    ).toBe("next epoch");
  });

  it("a throwing fallback rejects; an aborted signal releases too", async () => {
    const gate = new HandlerGate();
    const controller = new AbortController();
    const pending = gate.run(
      never,
      () => {
        throw new Error("aborted");
      },
      controller.signal,
    );
    controller.abort();
    await expect(pending).rejects.toThrow("aborted");
  });

  it("work of a command read before an abort that already ran starts released", async () => {
    const gate = new HandlerGate();
    gate.release(5);
    expect(
      await gate.run(
        async () => "ran",
        () => "released",
        undefined,
        4,
      ),
    ).toBe("released");
    expect(
      await gate.run(
        async () => "ran",
        () => "released",
        undefined,
        6,
      ),
    ).toBe("ran");
  });

  it("hold keeps the epoch open while an extension's own action runs", async () => {
    const gate = new HandlerGate();
    const pending = gate.run(never, () => "released");
    let inner: string | undefined;
    await gate.hold(async () => {
      gate.release(2);
      inner = "still held";
    });
    expect(inner).toBe("still held");
    gate.release(3);
    expect(await pending).toBe("released");
  });
});
