import { describe, expect, it } from "vitest";
import { privateDirBase } from "./launcher.js";

describe("where the sandbox's private folder goes", () => {
  it("in the temp dir while the proxy's socket path fits a Unix socket", () => {
    expect(privateDirBase("/tmp", 12345)).toBe("/tmp");
    expect(privateDirBase("/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T", 12345)).toBe("/var/folders/zz/zyxvpxvq6csfxvn_n0000000000000/T");
  });

  it("in /tmp when the socket's path would be longer than one may be", () => {
    expect(privateDirBase(`/home/someone/${"deep/".repeat(16)}tmp`, 12345)).toBe("/tmp");
  });
});
