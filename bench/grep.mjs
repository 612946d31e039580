// bench/grep: the grep tool (regex in a worker thread, large files streamed) on a generated tree,
// in-process from dist/: time per call, and the longest the event loop was blocked meanwhile
// (a 5 ms interval timer's worst lateness). Needs `npm run build`.
import { mkdirSync, openSync, writeSync, closeSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createGrepTool } from "../dist/plugins/tools/grep.js";
import { median, tempDir } from "./lib.mjs";

function makeTree(root) {
  const line = (i) => `export function handler${i}(request, response) { return response.send(request.body); }\n`;
  for (let d = 0; d < 50; d++) {
    mkdirSync(join(root, "src", `dir${d}`), { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(root, "src", `dir${d}`, `file${f}.ts`), Array.from({ length: 25 }, (_, i) => line(i)).join(""));
  }
  const fd = openSync(join(root, "big.log"), "w");
  const block = Buffer.from("INFO request served in 3 ms\n".repeat(40_000));
  for (let written = 0; written < 64 * 1024 * 1024; written += block.length) writeSync(fd, block);
  writeSync(fd, "ERROR disk full\n");
  closeSync(fd);
}

async function timed(args, cwd) {
  let worst = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 5);
    last = now;
  }, 5);
  const started = performance.now();
  const result = await grepTool.execute(args, { cwd, signal: new AbortController().signal, toolCallId: "bench", onUpdate() {} });
  const ms = performance.now() - started;
  clearInterval(probe);
  return { ms, blocked: worst, text: result.content[0].text };
}

// One tool for all calls, as in the CLI: its regex worker is kept between calls.
const grepTool = createGrepTool();

export async function benchGrep({ runs = 5 } = {}) {
  const root = tempDir("atomic-bench-grep-");
  makeTree(root);
  const cases = {
    "5,000 files, no match": { pattern: "zzz_not_there", path: "src" },
    "5,000 files, 100 matches (limit)": { pattern: "handler1\\d\\(", path: "src" },
    "64 MB log, match on the last line": { pattern: "ERROR", path: "big.log" },
    "one small file": { pattern: "handler3", path: "src/dir0/file0.ts" },
  };
  const results = {};
  for (const [name, args] of Object.entries(cases)) {
    const samples = [];
    for (let r = 0; r < runs; r++) samples.push(await timed(args, root));
    results[name] = { ms: Math.round(median(samples.map((s) => s.ms))), loopBlockedMs: Math.round(median(samples.map((s) => s.blocked))) };
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchGrep(), null, 2));
