// bench/codemode: what a codemode script costs. Needs `npm run build` (uses dist/).
// - sandbox: in process, the sandbox alone (dist's WorkerPool and runScript, calls answered at
//   once): the first script (QuickJS wasm compiled, worker thread started, VM created), a warm
//   script (the kept worker, a fresh VM), and the cost per call from scripts making 0, 10 and
//   1,000 calls.
// - loop: over the CLI with the replay provider, a prompt whose answer makes 10 `read` calls
//   directly against one whose answer is one codemode call making the same 10 calls
//   (Promise.all), prompt -> agent_end, the first prompt of a process apart (cold sandbox).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median, startAgent, tempDir, writeCassette } from "./lib.mjs";

const { WorkerPool } = await import("../dist/plugins/codemode/sandbox/pool.js");
const { runScript } = await import("../dist/plugins/codemode/sandbox/run.js");

async function timeScript(pool, code) {
  const started = performance.now();
  const outcome = await runScript(pool, {
    code,
    tools: [{ name: "echo", jsName: "echo", description: "Echoes" }],
    globals: [],
    store: {},
    workerWaitMs: 60_000,
    maxInFlight: 8,
    maxCalls: 10_000,
    onCall: async (call) => call.args,
  });
  if (!outcome.ok) throw new Error(`script failed: ${JSON.stringify(outcome.error)}`);
  return performance.now() - started;
}

const calls = (n) => `const all = []; for (let i = 0; i < ${n}; i++) all.push(tools.echo({ i })); return (await Promise.all(all)).length;`;

export async function benchCodemodeSandbox({ rounds = 21 } = {}) {
  const pool = new WorkerPool();
  const coldMs = await timeScript(pool, calls(0));
  const warm = [];
  const ten = [];
  const thousand = [];
  for (let i = 0; i < rounds; i++) {
    warm.push(await timeScript(pool, calls(0)));
    ten.push(await timeScript(pool, calls(10)));
    thousand.push(await timeScript(pool, calls(1000)));
  }
  await pool.close();
  const base = median(warm);
  return {
    firstScriptMs: +coldMs.toFixed(1),
    warmScriptMs: +base.toFixed(2),
    tenCallsScriptMs: +median(ten).toFixed(2),
    perCallMsAt10: +((median(ten) - base) / 10).toFixed(3),
    perCallMsAt1000: +((median(thousand) - base) / 1000).toFixed(4),
  };
}

const toolCall = (i, name, args) => [
  { type: "toolcall_start", contentIndex: i, id: `c${i}`, name },
  { type: "toolcall_delta", contentIndex: i, delta: JSON.stringify(args) },
  { type: "toolcall_end", contentIndex: i },
];
const finalText = [
  { type: "text_start", contentIndex: 0 },
  { type: "text_delta", contentIndex: 0, delta: "done" },
  { type: "text_end", contentIndex: 0 },
  { type: "done", reason: "stop", usage: { input: 10, output: 5 } },
];

/** One process, `prompts` prompts replaying the same two turns; prompt -> agent_end of each. */
async function loop(mode, prompts) {
  const agentDir = tempDir(`atomic-bench-codemode-${mode}-`);
  const cwd = tempDir("atomic-bench-codemode-cwd-");
  for (let i = 0; i < 10; i++) writeFileSync(join(cwd, `f${i}.txt`), `file ${i}\n`.repeat(20));
  const first =
    mode === "direct"
      ? Array.from({ length: 10 }, (_, i) => toolCall(i, "read", { path: `f${i}.txt` })).flat()
      : toolCall(0, "codemode", {
          code: "const texts = await Promise.all(Array.from({ length: 10 }, (_, i) => tools.read({ path: `f${i}.txt` })));\nreturn texts.map((t) => t.length);",
        });
  writeCassette(agentDir, `codemode-${mode}`, [[...first, { type: "done", reason: "toolUse", usage: { input: 10, output: 5 } }], finalText]);
  let resolveEnd;
  let failed = 0;
  const agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", `codemode-${mode}`, "--no-session", "--tools", "+codemode"], {
    agentDir,
    cwd,
    onLine: (line) => {
      if (line.includes('"type":"tool_execution_end"') && line.includes('"isError":true')) failed++;
      if (line.startsWith('{"type":"agent_end"')) resolveEnd(performance.now());
    },
  });
  const times = [];
  for (let i = 0; i < prompts; i++) {
    const ended = new Promise((resolve) => (resolveEnd = resolve));
    const t0 = performance.now();
    agent.send({ type: "prompt", id: `p${i}`, message: "go" });
    times.push((await ended) - t0);
  }
  agent.child.stdin.end();
  await agent.exited;
  if (failed > 0) throw new Error(`${mode}: ${failed} tool calls failed`);
  return times;
}

export async function benchCodemodeLoop({ prompts = 16, processes = 3 } = {}) {
  const direct = { first: [], warm: [] };
  const codemode = { first: [], warm: [] };
  for (let i = 0; i < processes; i++) {
    for (const [mode, into] of [
      ["direct", direct],
      ["codemode", codemode],
    ]) {
      const [first, ...rest] = await loop(mode, prompts);
      into.first.push(first);
      into.warm.push(...rest);
    }
  }
  return {
    directFirstPromptMs: +median(direct.first).toFixed(1),
    directPromptMs: +median(direct.warm).toFixed(1),
    codemodeFirstPromptMs: +median(codemode.first).toFixed(1),
    codemodePromptMs: +median(codemode.warm).toFixed(1),
    differenceMs: +(median(codemode.warm) - median(direct.warm)).toFixed(1),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const what = process.argv[2] ?? "all";
  const out = {};
  if (what === "all" || what === "sandbox") out.sandbox = await benchCodemodeSandbox();
  if (what === "all" || what === "loop") out.loop = await benchCodemodeLoop();
  console.log(JSON.stringify(out, null, 2));
}
