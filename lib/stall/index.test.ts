import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inFreshNode } from "./fresh-node.test-support.js";
import { unlessStalled } from "./index.js";

const MODULE = join(import.meta.dirname, "index.ts");

/** Runs `body` in a fresh Node with lib/stall imported; its stdout. */
const inProcess = (body: string) => inFreshNode(`import { unlessStalled, whenStalled } from ${JSON.stringify(MODULE)};\n${body}`);

describe("unlessStalled", () => {
  it("passes work through that settles", async () => {
    expect(await unlessStalled(Promise.resolve(7), () => 0)).toBe(7);
    await expect(unlessStalled(Promise.reject(new Error("no")), () => 0)).rejects.toThrow("no");
  });

  it("answers a promise nothing can settle once the process runs dry, the innermost first, and lets the process go on", () => {
    const out = inProcess(`
const never = new Promise(() => {});
const outer = unlessStalled(never, () => "outer stalled");
const inner = unlessStalled(never, () => "inner stalled");
inner.then((v) => { console.log(v); setTimeout(() => console.log("went on"), 5); });
outer.then((v) => console.log(v));
`);
    expect(out).toBe("inner stalled\nwent on\nouter stalled\n");
  });

  it("never cuts short work that still waits on a timer", () => {
    expect(inProcess(`unlessStalled(new Promise((r) => setTimeout(() => r("done"), 50)), () => "stalled").then((v) => console.log(v));`)).toBe("done\n");
  });
});

describe("whenStalled", () => {
  it("calls a registered answer once the process runs dry, the latest first; one unregistered is never called", () => {
    const out = inProcess(`
whenStalled(() => console.log("first"));
const forget = whenStalled(() => console.log("forgotten"));
whenStalled(() => { console.log("latest"); setTimeout(() => console.log("went on"), 5); });
forget();
forget();
`);
    expect(out).toBe("latest\nwent on\nfirst\n");
  });
});
