import { describe, expect, it } from "vitest";
import { OutputCleaner, removeControlCharacters } from "./output-cleaner.js";

const bytes = (...parts: (string | number[])[]) => parts.map((part) => (typeof part === "string" ? Buffer.from(part, "utf8") : Buffer.from(part)));

function cleanAll(chunks: Buffer[]): string[] {
  const cleaner = new OutputCleaner();
  return [...chunks.map((chunk) => cleaner.push(chunk)), cleaner.end()];
}

describe("OutputCleaner", () => {
  it("strips ANSI escapes, including one split across chunks", () => {
    expect(cleanAll(bytes("\x1b[1;31mred\x1b[3", "2mgreen\x1b[0m\n")).join("")).toBe("redgreen\n");
  });

  it("decodes a character split across chunks", () => {
    const euro = Buffer.from("€", "utf8");
    expect(cleanAll([euro.subarray(0, 1), euro.subarray(1)])).toEqual(["", "€", ""]);
  });

  it("turns invalid UTF-8 into U+FFFD and removes NUL and other control characters", () => {
    const out = cleanAll(bytes([0x61, 0x00, 0x62, 0xff, 0xfe, 0x63, 0x07, 0x0d, 0x0a, 0x09, 0x1b, 0x7f, 0xc2, 0x85]));
    const text = out.join("");
    expect(text).toBe("ab\ufffd\ufffdc\n\t");
    expect(Buffer.from(text, "utf8").toString("utf8")).toBe(text);
  });

  it("emits a truncated sequence at the end, sanitised", () => {
    expect(cleanAll(bytes("done\x1b[")).join("")).toBe("done[");
    expect(cleanAll(bytes([0x61, 0xe2, 0x82])).join("")).toBe("a\ufffd");
  });
});

describe("removeControlCharacters", () => {
  it("keeps tabs, newlines and printable text in any script", () => {
    expect(removeControlCharacters("a\tb\nc ü 日本 🙂")).toBe("a\tb\nc ü 日本 🙂");
  });
});
