/**
 * The claimed stdout (lib/stdout, built) batches the records written before the event loop
 * turns (text joined, Buffers between). Through a real pipe: a burst larger than the buffer limit still reports
 * backpressure, every record arrives once and in order, and flush() delivers the rest before exit.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { NODE } from "./helpers/node.js";

const STDIO = pathToFileURL(resolve(import.meta.dirname, "../dist/lib/stdout/index.js")).href;

// 30,000 records of ~100 bytes (3 MB, three times the 1 MB buffer limit) written in bursts that
// stop only when write() says the pipe is congested.
const WRITER = `
import { claimStdout } from ${JSON.stringify(STDIO)};
const out = claimStdout();
let congested = 0;
for (let i = 0; i < 30000; i++) {
  // Every third record has a Buffer in the middle (as a shared snapshot is written): text joined
  // per batch must still leave in order around it.
  const pad = "x".repeat(80);
  const parts = i % 3 === 0 ? ['{"i":' + i + ',"pad":"', Buffer.from(pad), '"}', "\\n"] : ['{"i":' + i + ',"pad":"' + pad + '"}', "\\n"];
  const accepted = out.writeParts(parts);
  if (!accepted) {
    congested++;
    await new Promise((resolve) => out.onceDrain(resolve));
  }
}
await out.flush();
process.stderr.write(JSON.stringify({ congested }));
process.exit(0);
`;

describe("claimed stdout", () => {
  it("delivers a burst larger than its buffer whole and in order, with backpressure, before exit", async () => {
    const child = spawn(NODE, ["--input-type=module", "-e", WRITER], { stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
    // The burst is buffered until the loop turns, so write() reports congestion past 1 MB
    // however fast this side reads.
    let text = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
    const code = await new Promise((done) => child.once("close", done));
    expect(code).toBe(0);
    const lines = text.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(30000);
    expect(lines.every((line, i) => (JSON.parse(line) as { i: number }).i === i)).toBe(true);
    expect(lines.every((line) => (JSON.parse(line) as { pad: string }).pad === "x".repeat(80))).toBe(true);
    expect((JSON.parse(stderr) as { congested: number }).congested).toBeGreaterThan(0);
  });
});
