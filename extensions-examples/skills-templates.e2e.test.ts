/** The example skills and prompt templates, loaded by the real CLI from the `skills` and `prompts` settings. */
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROBE_PLUGIN, probeLog, promptAndSettle, startAgent } from "../test/helpers/agent-harness.js";
import { textTurn, type RpcClient } from "../test/helpers/rpc-client.js";

const SKILLS = resolve(import.meta.dirname, "skills");
const PROMPTS = resolve(import.meta.dirname, "prompts");
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) {
    if (c.child.exitCode === null) c.child.kill("SIGKILL");
    await c.exited;
    for (const dir of [c.agentDir, c.cwd]) rmSync(dir, { recursive: true, force: true });
  }
});

describe("extensions-examples skills and prompts", () => {
  it("are listed, offered to the model, and expand", async () => {
    const c = startAgent({ turns: [textTurn("a"), textTurn("b"), textTurn("c")], settings: { plugins: [PROBE_PLUGIN], skills: [SKILLS], prompts: [PROMPTS] } });
    clients.push(c);
    const listed = await c.ok({ type: "get_commands" });
    // Atomic's own /llama and /mcp come first, as pi 1.6 lists its built-in commands.
    expect(listed.commands.map((e: { name: string; source: string; location: string }) => `${e.source}:${e.name}:${e.location}`)).toEqual([
      "extension:llama:undefined",
      "extension:mcp:undefined",
      "prompt:explain:path",
      "prompt:review:path",
      "skill:skill:commit-message:path",
      "skill:skill:release-notes:path",
    ]);

    await promptAndSettle(c, "/review src/parser.ts");
    await promptAndSettle(c, "/explain the session store");
    await promptAndSettle(c, "/skill:release-notes 1.4.0");
    const { contexts, systemPrompts } = await probeLog(c);
    const lastUser = (context: string[]) => context.filter((line) => line.startsWith("user: ")).at(-1)!;
    expect(lastUser(contexts[0]!)).toMatch(/^user: Review `src\/parser\.ts` with a focus on correctness\.\n\nRead the code/);
    expect(lastUser(contexts[1]!)).toMatch(/^user: Explain how the session store works in this project/);
    expect(lastUser(contexts[2]!)).toMatch(new RegExp(`^user: <skill name="release-notes" location="${SKILLS}/release-notes/SKILL.md">\\n`));
    expect(lastUser(contexts[2]!).endsWith("</skill>\n\n1.4.0")).toBe(true);
    expect(systemPrompts[0]).toContain(`<location>${SKILLS}/commit-message/SKILL.md</location>`);
    expect(c.stderr).not.toContain("Skipped");
  });
});
