// A loopback OpenAI-compatible server for the benchmarks (Chat Completions streaming, the wire
// format the official SDK reads): every request is answered with the same few words, so what is
// measured is Atomic (and the SDK), not a model. test/fake-llm is the full one the tests use.
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const WORDS = ["Hello", " from", " the", " bench", " server", "."];
const SLOW_WORDS = 3_000;
const SLOW_INTERVAL_MS = 4;
const STAMPED_WORDS = 200;
const STAMPED_INTERVAL_MS = 10;
const FAST_WORDS = 4_000;

export async function startFakeOpenAi() {
  let requests = 0;
  const server = createServer((req, res) => {
    if (req.url === "/count") return void res.end(String(requests));
    req.resume();
    req.on("end", () => {
      requests++;
      const base = { id: `chatcmpl-${requests}`, object: "chat.completion.chunk", created: 1_700_000_000, model: "bench-1" };
      const frame = (delta, finish = null) => `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      res.write(frame({ role: "assistant", content: "" }));
      const finish = (words) => {
        res.write(frame({}, "stop"));
        res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: words, total_tokens: 10 + words } })}\n\n`);
        res.end("data: [DONE]\n\n");
      };
      // `/stamped/...`: STAMPED_WORDS words, one every STAMPED_INTERVAL_MS, each the wall-clock ms it was
      // sent at (" @1764950000123.456"): a client on this machine measures each event's delay.
      if (req.url.startsWith("/stamped/")) {
        let sent = 0;
        const timer = setInterval(() => {
          res.write(frame({ content: ` @${(performance.timeOrigin + performance.now()).toFixed(3)}` }));
          if (++sent === STAMPED_WORDS) clearInterval(timer), finish(sent);
        }, STAMPED_INTERVAL_MS);
        return;
      }
      // `/fast/...`: FAST_WORDS words as fast as the socket takes them (a long answer's throughput).
      if (req.url.startsWith("/fast/")) {
        for (let i = 0; i < FAST_WORDS; i++) res.write(frame({ content: " word" }));
        return finish(FAST_WORDS);
      }
      // `/slow/...`: a long answer, one word every SLOW_INTERVAL_MS (an agent streaming for seconds).
      if (req.url.startsWith("/slow/")) {
        let sent = 0;
        const timer = setInterval(() => {
          res.write(frame({ content: " word" }));
          if (++sent === SLOW_WORDS) clearInterval(timer), finish(sent);
        }, SLOW_INTERVAL_MS);
        return;
      }
      for (const word of WORDS) res.write(frame({ content: word }));
      finish(WORDS.length);
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    requests: () => requests,
    close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))),
  };
}

/** `<agentDir>/models.json` with provider `bench` (model `bench-1`) served by the fake. */
export function writeBenchModels(agentDir, url) {
  mkdirSync(agentDir, { recursive: true });
  const model = {
    id: "bench-1",
    name: "Bench",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 100_000,
    maxTokens: 4_096,
  };
  writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers: { bench: { baseUrl: `${url}/v1`, api: "openai-completions", apiKey: "bench-key", models: [model] } } }));
}

export const EXPECTED_TEXT = WORDS.join("");

/**
 * The same server in its own process, so a benchmark's CPU time is Atomic's alone: resolves
 * with its URL, a request counter read over HTTP, and `close()`.
 */
export async function spawnFakeOpenAi() {
  const { spawn } = await import("node:child_process");
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname, "--serve"], { stdio: ["ignore", "pipe", "inherit"] });
  const url = await new Promise((resolve, reject) => {
    child.stdout.once("data", (chunk) => resolve(String(chunk).trim()));
    child.once("exit", (code) => reject(new Error(`fake server exited with ${code}`)));
  });
  return {
    url,
    requests: async () => Number(await (await fetch(`${url}/count`)).text()),
    close: () => new Promise((resolve) => (child.once("exit", resolve), child.kill())),
  };
}

if (process.argv[2] === "--serve") {
  const fake = await startFakeOpenAi();
  process.stdout.write(`${fake.url}\n`);
}
