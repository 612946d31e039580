// A loopback (127.0.0.1) fake LLM for the benchmarks that go through a real SDK over HTTP:
// OpenAI Chat Completions and Anthropic Messages streaming. Stateless: the model id names the
// answer (`hello`: 8 deltas, `long`: 5,000 deltas), so one server serves any number of agents.
// Run it as its own process (`node bench/fake-llm.mjs` prints {"url":...}) so its work is not
// on the measuring client's event loop; `writeModelsJson` points an agent dir at it.
import { writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

const WORDS = ["alpha ", "beta ", "gamma ", "delta ", "eps ", "zeta ", "eta ", "theta "];

export function answerDeltas(model) {
  const count = model === "long" ? 5000 : 8;
  return Array.from({ length: count }, (_, i) => WORDS[i % WORDS.length]);
}

/** Providers `bench-openai` (openai-completions) and `bench-anthropic`, models `hello` and `long`. */
export function writeModelsJson(agentDir, url) {
  const models = [
    { id: "hello", name: "Bench hello", contextWindow: 128000, maxTokens: 16384 },
    { id: "long", name: "Bench long", contextWindow: 128000, maxTokens: 16384 },
  ];
  const providers = {
    "bench-openai": { baseUrl: `${url}/v1`, api: "openai-completions", apiKey: "bench-key", compat: { supportsDeveloperRole: false, supportsReasoningEffort: false }, models },
    "bench-anthropic": { baseUrl: url, api: "anthropic-messages", apiKey: "bench-key", models },
  };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers }, null, 2));
}

function openAiChunks(model, deltas) {
  const head = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1700000000, model };
  const chunk = (delta, finish_reason = null) => `data: ${JSON.stringify({ ...head, choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
  const usage = { prompt_tokens: 100, completion_tokens: deltas.length, total_tokens: 100 + deltas.length };
  return [
    chunk({ role: "assistant", content: "" }),
    ...deltas.map((content) => chunk({ content })),
    chunk({}, "stop"),
    `data: ${JSON.stringify({ ...head, choices: [], usage })}\n\n`,
    "data: [DONE]\n\n",
  ];
}

function anthropicChunks(model, deltas) {
  const event = (type, data) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  const usage = { input_tokens: 100, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  return [
    event("message_start", { message: { id: "msg_bench", type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage } }),
    event("content_block_start", { index: 0, content_block: { type: "text", text: "" } }),
    ...deltas.map((text) => event("content_block_delta", { index: 0, delta: { type: "text_delta", text } })),
    event("content_block_stop", { index: 0 }),
    event("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: deltas.length } }),
    event("message_stop", {}),
  ];
}

const prepared = new Map();

/**
 * An answer's SSE records, built once per API and model: the server's own preparation (~25 ms
 * for the long answer) would otherwise be counted in every measured prompt.
 */
function preparedChunks(api, model) {
  const key = `${api}\u0000${model}`;
  let chunks = prepared.get(key);
  if (!chunks) {
    chunks = (api === "openai" ? openAiChunks : anthropicChunks)(model, answerDeltas(model));
    prepared.set(key, chunks);
  }
  return chunks;
}

/** One SSE record per write, as a real server flushes them; waits for drain past the buffer. */
async function stream(res, chunks) {
  res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", connection: "keep-alive" });
  for (const chunk of chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
  }
  res.end();
}

export function startFakeLlm(port = 0) {
  const server = createServer((req, res) => {
    const parts = [];
    req.on("data", (part) => parts.push(part));
    req.on("end", () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(parts).toString("utf8"));
      } catch {
        res.writeHead(400).end();
        return;
      }
      if (req.url.endsWith("/chat/completions")) void stream(res, preparedChunks("openai", body.model));
      else if (req.url.endsWith("/messages")) void stream(res, preparedChunks("anthropic", body.model));
      else res.writeHead(404).end();
    });
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve({ server, url: `http://127.0.0.1:${server.address().port}` })));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url } = await startFakeLlm(Number(process.argv[2] ?? 0));
  console.log(JSON.stringify({ url }));
}
