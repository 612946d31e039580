/** thrownAt: the line of a tap's own file a report points at, instead of the whole stack. */
import { describe, expect, it } from "vitest";
import { thrownAt } from "./errors.js";

const thrown = (...frames: string[]) => Object.assign(new Error("boom"), { stack: ["TypeError: boom", ...frames.map((frame) => `    at ${frame}`)].join("\n") });

describe("thrownAt", () => {
  it("names the first frame in the tap's file, whatever form the frame has", () => {
    const error = thrown("helper (/lib/x.js:1:1)", "/home/a/ext.ts:4:14", "handler (/home/a/ext.ts:9:3)");
    expect(thrownAt(error, "/home/a/ext.ts")).toBe("/home/a/ext.ts:4:14");
    expect(thrownAt(thrown("run (file:///home/a/my%20ext.ts:2:5)"), "/home/a/my ext.ts")).toBe("/home/a/my ext.ts:2:5");
    expect(thrownAt(thrown("async /home/a/ext.ts:7:1"), "/home/a/ext.ts")).toBe("/home/a/ext.ts:7:1");
    expect(thrownAt(thrown("Object.<anonymous> (/home/my dir/ext.ts:3:2)"), "/home/my dir/ext.ts")).toBe("/home/my dir/ext.ts:3:2");
  });

  it("else the first frame in its folder outside node_modules (a package's other modules)", () => {
    const error = thrown("dep (/pkg/node_modules/lib/index.js:1:1)", "work (/pkg/src/work.ts:12:7)", "/pkg/index.ts:1:1");
    expect(thrownAt(error, "/pkg/index.ts")).toBe("/pkg/index.ts:1:1");
    expect(thrownAt(thrown("dep (/pkg/node_modules/lib/index.js:1:1)", "work (/pkg/src/work.ts:12:7)"), "/pkg/index.ts")).toBe("/pkg/src/work.ts:12:7");
  });

  it("nothing for a tap named by a plugin, a throw that is no Error, or a stack that never passes the file", () => {
    expect(thrownAt(thrown("/home/a/ext.ts:4:14"), "my-plugin")).toBeUndefined();
    expect(thrownAt("boom", "/home/a/ext.ts")).toBeUndefined();
    expect(thrownAt(thrown("/elsewhere/x.ts:1:1", "node:internal/process/task_queues:95:5"), "/home/a/ext.ts")).toBeUndefined();
  });
});
