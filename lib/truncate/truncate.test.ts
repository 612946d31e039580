import { describe, expect, it } from "vitest";
import { countLines, formatSize, splitLines, truncateHead, truncateTail } from "./index.js";

const numbered = (count: number, width = 0) => Array.from({ length: count }, (_, i) => `line${i + 1}`.padEnd(width, "x"));

describe("line counting", () => {
  it("counts by newline separators, a final newline adding no line", () => {
    expect([countLines(""), countLines("a"), countLines("a\n"), countLines("a\nb"), countLines("\n"), countLines("a\n\n")]).toEqual([0, 1, 1, 2, 1, 2]);
    expect(splitLines("a\nb\n")).toEqual(["a", "b"]);
  });

  it("formats sizes with one decimal", () => {
    expect([formatSize(512), formatSize(51_200), formatSize(3 * 1024 * 1024)]).toEqual(["512B", "50.0KB", "3.0MB"]);
  });
});

describe("truncateHead", () => {
  it("returns short text untouched", () => {
    const result = truncateHead("a\nb\n");
    expect(result).toMatchObject({ content: "a\nb\n", truncated: false, truncatedBy: null, totalLines: 2, outputLines: 2 });
  });

  it("keeps the first 2000 lines", () => {
    const lines = numbered(2500);
    const result = truncateHead(lines.join("\n"));
    expect(result.truncatedBy).toBe("lines");
    expect(result.outputLines).toBe(2000);
    expect(result.totalLines).toBe(2500);
    expect(result.content).toBe(lines.slice(0, 2000).join("\n"));
  });

  it("keeps whole lines within 51,200 bytes", () => {
    const lines = numbered(100, 999); // 999 bytes + 1 separator each
    const result = truncateHead(lines.join("\n"));
    expect(result.truncatedBy).toBe("bytes");
    expect(result.outputLines).toBe(51); // 999 + 50 * 1000 = 50,999 <= 51,200
    expect(result.outputBytes).toBe(50_999);
    expect(result.content).toBe(lines.slice(0, 51).join("\n"));
  });

  it("returns the start of a single oversize line, cut on a character boundary", () => {
    const result = truncateHead("é".repeat(100), { maxBytes: 51 });
    expect(result.partialLine).toBe(true);
    expect(result.content).toBe("é".repeat(25));
    expect(result.outputBytes).toBe(50);
  });
});

describe("truncateTail", () => {
  it("keeps the last lines within the line limit", () => {
    const lines = numbered(10);
    const result = truncateTail(lines.join("\n") + "\n", { maxLines: 3 });
    expect(result).toMatchObject({ content: "line8\nline9\nline10", truncatedBy: "lines", totalLines: 10, outputLines: 3 });
  });

  it("keeps the last whole lines within the byte limit", () => {
    const result = truncateTail("aaaa\nbbbb\ncccc", { maxBytes: 10 });
    expect(result).toMatchObject({ content: "bbbb\ncccc", truncatedBy: "bytes", outputLines: 2, outputBytes: 9 });
  });

  it("returns the end of a single oversize last line", () => {
    const result = truncateTail("short\n" + "0123456789".repeat(3), { maxBytes: 8 });
    expect(result).toMatchObject({ content: "23456789", partialLine: true, outputLines: 1, totalLines: 2 });
  });
});
