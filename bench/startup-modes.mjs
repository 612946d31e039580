// bench/startup-modes: how fast the other entry points answer, each run a fresh process against a
// loopback OpenAI-compatible server. Print mode: spawn -> the answer on stdout -> exit. JSON
// mode: spawn -> the first text_delta line. SDK (a fresh `node` each run): the import of
// atomic-agent/sdk, createAgent, and from createAgent (a prompt sent as soon as it resolves) to
// the first event and to the first text delta.
// Usage: node bench/startup-modes.mjs [runs=11]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { EXPECTED_TEXT, startFakeOpenAi, writeBenchModels } from "./fake-openai.mjs";
import { CLI, median, tempDir } from "./lib.mjs";

const SELF = fileURLToPath(import.meta.url);
// The SDK as the package exports it (the bundled entry).
const SDK = new URL(`../${JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).exports["./sdk"].import}`, import.meta.url).href;
const MODEL = ["--provider", "bench", "--model", "bench-1", "--no-session"];
const round = (value) => +value.toFixed(1);
const stats = (values) => ({ medianMs: round(median(values)), minMs: round(Math.min(...values)), maxMs: round(Math.max(...values)) });

/** Spawns the CLI; resolves with the time the first stdout line matching `match` arrived and the exit. */
function timeCli(args, agentDir, match) {
  const t0 = performance.now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd: agentDir, env: { ...process.env, ATOMIC_CODING_AGENT_DIR: agentDir }, stdio: ["ignore", "pipe", "inherit"] });
  let firstAt;
  let out = "";
  child.stdout.on("data", (chunk) => {
    out += chunk;
    if (firstAt === undefined && out.split("\n").some(match)) firstAt = performance.now() - t0;
  });
  return new Promise((resolve, reject) =>
    child.once("close", (code) =>
      code === 0 && firstAt !== undefined ? resolve({ firstMs: firstAt, exitMs: performance.now() - t0, out }) : reject(new Error(`exit ${code}: ${out.slice(0, 500)}`)),
    ),
  );
}

export async function benchStartupModes(runs = 11) {
  const fake = await startFakeOpenAi();
  const agentDir = tempDir("atomic-bench-modes-");
  writeBenchModels(agentDir, fake.url);
  const print = { answer: [], exit: [] };
  const json = { firstToken: [], exit: [] };
  const sdk = { importMs: [], createMs: [], createToFirstEventMs: [], createToFirstTokenMs: [] };
  for (let i = 0; i < runs; i++) {
    const p = await timeCli(["-p", ...MODEL, "Say hello."], agentDir, (line) => line === EXPECTED_TEXT);
    print.answer.push(p.firstMs);
    print.exit.push(p.exitMs);
    const j = await timeCli(["--mode", "json", ...MODEL, "Say hello."], agentDir, (line) => line.includes('"type":"text_delta"'));
    json.firstToken.push(j.firstMs);
    json.exit.push(j.exitMs);
    // Asynchronously: the fake server answers from this process.
    const child = await new Promise((resolve, reject) => {
      const c = spawn(process.execPath, [SELF, "--sdk-child", agentDir], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      c.stdout.on("data", (chunk) => (out += chunk));
      c.once("close", (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`sdk child exit ${code}`))));
    });
    for (const key of Object.keys(sdk)) sdk[key].push(child[key]);
  }
  await fake.close();
  return {
    runs,
    print: { toAnswer: stats(print.answer), toExit: stats(print.exit) },
    json: { toFirstToken: stats(json.firstToken), toExit: stats(json.exit) },
    sdk: Object.fromEntries(Object.entries(sdk).map(([key, values]) => [key, stats(values)])),
  };
}

/** One SDK start in this fresh process: import, createAgent, prompt -> first event, first token. */
async function sdkChild(agentDir) {
  const t0 = performance.now();
  const { createAgent } = await import(SDK);
  const imported = performance.now();
  const agent = await createAgent({ cwd: agentDir, agentDir, provider: "bench", model: "bench-1", session: false, log: { info() {}, warn() {}, error() {} } });
  const created = performance.now();
  let firstEvent;
  const firstToken = new Promise((resolve) =>
    agent.subscribe((event) => {
      firstEvent ??= performance.now();
      if (event.type === "message_update" && event.assistantMessageEvent.type === "text_delta") resolve(performance.now());
    }),
  );
  await agent.send({ type: "prompt", message: "Say hello." });
  const tokenAt = await firstToken;
  await agent.dispose();
  // From the call to createAgent (the prompt is sent as soon as it resolves).
  process.stdout.write(
    JSON.stringify({ importMs: imported - t0, createMs: created - imported, createToFirstEventMs: firstEvent - imported, createToFirstTokenMs: tokenAt - imported }),
  );
}

if (process.argv[2] === "--sdk-child") await sdkChild(process.argv[3]);
else if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchStartupModes(Number(process.argv[2] ?? 11)), null, 2));
