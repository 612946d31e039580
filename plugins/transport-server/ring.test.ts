import { describe, expect, it } from "vitest";
import { ReplayRing, type RingEntry } from "./ring.js";

const entry = (seq: number, bytes = 10): RingEntry => ({ seq, type: "e", parts: [`{"seq":${seq}}`], bytes });

describe("replay ring", () => {
  it("answers the events after a cursor it still holds; anything older, or ahead, is a gap", () => {
    const ring = new ReplayRing(3, 1_000);
    expect(ring.after(0)).toEqual({ gap: false, entries: [] });
    expect(ring.after(1)).toEqual({ gap: true });
    for (let seq = 1; seq <= 5; seq++) ring.push(entry(seq));
    expect(ring.size).toBe(3);
    expect(ring.after(2)).toEqual({ gap: false, entries: [entry(3), entry(4), entry(5)] });
    expect(ring.after(4)).toEqual({ gap: false, entries: [entry(5)] });
    expect(ring.after(5)).toEqual({ gap: false, entries: [] });
    expect(ring.after(1)).toEqual({ gap: true });
    expect(ring.after(6)).toEqual({ gap: true });
  });

  it("holds its bytes under the bound, dropping the oldest (even the newest when it alone is larger)", () => {
    const ring = new ReplayRing(100, 25);
    for (let seq = 1; seq <= 4; seq++) ring.push(entry(seq));
    expect(ring.bytes).toBe(20);
    expect(ring.after(2)).toEqual({ gap: false, entries: [entry(3), entry(4)] });
    ring.push(entry(5, 100));
    expect(ring.size).toBe(0);
    expect(ring.last).toBe(5);
    expect(ring.after(4)).toEqual({ gap: true });
    expect(ring.after(5)).toEqual({ gap: false, entries: [] });
  });

  it("stays linear over many events (slots are compacted)", () => {
    const ring = new ReplayRing(10, 1e9);
    for (let seq = 1; seq <= 50_000; seq++) ring.push(entry(seq));
    expect(ring.size).toBe(10);
    expect(ring.after(49_990)).toMatchObject({ gap: false, entries: expect.arrayContaining([entry(50_000)]) });
  });
});
