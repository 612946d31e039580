import { describe, expect, it } from "vitest";
import { frameIn } from "./index.js";

function errorWith(stack: string): Error {
  const error = new Error("boom");
  error.stack = `Error: boom\n${stack}`;
  return error;
}

describe("frameIn", () => {
  const mine = (file: string) => file.startsWith("/home/me/.atomic/agent/extensions/");

  it("the first frame in a matching file, with its line and column", () => {
    const error = errorWith(
      [
        "    at run (/opt/atomic/dist/chunk.cjs:1:2)",
        "    at Timeout._onTimeout (/home/me/.atomic/agent/extensions/x.ts:3:29)",
        "    at /home/me/.atomic/agent/extensions/y.ts:9:1",
      ].join("\n"),
    );
    expect(frameIn(error, mine)).toBe("/home/me/.atomic/agent/extensions/x.ts:3:29");
  });

  it("file:// frames (ES modules) and anonymous frames", () => {
    expect(frameIn(errorWith("    at file:///home/me/.atomic/agent/extensions/z.mjs:4:7"), mine)).toBe("/home/me/.atomic/agent/extensions/z.mjs:4:7");
  });

  it("nothing for a stack with no matching frame, or no stack at all", () => {
    expect(frameIn(errorWith("    at node:internal/timers:1:1\n    at /opt/atomic/dist/a.cjs:1:1"), mine)).toBeUndefined();
    expect(frameIn("a string", mine)).toBeUndefined();
  });
});
