import { describe, expect, it } from "vitest";
import { LineReader } from "./line-reader.js";

function read(chunks: (string | Buffer)[], maxLineBytes?: number) {
  const lines: string[] = [];
  const oversized: number[] = [];
  const reader = new LineReader((line) => lines.push(line), { onOversized: (bytes) => oversized.push(bytes), ...(maxLineBytes ? { maxLineBytes } : {}) });
  for (const chunk of chunks) reader.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  reader.end();
  return { lines, oversized };
}

describe("LineReader", () => {
  it("splits on LF only, strips one CR, keeps U+2028 inside a record, and keeps blank lines", () => {
    expect(read(['{"a":"x\u2028y"}\r\n', "\n", "tail"]).lines).toEqual(['{"a":"x\u2028y"}', "", "tail"]);
  });

  it("decodes a multi-byte character split across chunks", () => {
    const bytes = Buffer.from('"é€"\n');
    expect(read([bytes.subarray(0, 2), bytes.subarray(2, 4), bytes.subarray(4)]).lines).toEqual(['"é€"']);
  });

  it("drops a UTF-8 byte order mark at the start of the stream, even split across chunks, and nowhere else", () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(read([bom.subarray(0, 2), Buffer.concat([bom.subarray(2), Buffer.from('{"id":1}\n')]), Buffer.concat([bom, Buffer.from("x\n")])]).lines).toEqual([
      '{"id":1}',
      "\ufeffx",
    ]);
    expect(read([Buffer.concat([bom, Buffer.from("\r\n")])]).lines).toEqual([""]);
  });

  it("drops a line longer than the limit as it arrives, reports its size, and goes on", () => {
    const { lines, oversized } = read(["ok1\n", "x".repeat(6), "y".repeat(6), "\nok2\n", "z".repeat(20)], 10);
    expect(lines).toEqual(["ok1", "ok2"]);
    expect(oversized).toEqual([12, 20]);
  });
});
