import { describe, expect, it } from "vitest";
import { MessageQueues } from "./queue.js";

const image = { type: "image" as const, data: "AA==", mimeType: "image/png" };

describe("MessageQueues", () => {
  it("one-at-a-time hands out one message per delivery point, in arrival order", () => {
    const queues = new MessageQueues("one-at-a-time", "one-at-a-time");
    queues.push("steering", "a");
    queues.push("steering", "b");
    queues.push("followUp", "c");
    expect(queues.size).toBe(3);
    expect(queues.takeSteering().map((m) => m.text)).toEqual(["a"]);
    expect(queues.snapshot()).toEqual({ steering: ["b"], followUp: ["c"] });
    expect(queues.takeSteering().map((m) => m.text)).toEqual(["b"]);
    expect(queues.takeSteering()).toEqual([]);
    expect(queues.takeFollowUp().map((m) => m.text)).toEqual(["c"]);
    expect(queues.size).toBe(0);
  });

  it("all hands out everything at once; the mode can change while messages wait", () => {
    const queues = new MessageQueues("all", "one-at-a-time");
    queues.push("steering", "a");
    queues.push("steering", "b");
    queues.push("followUp", "c");
    queues.push("followUp", "d");
    expect(queues.takeSteering().map((m) => m.text)).toEqual(["a", "b"]);
    expect(queues.takeFollowUp().map((m) => m.text)).toEqual(["c"]);
    queues.followUpMode = "all";
    queues.push("followUp", "e");
    expect(queues.takeFollowUp().map((m) => m.text)).toEqual(["d", "e"]);
  });

  it("takeAll interleaves both queues by arrival and keeps images only when there are some", () => {
    const queues = new MessageQueues("one-at-a-time", "one-at-a-time");
    queues.push("followUp", "first", [image]);
    queues.push("steering", "second", []);
    queues.push("followUp", "third");
    const all = queues.takeAll();
    expect(all.map((m) => m.text)).toEqual(["first", "second", "third"]);
    expect(all[0]!.images).toEqual([image]);
    expect("images" in all[1]!).toBe(false);
    expect(queues.snapshot()).toEqual({ steering: [], followUp: [] });
  });

  it("a custom message queues in arrival order but is not listed in the snapshot", () => {
    const queues = new MessageQueues("one-at-a-time", "one-at-a-time");
    const custom = { role: "custom" as const, customType: "ext", content: "note", display: true, timestamp: 1 };
    queues.push("steering", "a");
    queues.pushCustom("steering", custom);
    expect(queues.snapshot()).toEqual({ steering: ["a"], followUp: [] });
    expect(queues.size).toBe(2);
    expect(queues.takeAll().map((m) => m.custom ?? m.text)).toEqual(["a", custom]);
  });
});
