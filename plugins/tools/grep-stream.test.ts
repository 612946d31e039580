import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../test/helpers/temp.js";
import { GrepOutput } from "./grep-output.js";
import { CHUNK_BYTES, MAX_LINE_BYTES, streamChunks } from "./grep-read.js";
import { splitLines } from "./regex-protocol.js";

/** Output for `text` fed in pieces cut after the given line counts, matching lines containing "hit". */
function render(text: string, cuts: number[], context: number, limit = 100): string {
  const lines = splitLines(text);
  const output = new GrepOutput({ limit, context, maxBytes: 1 << 20 });
  let first = 0;
  for (const count of [...cuts, lines.length]) {
    const piece = lines.slice(first, first + count);
    if (piece.length === 0 && first >= lines.length) break;
    const matches = piece.flatMap((line, i) => (line.includes("hit") ? [i] : []));
    if (output.wants("f")) output.add("f", first, Buffer.from(piece.map((l) => `${l}\n`).join("")), matches, piece.length);
    first += piece.length;
  }
  return output.text();
}

describe("grep output over chunks", () => {
  const text = ["a", "b", "hit 3", "c", "d", "e", "hit 7", "hit 8", "f", "g"].join("\n") + "\n";

  it("prints the same context whichever way the file is cut", () => {
    for (const context of [0, 1, 2, 3]) {
      const whole = render(text, [], context);
      for (const cut of [1, 2, 3, 4, 6, 7, 8, 9]) expect(render(text, [cut], context), `context ${context}, cut ${cut}`).toBe(whole);
      expect(render(text, [1, 1, 1, 1, 1, 1, 1, 1, 1], context)).toBe(whole);
    }
    expect(render(text, [], 1)).toBe(["f-2- b", "f:3: hit 3", "f-4- c", "--", "f-6- e", "f:7: hit 7", "f:8: hit 8", "f-9- f"].join("\n"));
  });

  it("ends at the limit after the last match's context, even in the next chunk", () => {
    expect(render(text, [3], 1, 1)).toBe(["f-2- b", "f:3: hit 3", "f-4- c"].join("\n"));
    expect(render(text, [7], 2, 2)).toBe(["f-1- a", "f-2- b", "f:3: hit 3", "f-4- c", "f-5- d", "f-6- e", "f:7: hit 7"].join("\n"));
  });
});

describe("streamChunks", () => {
  it("cuts a large file after line ends only, counting every line", async () => {
    const dir = tempDir("atomic-grep-");
    const lines = Array.from({ length: 300_000 }, (_, i) => `line ${i} ${"é".repeat(i % 7)}`);
    const path = join(dir, "big.txt");
    await writeFile(path, lines.join("\n")); // no final newline
    const chunks = [];
    for await (const chunk of streamChunks(path)) chunks.push(chunk);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.bytes.at(-1)).toBe(10);
      expect(chunk.bytes.length).toBeGreaterThanOrEqual(CHUNK_BYTES);
    }
    expect(chunks.reduce((sum, chunk) => sum + chunk.lines, 0)).toBe(lines.length);
    expect(Buffer.concat(chunks.map((chunk) => chunk.bytes)).toString("utf8")).toBe(lines.join("\n"));
  });

  it("keeps only the head of a line longer than MAX_LINE_BYTES and says so", async () => {
    const dir = tempDir("atomic-grep-");
    const path = join(dir, "long.txt");
    await writeFile(path, `short\n${"x".repeat(MAX_LINE_BYTES + 5000)}\nafter\n`);
    const chunks = [];
    for await (const chunk of streamChunks(path)) chunks.push(chunk);
    const text = Buffer.concat(chunks.map((chunk) => chunk.bytes)).toString("utf8");
    expect(splitLines(text).map((line) => line.length)).toEqual([5, MAX_LINE_BYTES, 5]);
    expect(chunks.reduce((sum, chunk) => sum + chunk.cutLines, 0)).toBe(1);
    expect(chunks.reduce((sum, chunk) => sum + chunk.lines, 0)).toBe(3);
  });

  it("cuts an over-long line between characters, never inside one", async () => {
    const dir = tempDir("atomic-grep-");
    const path = join(dir, "euro.txt");
    await writeFile(path, `${"€".repeat(MAX_LINE_BYTES / 3 + 10)}\n`); // 3 bytes each: the limit falls inside one
    const chunks = [];
    for await (const chunk of streamChunks(path)) chunks.push(chunk);
    const [line] = splitLines(Buffer.concat(chunks.map((chunk) => chunk.bytes)).toString("utf8"));
    expect(line).toBe("€".repeat(Math.floor(MAX_LINE_BYTES / 3)));
  });

  it("yields nothing for a binary file", async () => {
    const dir = tempDir("atomic-grep-");
    const path = join(dir, "blob.bin");
    await writeFile(path, Buffer.concat([Buffer.from([0, 1, 2]), Buffer.alloc(3 * CHUNK_BYTES, 65)]));
    const chunks = [];
    for await (const chunk of streamChunks(path)) chunks.push(chunk);
    expect(chunks).toEqual([]);
  });
});
