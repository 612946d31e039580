import { describe, expect, it } from "vitest";
import { InputGate } from "./input-gate.js";

function gate(maxInFlight = 3, resumeBelow = 2) {
  const calls: string[] = [];
  let drain: (() => void) | undefined;
  let congested: Promise<void> | undefined;
  const g = new InputGate({
    pause: () => void calls.push("pause"),
    resume: () => void calls.push("resume"),
    congestion: () => congested,
    maxInFlight,
    resumeBelow,
  });
  const congest = () =>
    (congested = new Promise<void>(
      (resolve) =>
        (drain = () => {
          congested = undefined;
          resolve();
        }),
    ));
  return { g, calls, congest, drain: () => drain?.() };
}

describe("InputGate", () => {
  it("stops reading past maxInFlight waiting records and resumes below resumeBelow", () => {
    const { g, calls } = gate();
    const responders = Array.from({ length: 4 }, () => g.track(() => undefined));
    g.check();
    expect(calls).toEqual(["pause"]);
    responders[0]!(undefined);
    responders[1]!(undefined);
    expect(calls).toEqual(["pause"]);
    responders[2]!(undefined);
    expect(calls).toEqual(["pause", "resume"]);
    expect(g.inFlight).toBe(1);
  });

  it("stops reading while output is congested and resumes on drain", async () => {
    const { g, calls, congest, drain } = gate();
    congest();
    g.check();
    g.check();
    expect(calls).toEqual(["pause"]);
    drain();
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(["pause", "resume"]);
  });

  it("a respond called twice counts once; a closed gate stays still", () => {
    const { g, calls } = gate(0, 1);
    const respond = g.track(() => undefined);
    g.check();
    respond(undefined);
    respond(undefined);
    expect(g.inFlight).toBe(0);
    expect(calls).toEqual(["pause", "resume"]);
    g.close();
    g.track(() => undefined);
    g.check();
    expect(calls).toEqual(["pause", "resume"]);
  });
});
