#!/usr/bin/env node
// The README demo: a short scripted RPC client driving `atomic --mode rpc` on the bundled
// offline cassette (replay/demo) in a fresh temp folder. No network, no API key. The temp
// folders are removed at the end (pass --keep to look at them afterwards).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli/atomic.cjs", import.meta.url));
const workdir = mkdtempSync(join(tmpdir(), "atomic-demo-"));
const agentDir = mkdtempSync(join(tmpdir(), "atomic-demo-agent-"));
const dim = (s) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);
const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const keep = process.argv.includes("--keep");
const cleanUp = () => {
  if (keep) return console.log(dim(`(kept ${workdir} and ${agentDir})`));
  for (const dir of [workdir, agentDir]) rmSync(dir, { recursive: true, force: true });
};

console.log(bold(`Atomic demo - working folder ${workdir}`));
const agent = spawn(process.execPath, [cli, "--mode", "rpc", "--provider", "replay", "--model", "demo"], {
  cwd: workdir,
  env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir },
  stdio: ["pipe", "pipe", "inherit"],
});
const send = (command) => {
  console.log(dim(`-> ${JSON.stringify(command)}`));
  agent.stdin.write(JSON.stringify(command) + "\n");
};

// Strict JSONL: split on LF only (never readline, which also splits on U+2028/U+2029).
let buffer = "";
let streamingText = false;
agent.stdout.setEncoding("utf8");
agent.stdout.on("data", (chunk) => {
  buffer += chunk;
  for (let i = buffer.indexOf("\n"); i >= 0; i = buffer.indexOf("\n")) {
    const line = buffer.slice(0, i);
    buffer = buffer.slice(i + 1);
    onRecord(JSON.parse(line));
  }
});

function onRecord(record) {
  const endText = () => streamingText && (process.stdout.write("\n"), (streamingText = false));
  switch (record.type) {
    case "response":
      endText();
      console.log(dim(`<- response ${record.command} ${record.success ? "ok" : `failed: ${record.error}`}`));
      if (record.command === "get_state") console.log(dim(`   model ${record.data.model.provider}/${record.data.model.id}, session ${record.data.sessionId}`));
      if (record.command === "get_session_stats" && record.success) {
        const { totalMessages, toolCalls, tokens, sessionFile } = record.data;
        console.log(dim(`   ${totalMessages} messages, ${toolCalls} tool calls, ${tokens.total} tokens; session saved in ${sessionFile}`));
      }
      break;
    case "message_update": {
      const event = record.assistantMessageEvent;
      if (event.type === "text_delta") {
        if (!streamingText) process.stdout.write(bold("assistant: ")), (streamingText = true);
        process.stdout.write(event.delta);
      }
      break;
    }
    case "tool_execution_start":
      endText();
      console.log(`tool ${bold(record.toolName)} ${JSON.stringify(record.args)}`);
      break;
    case "tool_execution_end":
      console.log(`  -> ${record.isError ? "error: " : ""}${record.result.content.map((c) => c.text ?? "[image]").join("")}`);
      break;
    case "agent_end":
      endText();
      console.log(dim(`<- agent_end (${record.messages.length} messages this run)`));
      send({ type: "get_session_stats", id: "stats" });
      setTimeout(() => agent.stdin.end(), 50);
      break;
    default:
      if (["agent_start", "turn_start", "turn_end", "message_start", "message_end"].includes(record.type)) {
        endText();
        console.log(dim(`<- ${record.type}${record.message ? ` (${record.message.role})` : ""}`));
      }
  }
}

agent.on("exit", (code) => {
  try {
    console.log(bold("\nFile written by the agent's tool call:"));
    console.log(readFileSync(join(workdir, "notes", "hello.md"), "utf8"));
  } catch (error) {
    console.log(`(missing: ${error.message})`);
  }
  cleanUp();
  process.exit(code ?? 1);
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => agent.kill(signal));

send({ type: "get_state", id: "state" });
send({ type: "prompt", id: "p1", message: "Create a notes file saying hello, then show me it exists." });
