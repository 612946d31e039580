/**
 * A cloned project's skills and templates cannot make requests huge (issue 26, item 8): a skill
 * description is cut at 1,024 characters, the system prompt lists at most 100 skills (the
 * user's own before the project's), and a template may add at most 1 Mi characters to its
 * arguments; an expansion that fails is the prompt's error response. Before: 150 skills of
 * 100 KB made each request 15 MB, and `$@` x 80,000 an 8 MB prompt.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson, type RecordedRequest } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const fake = useFakeLlm();
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

function write(path: string, text: string): void {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
}

async function start(setup: (dirs: { agentDir: string; cwd: string }) => void): Promise<RpcClient> {
  const agentDir = tempDir("atomic-agent-");
  const cwd = tempDir("atomic-cwd-");
  await writeModelsJson(agentDir, fake.url);
  setup({ agentDir, cwd });
  const client = new RpcClient({ agentDir, cwd, env: NO_KEYS, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"] });
  clients.push(client);
  return client;
}

const systemText = (request: RecordedRequest) => String((request.body.messages as { role: string; content: string }[])[0]!.content);

describe("untrusted project skills and templates", () => {
  it("150 skills with 100 KB descriptions: 100 listed, the user's included, descriptions cut to 1,024", async () => {
    const c = await start(({ agentDir, cwd }) => {
      for (let i = 0; i < 150; i++) write(join(cwd, ".atomic", "skills", `p${i}`, "SKILL.md"), `---\nname: p${i}\ndescription: ${"d".repeat(100_000)}\n---\nbody\n`);
      for (const name of ["mine-a", "mine-b"]) write(join(agentDir, "skills", name, "SKILL.md"), `---\nname: ${name}\ndescription: My own ${name}\n---\nbody\n`);
    });
    const from = c.records.length;
    expect((await c.request({ type: "prompt", message: "hi" })).success).toBe(true);
    await c.waitForEvent("agent_end", 20_000, from);
    const system = systemText(fake.requests.at(-1)!);
    expect(system.length).toBeLessThan(200_000);
    expect(system.match(/<skill>/g)).toHaveLength(100);
    expect(system).toContain("<name>mine-a</name>");
    expect(system).toContain("<name>mine-b</name>");
    expect(system).toContain(`<description>${"d".repeat(1023)}…</description>`);
    expect(c.stderr).toContain("Listed 100 of 152 skills in the system prompt");
    expect(c.stderr).toMatch(/p0\/SKILL\.md: its description is 100000 characters long; only the first 1024 are used/);
  }, 60_000);

  it("a template that expands past its arguments plus 1 Mi characters is the prompt's error; nothing is sent", async () => {
    const c = await start(({ cwd }) => write(join(cwd, ".atomic", "prompts", "boom.md"), "$@".repeat(80_000)));
    const response = await c.request({ type: "prompt", message: `/boom ${"a".repeat(100)}` });
    expect(response.success).toBe(false);
    expect(response.error).toBe("Cannot expand /boom: the template expands to more than 1048676 characters (its arguments' 100 plus 1048576, the most a template may add)");
    expect(fake.requests).toHaveLength(0);
    // An ordinary template still expands.
    write(join(c.cwd, ".atomic", "prompts", "twice.md"), "$1 and $1");
    const from = c.records.length;
    expect((await c.request({ type: "prompt", message: "/twice x" })).success).toBe(true);
    await c.waitForEvent("agent_end", 20_000, from);
    const user = (fake.requests.at(-1)!.body.messages as { role: string; content: string }[]).filter((m) => m.role === "user").at(-1)!;
    expect(JSON.stringify(user.content)).toContain("x and x");
  }, 60_000);
});
