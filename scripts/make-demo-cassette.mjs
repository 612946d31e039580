// Regenerates plugins/provider-replay/cassettes/demo.jsonl (the README demo's recorded turns).
import { writeFileSync } from "node:fs";

const lines = [{ type: "cassette", version: 1, name: "demo", description: "Writes a file, reads it back, then summarises.", eventDelayMs: 20 }];
const words = (text) => text.match(/\S+\s*/g);
function text(index, body) {
  lines.push({ type: "text_start", contentIndex: index });
  for (const w of words(body)) lines.push({ type: "text_delta", contentIndex: index, delta: w });
  lines.push({ type: "text_end", contentIndex: index });
}
function tool(index, id, name, args) {
  const json = JSON.stringify(args);
  lines.push({ type: "toolcall_start", contentIndex: index, id, name });
  for (let i = 0; i < json.length; i += 12) lines.push({ type: "toolcall_delta", contentIndex: index, delta: json.slice(i, i + 12) });
  lines.push({ type: "toolcall_end", contentIndex: index });
}
lines.push({ type: "turn" });
text(0, "I'll create a small notes file in this folder, then check that it is there.");
tool(1, "call_demo_write", "write", { path: "notes/hello.md", content: "# Hello from Atomic\n\nThis file was written by the offline replay demo.\n" });
lines.push({ type: "done", reason: "toolUse", usage: { input: 412, output: 58 } });
lines.push({ type: "turn" });
text(0, "The file is written. Let me read it back to confirm.");
tool(1, "call_demo_read", "read", { path: "notes/hello.md" });
lines.push({ type: "done", reason: "toolUse", usage: { input: 530, output: 31 } });
lines.push({ type: "turn" });
text(0, "Done. I created `notes/hello.md` with a short greeting, and reading it back shows the greeting is there.");
lines.push({ type: "done", reason: "stop", usage: { input: 601, output: 29 } });
writeFileSync(new URL("../plugins/provider-replay/cassettes/demo.jsonl", import.meta.url), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
