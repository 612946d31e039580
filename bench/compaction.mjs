// bench/compaction: `compact` on a 5,000-message session (~2 MB of transcript). Two figures:
// - local work: the built plugins in process (dist/), the planner answered at once by a stub
//   provider, so the whole time is Atomic's own (render, number, parse, rebuild, back up, append,
//   rebuild the context); split into before and after the planner call;
// - over the CLI: the compact round trip with a loopback OpenAI-compatible server as the planner
//   (the planner call now includes the SDK, HTTP and the server reading a 2 MB request).
// Wall and CPU time are both reported: on a shared machine the CPU time is the steadier figure.
// Needs `npm run build`.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { BUILTIN_PLUGINS } from "../dist/cli/builtins.js";
import { createHost, definePlugin, emptyUsage, silentLogger } from "../dist/kernel/index.js";
import { median, startAgent, tempDir } from "./lib.mjs";

const MODEL = { provider: "bench", id: "planner" };
/** How long the stub planner takes to answer (a real one takes seconds). */
const PLANNER_MS = 300;

/** 5,000 messages in turns of user / assistant tool call / tool result / assistant answer. */
function writeSession(path, messages = 5000) {
  const lines = [JSON.stringify({ type: "session", version: 1, id: "0195f0d0-0000-7000-8000-00000000beef", timestamp: new Date(0).toISOString(), cwd: "/tmp" })];
  const usage = { ...emptyUsage(), input: 1000, output: 100, totalTokens: 1100 };
  const assistant = (content, stopReason) => ({
    role: "assistant",
    content,
    api: "openai-completions",
    provider: MODEL.provider,
    model: MODEL.id,
    usage,
    stopReason,
    timestamp: 1,
  });
  let bytes = 0;
  for (let i = 0; i < messages; i++) {
    const turn = Math.floor(i / 4);
    let message;
    switch (i % 4) {
      case 0:
        message = {
          role: "user",
          content: `Step ${turn}: look at src/module-${turn}.ts and fix the failing case in its parser. ${"Keep the public API stable. ".repeat(4)}`,
          timestamp: 1,
        };
        break;
      case 1:
        message = assistant([{ type: "toolCall", id: `c${turn}`, name: "read", arguments: { path: `src/module-${turn}.ts` } }], "toolUse");
        break;
      case 2:
        message = {
          role: "toolResult",
          toolCallId: `c${turn}`,
          toolName: "read",
          content: [{ type: "text", text: Array.from({ length: 16 }, (_, l) => `  const value${l} = parse(input, ${l}); // line ${l} of module ${turn}`).join("\n") }],
          isError: false,
          timestamp: 1,
        };
        break;
      default:
        message = assistant([{ type: "text", text: `Fixed module ${turn}: the parser now handles empty input.\n${"The change is covered by a new test. ".repeat(5)}` }], "stop");
    }
    const line = JSON.stringify({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: new Date(i).toISOString(), message });
    bytes += line.length;
    lines.push(line);
  }
  writeFileSync(path, lines.join("\n") + "\n");
  return bytes;
}

/** Deletes about half the region: every other run of 3 lines (what a real plan looks like). */
function planFor(prompt) {
  const total = Number(/Total physical lines: (\d+)/.exec(prompt)[1]);
  const records = [];
  for (let start = 1; start + 2 <= total; start += 6) records.push(`${start},${start + 2}`);
  return records.join("\n");
}

async function localWork(file, runs) {
  const times = [];
  for (let r = 0; r < runs; r++) {
    const dir = tempDir("atomic-bench-compact-");
    const copy = join(dir, "session.jsonl");
    copyFileSync(file, copy);
    let asked = 0;
    let answered = 0;
    let promptChars = 0;
    let plannerCpu = 0;
    const stub = definePlugin({
      name: "bench-planner",
      apply(k) {
        k.hooks.stream.for("bench-planner").tap(k.name, (request) => {
          asked = performance.now();
          promptChars = request.context.messages[0].content.length;
          // The stub's own work (reading the prompt, writing the plan) is the planner's time.
          const stubCpu = process.cpuUsage();
          const text = planFor(request.context.messages[0].content);
          const spent = process.cpuUsage(stubCpu);
          plannerCpu = (spent.user + spent.system) / 1000;
          const message = {
            role: "assistant",
            content: [{ type: "text", text }],
            api: "bench-planner",
            provider: "bench",
            model: "planner",
            usage: emptyUsage(),
            stopReason: "stop",
            timestamp: Date.now(),
          };
          return (async function* () {
            // A planner takes a while: the backup copy runs meanwhile, as it would in real use.
            await new Promise((resolve) => setTimeout(resolve, PLANNER_MS));
            answered = performance.now();
            yield { type: "done", reason: "stop", message, partial: message };
          })();
        });
      },
    });
    const host = await createHost({ cwd: dir, agentDir: dir, env: {}, plugins: [...BUILTIN_PLUGINS, stub], userPlugins: false, readSettingsFiles: false, log: silentLogger });
    const kernel = host.kernel;
    await kernel.commands.invoke("switch_session", { sessionPath: copy });
    const agent = kernel.services.get("agent");
    await agent.setModel(
      {
        id: "planner",
        name: "planner",
        api: "bench-planner",
        provider: "bench",
        baseUrl: "",
        reasoning: false,
        input: ["text"],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 1_000_000,
        maxTokens: 1000,
      },
      "set",
    );
    // Compaction happens in a settled process, not while startup work and the load's garbage are pending.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await kernel.commands.invoke("compact", {});
    const ended = performance.now();
    const used = process.cpuUsage(cpu);
    const planner = answered - asked;
    times.push({
      total: ended - started - planner,
      cpu: (used.user + used.system) / 1000 - plannerCpu,
      beforePlanner: asked - started,
      afterPlanner: ended - answered,
      stats: result.stats,
      promptChars,
    });
    await host.shutdown("exit");
    rmSync(dir, { recursive: true, force: true });
  }
  return times;
}

