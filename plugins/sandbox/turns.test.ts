import { describe, expect, it } from "vitest";
import { Turns } from "./turns.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("turns of confined commands and file tools", () => {
  it("a kind runs alongside itself, never alongside the other; a waiting kind goes next", async () => {
    const turns = new Turns();
    const log: string[] = [];
    const first = await turns.take("commands");
    const second = await turns.take("commands");
    const file = turns.take("files").then((release) => (log.push("files"), release));
    // A command arriving after a waiting file tool waits behind it: no starvation.
    const late = turns.take("commands").then((release) => (log.push("late command"), release));
    await tick();
    expect(log).toEqual([]);
    first();
    await tick();
    expect(log).toEqual([]);
    second();
    const releaseFile = await file;
    await tick();
    expect(log).toEqual(["files"]);
    releaseFile();
    releaseFile(); // twice is once
    (await late)();
    expect(log).toEqual(["files", "late command"]);
    // Free again: either kind starts at once.
    (await turns.take("files"))();
  });
});
