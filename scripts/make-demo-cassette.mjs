// Regenerates plugins/provider-replay/cassettes/demo.jsonl (the README demo's recorded turns).
// Two tapes: a prompt that asks for a file to be created gets the write; any other prompt gets a
// look at the folder (`ls` through bash, a default tool) that changes nothing: the offline
// default must not touch the user's folder.
import { writeFileSync } from "node:fs";

const lines = [
  {
    type: "cassette",
    version: 1,
    name: "demo",
    description: "Asked to create a file: writes notes/hello.md, reads it back, summarises. Anything else: lists the folder and changes nothing.",
    eventDelayMs: 20,
  },
];
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
lines.push({ type: "tape", when: "\\b(create|write|make|save|add)\\b.*\\b(files?|notes?)\\b" });
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
lines.push({ type: "tape" });
lines.push({ type: "turn" });
text(0, "This is Atomic's offline replay model: it plays back recorded answers and does not read your prompt. Here is a look at this folder, changing nothing.");
tool(1, "call_demo_look", "bash", { command: "ls" });
lines.push({ type: "done", reason: "toolUse", usage: { input: 398, output: 41 } });
lines.push({ type: "turn" });
lines.push({ type: "text_start", contentIndex: 0 });
lines.push({ type: "text_delta", contentIndex: 0, delta: "This folder holds:" });
// The listing itself: a recording cannot know what `ls` prints in the user's folder.
lines.push({ type: "quote_tool_result", contentIndex: 0 });
for (const w of words(
  "Nothing in it was changed. Ask me to create a notes file to see a tool write one, or choose a real model: `atomic --list-models` shows them and which have a key.",
))
  lines.push({ type: "text_delta", contentIndex: 0, delta: w });
lines.push({ type: "text_end", contentIndex: 0 });
lines.push({ type: "done", reason: "stop", usage: { input: 520, output: 44 } });
writeFileSync(new URL("../plugins/provider-replay/cassettes/demo.jsonl", import.meta.url), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