/** A loopback OpenAI-compatible server streaming the plan as one chat completion. */
async function plannerServer() {
  const timing = { received: 0, answered: 0 };
  const server = createServer((req, res) => {
    timing.received = performance.now();
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      const text = planFor(body.messages.find((m) => m.role === "user").content);
      const chunk = (delta, finish) =>
        `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(chunk({ role: "assistant", content: text }, null) + chunk({}, "stop") + "data: [DONE]\n\n");
      timing.answered = performance.now();
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, timing, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function overCli(file, runs) {
  const server = await plannerServer();
  const times = [];
  for (let r = 0; r < runs; r++) {
    const agentDir = tempDir("atomic-bench-compact-cli-");
    mkdirSync(agentDir, { recursive: true });
    const providers = { bench: { baseUrl: server.url, api: "openai-completions", apiKey: "k", models: [{ id: "planner", contextWindow: 1_000_000, maxTokens: 1000 }] } };
    writeFileSync(join(agentDir, "models.json"), JSON.stringify({ providers }));
    const copy = join(agentDir, "session.jsonl");
    copyFileSync(file, copy);
    const waiting = new Map();
    const agent = startAgent(["--mode", "rpc", "--model", "bench/planner"], {
      agentDir,
      onLine: (line) => {
        const id = /^\{"id":"([^"]+)"/.exec(line)?.[1];
        if (id && waiting.has(id)) waiting.get(id)(line);
      },
    });
    const request = (command) =>
      new Promise((resolve) => {
        const id = `r${waiting.size}`;
        const t = performance.now();
        waiting.set(id, (line) => resolve({ ms: performance.now() - t, sent: t, done: performance.now(), ok: line.includes('"success":true') }));
        agent.send({ ...command, id });
      });
    await request({ type: "switch_session", sessionPath: copy });
    // A compaction never comes first in a session: let the provider SDK warm-up (150 ms after
    // startup) finish, so its one-time module load is not counted as compaction work.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const compact = await request({ type: "compact" });
    agent.child.stdin.end();
    await agent.exited;
    rmSync(agentDir, { recursive: true, force: true });
    if (!compact.ok) throw new Error("compact failed over the CLI");
    // Until the planner request reached the server, and from its answer to the response line.
    times.push({ total: compact.ms, before: server.timing.received - compact.sent, after: compact.done - server.timing.answered });
  }
  await server.close();
  return times;
}

export async function benchCompaction({ runs = 7 } = {}) {
  const dir = tempDir("atomic-bench-compact-src-");
  const file = join(dir, "session.jsonl");
  const bytes = writeSession(file);
  const local = await localWork(file, runs);
  const cli = await overCli(file, Math.max(3, Math.floor(runs / 2)));
  rmSync(dir, { recursive: true, force: true });
  const stats = local[0].stats;
  return {
    messages: 5000,
    sessionFileMB: +(bytes / 1e6).toFixed(2),
    plannerPromptMB: +(local[0].promptChars / 1e6).toFixed(2),
    regionLines: stats.linesBefore,
    linesKept: stats.linesKept,
    /** The first compaction in a process (nothing compiled yet), then the median of the others. */
    localWorkColdMs: +local[0].total.toFixed(1),
    localWorkMs: +median(local.slice(1).map((t) => t.total)).toFixed(1),
    /** CPU time of the same (all threads, GC included; the stub's own CPU taken off): steadier than wall time on a busy machine. */
    localWorkCpuMs: +median(local.slice(1).map((t) => t.cpu)).toFixed(1),
    beforePlannerMs: +median(local.slice(1).map((t) => t.beforePlanner)).toFixed(1),
    afterPlannerMs: +median(local.slice(1).map((t) => t.afterPlanner)).toFixed(1),
    cliRoundTripMs: +median(cli.map((t) => t.total)).toFixed(1),
    cliBeforePlannerMs: +median(cli.map((t) => t.before)).toFixed(1),
    cliAfterPlannerMs: +median(cli.map((t) => t.after)).toFixed(1),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchCompaction()));
