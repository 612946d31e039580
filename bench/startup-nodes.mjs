// bench/startup-nodes: spawn -> `get_state` response on each supported Node major (the pinned
// runtimes of scripts/node-runtime.mjs, installed from the npm registry on first use). Per major:
// the first start with an empty compile cache, then RUNS warm starts; the majors alternate run
// by run, each followed by a bare `node` of the same major answering one line (that Node's own
// floor: the ratio to it is the steadier figure on a loaded machine).
//   node bench/startup-nodes.mjs [RUNS] [MAJORS, e.g. 20,22,24]
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import { nodeRuntime } from "../scripts/node-runtime.mjs";
import { median, startAgent, tempDir } from "./lib.mjs";

async function startOnce(node, agentDir) {
  let agent;
  const done = new Promise((resolve) => {
    agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"], {
      agentDir,
      node,
      onLine: (line) => line.includes('"command":"get_state"') && resolve(performance.now() - agent.t0),
    });
  });
  agent.send({ type: "get_state", id: 1 });
  const ms = await done;
  agent.child.stdin.end();
  await agent.exited;
  return ms;
}

async function bareNode(node) {
  const t0 = performance.now();
  const child = spawn(node, ["-e", 'process.stdin.once("data", () => process.stdout.write("{}\\n"))'], { stdio: ["pipe", "pipe", "inherit"] });
  const answered = new Promise((resolve) => child.stdout.once("data", () => resolve(performance.now() - t0)));
  child.stdin.write('{"type":"get_state"}\n');
  const ms = await answered;
  child.stdin.end();
  await new Promise((resolve) => child.once("exit", resolve));
  return ms;
}

export async function benchStartupNodes({ runs = 15, majors = [20, 22, 24] } = {}) {
  const nodes = await Promise.all(majors.map((major) => nodeRuntime(major)));
  const versions = await Promise.all(
    nodes.map(
      (node) =>
        new Promise((resolve) => {
          const child = spawn(node, ["--version"], { stdio: ["ignore", "pipe", "inherit"] });
          let out = "";
          child.stdout.on("data", (chunk) => (out += chunk));
          child.once("exit", () => resolve(out.trim()));
        }),
    ),
  );
  // One agent dir per major: each keeps the compile cache its Node wrote.
  const dirs = majors.map((major) => tempDir(`atomic-bench-node${major}-`));
  const first = [];
  for (let i = 0; i < majors.length; i++) first.push(await startOnce(nodes[i], dirs[i]));
  const warm = majors.map(() => []);
  const bare = majors.map(() => []);
  for (let run = 0; run < runs; run++) {
    for (let i = 0; i < majors.length; i++) {
      warm[i].push(await startOnce(nodes[i], dirs[i]));
      bare[i].push(await bareNode(nodes[i]));
    }
  }
  return Object.fromEntries(
    majors.map((_major, i) => [
      versions[i],
      {
        firstStartMs: +first[i].toFixed(1),
        warmMedianMs: +median(warm[i]).toFixed(1),
        warmMinMs: +Math.min(...warm[i]).toFixed(1),
        bareNodeMedianMs: +median(bare[i]).toFixed(1),
        xBareNode: +median(warm[i].map((ms, run) => ms / bare[i][run])).toFixed(2),
      },
    ]),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const majors = process.argv[3] ? process.argv[3].split(",").map(Number) : undefined;
  console.log(JSON.stringify(await benchStartupNodes({ runs: Number(process.argv[2] ?? 15), ...(majors ? { majors } : {}) }), null, 2));
}
