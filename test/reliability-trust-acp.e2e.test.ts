/**
 * `--approve` in ACP trusts the folder the agent was launched in, not every folder a client
 * opens later with `session/new` (docs/decisions.md, "Following pi 1.x"): a project's
 * `.atomic/extensions` run for the launch folder and for folders the user's `trustedProjects`
 * list, never for another folder. Before, every `session/new` inherited the flag.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { AcpAgent } from "./helpers/acp-client.js";
import { tempDir } from "./helpers/temp.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const fake = useFakeLlm();
const agents: AcpAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

/** A project folder whose extension leaves a marker file when it is loaded (i.e. run). */
function project(prefix: string): { dir: string; marker: string } {
  const dir = tempDir(prefix);
  const marker = join(dir, "extension-ran");
  mkdirSync(join(dir, ".atomic", "extensions"), { recursive: true });
  writeFileSync(
    join(dir, ".atomic", "extensions", "mark.ts"),
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default function () {}\n`,
  );
  return { dir, marker };
}

describe("ACP --approve", () => {
  it("covers the launch folder; another folder's session is trusted only by the user's settings", async () => {
    const launch = project("atomic-launch-");
    const other = project("atomic-other-");
    const listed = project("atomic-listed-");
    const agentDir = tempDir("atomic-agent-");
    await writeModelsJson(agentDir, fake.url);
    const agent = new AcpAgent({
      args: ["--mode", "acp", "--model", "fake-openai/fake-1", "--approve"],
      cwd: launch.dir,
      agentDir,
      env: NO_KEYS,
      settings: { trustedProjects: [listed.dir] },
    });
    agents.push(agent);
    await agent.initialize();

    await agent.newSession(other.dir);
    expect(existsSync(other.marker)).toBe(false);
    expect(agent.stderr).toContain(`Skipped 1 project extension in ${join(other.dir, ".atomic", "extensions")} (untrusted project)`);

    await agent.newSession(launch.dir);
    expect(existsSync(launch.marker)).toBe(true);
    await agent.newSession(listed.dir);
    expect(existsSync(listed.marker)).toBe(true);
  }, 30_000);
});
