// bench/skills: discovery cost of skills and prompt templates over RPC. N skills (nested two to a
// group folder) and N/5 templates in the agent dir; `get_commands` timed cold (every file parsed)
// and warm (re-scan of an unchanged tree: listings and stats only), against the same process
// with no resources (the protocol round trip).
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { median, startAgent, tempDir } from "./lib.mjs";

function populate(agentDir, skills) {
  for (let i = 0; i < skills; i++) {
    const dir = join(agentDir, "skills", `group-${Math.floor(i / 2)}`, `skill-${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "SKILL.md"),
      `---\nname: skill-${i}\ndescription: Benchmark skill number ${i}, for tasks of kind ${i % 17}.\nlicense: MIT\n---\n# Skill ${i}\n\n${"Step text. ".repeat(200)}\n`,
    );
  }
  mkdirSync(join(agentDir, "prompts"), { recursive: true });
  for (let i = 0; i < skills / 5; i++) writeFileSync(join(agentDir, "prompts", `t-${i}.md`), `---\ndescription: Template ${i}\n---\nDo $1 with ${"words ".repeat(50)}\n`);
}

async function measure(skills, warmRuns) {
  const agentDir = tempDir("atomic-bench-skills-");
  populate(agentDir, skills);
  const waiting = new Map();
  const agent = startAgent(["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"], {
    agentDir,
    onLine: (line) => {
      const match = /"id":(\d+)/.exec(line);
      if (match && waiting.has(Number(match[1]))) waiting.get(Number(match[1]))(line);
    },
  });
  let id = 0;
  const call = async (command) => {
    const t = performance.now();
    const current = ++id;
    const line = await new Promise((resolve) => {
      waiting.set(current, resolve);
      agent.send({ ...command, id: current });
    });
    return { ms: performance.now() - t, line };
  };
  await call({ type: "get_state" });
  const cold = await call({ type: "get_commands" });
  const count = (cold.line.match(/"source":/g) ?? []).length;
  const warm = [];
  for (let i = 0; i < warmRuns; i++) warm.push((await call({ type: "get_commands" })).ms);
  agent.child.stdin.end();
  await agent.exited;
  rmSync(agentDir, { recursive: true, force: true });
  return { skills, commands: count, coldMs: +cold.ms.toFixed(1), warmMedianMs: +median(warm).toFixed(1) };
}

export async function benchSkills(sizes = [0, 500, 2000], warmRuns = 21) {
  const results = [];
  for (const size of sizes) results.push(await measure(size, warmRuns));
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(JSON.stringify(await benchSkills(), null, 2));
