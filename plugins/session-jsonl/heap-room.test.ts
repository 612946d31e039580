import { describe, expect, it } from "vitest";
import { heapAdvice, readOldSpaceFlags } from "./heap-room.js";

const GB = 1024 ** 3;

describe("the heap flags a session load is checked against", () => {
  it("should read --max-old-space-size in MB, given with = or as the next argument", () => {
    expect(readOldSpaceFlags(["--max-old-space-size=64"])).toEqual({ bytes: 64 * 1024 * 1024 });
    expect(readOldSpaceFlags(["--max_old_space_size", "128"])).toEqual({ bytes: 128 * 1024 * 1024 });
    expect(readOldSpaceFlags(["--inspect", ""])).toEqual({});
  });

  it("should let --max-old-space-size-percentage win over --max-old-space-size, as node does", () => {
    expect(readOldSpaceFlags(["--max-old-space-size=64", "--max-old-space-size-percentage=50"])).toEqual({ percentage: 50 });
    expect(readOldSpaceFlags(["--max-old-space-size-percentage=25", "--max-old-space-size=64"])).toEqual({ percentage: 25 });
  });

  it("should advise the flag that sizes the heap", () => {
    expect(heapAdvice({ bytes: 64 * 1024 * 1024 }, 0.3 * GB, 16 * GB)).toBe("Start Atomic with NODE_OPTIONS=--max-old-space-size=512 to open it.");
    // 512 MB of 16 GB is 3.2%: a setting of 2 must become at least 4.
    expect(heapAdvice({ percentage: 2 }, 0.3 * GB, 16 * GB)).toBe("Start Atomic with NODE_OPTIONS=--max-old-space-size-percentage=4 (now 2) to open it.");
    expect(heapAdvice({ percentage: 90 }, 20 * GB, 16 * GB)).toBe("It needs about 24320 MB of heap, more than this machine's memory.");
  });
});
