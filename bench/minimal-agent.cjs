"use strict";
// bench/minimal-agent: the least a Node program can do to pass bench/first-token.mjs's run, as a
// second floor beside the bare `node` one: answer `get_state`, send the prompt to the fake LLM
// over `node:http` and print its first text delta as a `message_update`, then `agent_end`. No
// SDK, no validation, no session, no plugin: what is left of a first token once an agent does
// nothing an agent has to. CommonJS: an ES module costs Node 22 ~45 ms more to start (its module
// loader), which would flatter any agent beside it. `node bench/first-token.mjs RUNS
// $PWD/bench/minimal-agent.cjs` runs it paired with Atomic (`--provider bench-openai|bench-anthropic`,
// the models.json in ATOMIC_CODING_AGENT_DIR that bench/fake-llm.mjs wrote).
const { readFileSync } = require("node:fs");
const { request } = require("node:http");
const { join } = require("node:path");

const provider = process.argv[process.argv.indexOf("--provider") + 1];
const config = JSON.parse(readFileSync(join(process.env.ATOMIC_CODING_AGENT_DIR, "models.json"), "utf8")).providers[provider];
const write = (record) => process.stdout.write(`${JSON.stringify(record)}\n`);

function prompt(text) {
  const anthropic = config.api === "anthropic-messages";
  const url = new URL(anthropic ? `${config.baseUrl}/v1/messages` : `${config.baseUrl}/chat/completions`);
  const body = JSON.stringify({ model: "hello", stream: true, max_tokens: 1024, messages: [{ role: "user", content: text }] });
  const req = request(url, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${config.apiKey}`, "x-api-key": config.apiKey } }, (res) => {
    let buffered = "";
    let answered = false;
    res.setEncoding("utf8");
    res.on("data", (chunk) => {
      buffered += chunk;
      let end;
      while (!answered && (end = buffered.indexOf("\n\n")) >= 0) {
        const event = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const data = event.split("\n").find((line) => line.startsWith("data: "));
        if (!data || data === "data: [DONE]") continue;
        const parsed = JSON.parse(data.slice(6));
        const delta = anthropic ? parsed.delta?.text : parsed.choices?.[0]?.delta?.content;
        if (delta) {
          answered = true;
          write({ type: "message_update", assistantMessageEvent: { type: "text_delta", delta } });
        }
      }
    });
    res.on("end", () => write({ type: "agent_end", messages: [] }));
  });
  req.end(body);
}

let pending = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  pending += chunk;
  let end;
  while ((end = pending.indexOf("\n")) >= 0) {
    const command = JSON.parse(pending.slice(0, end));
    pending = pending.slice(end + 1);
    if (command.type === "get_state") write({ id: command.id, type: "response", command: "get_state", success: true, data: {} });
    else if (command.type === "prompt") prompt(command.message);
  }
});
// The fake LLM keeps the connection alive: the run ends when the bench closes stdin.
process.stdin.on("end", () => process.exit(0));
