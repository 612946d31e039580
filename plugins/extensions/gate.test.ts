import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inFreshNode } from "../../lib/stall/fresh-node.test-support.js";
import { HandlerGate } from "./gate.js";

/** Runs `body` in a fresh Node with the gate and lib/stall imported; its stdout. */
const inProcess = (body: string) =>
  inFreshNode(
    `import { HandlerGate } from ${JSON.stringify(join(import.meta.dirname, "gate.ts"))};\nimport { unlessStalled } from ${JSON.stringify(join(import.meta.dirname, "../../lib/stall/index.ts"))};\n${body}`,
  );

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
      { signal: controller.signal },
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
        { seq: 4 },
      ),
    ).toBe("released");
    expect(
      await gate.run(
        async () => "ran",
        () => "released",
        { seq: 6 },
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

  it("work that returned a promise nothing can settle answers `stalled` once the process runs dry; a synchronous answer registers nothing", () => {
    const out = inProcess(`
const gate = new HandlerGate();
const stalled = () => "stalled";
gate.run(() => "sync", () => "released", { stalled }).then((v) => {
  console.log(v, process.listenerCount("beforeExit"));
  gate.run(() => new Promise(() => {}), () => "released", { stalled }).then((v) => console.log(v));
  gate.run(() => new Promise(() => {}), () => "released").then((v) => console.log("never", v));
});
`);
    expect(out).toBe("sync 0\nstalled\n");
  });

  it("work released by an abort withdraws its stall answer: stuck work further out is still answered", () => {
    const out = inProcess(`
const outer = unlessStalled(new Promise(() => {}), () => "outer stalled");
const gate = new HandlerGate();
gate.run(() => new Promise(() => {}), () => "released", { stalled: () => "gate stalled" }).then((v) => console.log(v));
setTimeout(() => gate.release(1), 5);
outer.then((v) => console.log(v));
`);
    expect(out).toBe("released\nouter stalled\n");
  });
});
