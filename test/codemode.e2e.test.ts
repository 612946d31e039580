/**
 * The codemode tool over the built CLI: scripts the fake LLM sends as tool calls run in the
 * QuickJS sandbox, their tool calls go through the same pipeline as the model's own (an
 * extension's tool_call handler blocks one; the client sees each nested tool_execution_* with
 * parentToolCallId), `--tools +codemode,-write` and `defaultTools: ["+codemode"]` turn it on, and
 * store()/load() values follow the session's branches and survive a resume.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { RpcClient, tempDir, type Record_ } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };

afterEach(async () => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) await c.close();
  fake.setDefault({ text: "ok" });
});

const GUARD = `export default function (pi) {
  pi.registerTool({
    name: "weather",
    label: "Weather",
    description: "The weather in a city.",
    promptGuidelines: ["Ask for one city at a time."],
    parameters: { type: "object", properties: { city: { type: "string", description: "The city" } }, required: ["city"] },
    outputSchema: { type: "object", properties: { city: { type: "string" }, sky: { type: "string" } }, required: ["city", "sky"] },
    exposure: "codemode",
    async execute(_id, params) {
      return { content: [{ type: "text", text: "sunny" }], structuredContent: { city: params.city, sky: "sunny" } };
    },
  });
  pi.on("tool_call", async (event) => {
    if (event.toolName === "bash" && String(event.input.command).includes("forbidden")) return { block: true, reason: "bash forbidden by the guard (" + (event.parentToolCallId ?? "top") + ")" };
  });
}
`;

async function start(options: { args?: string[]; settings?: Record<string, unknown>; agentDir?: string; cwd?: string } = {}): Promise<RpcClient> {
  const agentDir = options.agentDir ?? tempDir("atomic-agent-");
  await writeModelsJson(agentDir, fake.url);
  if (options.settings) writeFileSync(join(agentDir, "settings.json"), JSON.stringify(options.settings));
  const extension = join(tempDir("atomic-ext-"), "guard.js");
  writeFileSync(extension, GUARD);
  const c = new RpcClient({
    agentDir,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    args: ["--mode", "rpc", "--model", "fake-openai/fake-1", "-e", extension, ...(options.args ?? [])],
    env: NO_KEYS,
  });
  clients.push(c);
  return c;
}

/** Sends one prompt whose reply is a codemode call with `code`; resolves with that call's tool_execution_end. */
async function runScript(c: RpcClient, code: string, id = "cm1"): Promise<{ end: Record_; from: number }> {
  fake.script({ toolCalls: [{ id, name: "codemode", args: { code } }] }, { text: "done" });
  const from = c.records.length;
  await c.ok({ type: "prompt", message: "run it" });
  await c.waitForEvent("agent_settled", 30_000, from);
  const end = c.records.slice(from).find((r) => r.type === "tool_execution_end" && r.toolCallId === id)!;
  if (!end) throw new Error(`no end: ${JSON.stringify(c.records.slice(from)).slice(0, 3000)} ${c.stderr}`);
  return { end, from };
}

const resultText = (end: Record_) =>
  ((end.result as { content: { type: string; text?: string }[] }).content ?? [])
    .map((part) => part.text ?? `[${part.type}]`)
    .join("")
    .replace(/Wall time \d+\.\d seconds/, "Wall time X seconds");

describe("codemode", () => {
  it("--tools +codemode,-write: nested calls run through the pipeline, a tool_call handler blocks one, events carry parentToolCallId", async () => {
    const cwd = tempDir("atomic-cwd-");
    writeFileSync(join(cwd, "notes.txt"), "alpha\nbeta\n");
    const c = await start({ args: ["--tools", "+codemode,-write"], cwd });
    const state = await c.ok({ type: "get_state" });
    expect(state).toBeDefined();
    const code = [
      'const [file, shell, blocked] = await Promise.allSettled([tools.read({ path: "notes.txt" }), tools.bash({ command: "echo hi" }), tools.bash({ command: "echo forbidden" })]);',
      "text(file.value.trim());",
      'console.log("shell", shell.status, blocked.status, blocked.reason.message);',
      "return { lines: file.value.trim().split('\\n').length };",
    ].join("\n");
    const { end, from } = await runScript(c, code);
    expect(end.isError).toBe(false);
    expect(resultText(end)).toBe(
      'Script completed\nWall time X seconds\nOutput:\n==> text 1/2 <==\nalpha\nbeta\n==> text 2/2 <==\n{"lines":2}\n<console_output>\nshell fulfilled rejected bash forbidden by the guard (cm1)\n</console_output>',
    );
    const nested = c.records.slice(from).filter((r) => r.type === "tool_execution_start" && r.parentToolCallId === "cm1");
    expect(nested.map((r) => r.toolName).sort()).toEqual(["bash", "bash", "read"]);
    expect(nested.map((r) => r.toolCallId).sort()).toEqual(["cm1/1", "cm1/2", "cm1/3"]);
    const ends = c.records.slice(from).filter((r) => r.type === "tool_execution_end" && r.parentToolCallId === "cm1");
    expect(ends).toHaveLength(3);
    // The request offered codemode next to read, bash and edit, without write.
    const offered = (fake.requests[0]!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(["read", "bash", "edit", "codemode"]));
    expect(offered).not.toContain("write");
    // Nested results never reach the conversation: the model sees one tool result, the script's.
    const messages = (fake.requests[1]!.body.messages as { role: string }[]).filter((m) => m.role === "tool");
    expect(messages).toHaveLength(1);
  });

  it("store()/load() are session entries: each branch sees its own values, a resumed session keeps them", async () => {
    const agentDir = tempDir("atomic-agent-");
    const cwd = tempDir("atomic-cwd-");
    const c = await start({ agentDir, cwd, args: ["--tools", "+codemode"] });
    await runScript(c, 'store("k", "first"); store("other", 1);', "s1");
    await runScript(c, 'store("k", "second"); store("other", undefined);', "s2");
    expect(resultText((await runScript(c, 'return [load("k"), load("other")];', "s3")).end)).toMatch(/\n\["second",null\]$/);
    // A failed script's writes are not kept.
    await runScript(c, 'store("k", "lost"); throw new Error("no");', "s4");
    expect(resultText((await runScript(c, 'return load("k");', "s5")).end)).toMatch(/\nsecond$/);
    const file = String((await c.ok({ type: "get_state" })).sessionFile);
    const entries = ((await c.ok({ type: "get_entries" })).entries as { type: string; customType?: string; data?: unknown }[]).filter((e) => e.customType === "codemode-store");
    expect(entries.map((e) => e.data)).toEqual([
      { set: { k: "first", other: 1 }, delete: [] },
      { set: { k: "second" }, delete: ["other"] },
    ]);
    // Fork before the second prompt: that branch has only the first script's values.
    const { messages } = (await c.ok({ type: "get_fork_messages" })) as { messages: { entryId: string }[] };
    await c.ok({ type: "fork", entryId: messages[1]!.entryId });
    expect(resultText((await runScript(c, 'return [load("k"), load("other")];', "s6")).end)).toMatch(/\n\["first",1\]$/);
    await c.close();
    // Resumed in a new process: the values of that session's branch.
    const resumed = await start({ agentDir, cwd, args: ["--tools", "+codemode", "--session", file] });
    expect(resultText((await runScript(resumed, 'return load("k");', "s7")).end)).toMatch(/\nsecond$/);
  }, 120_000);

  it('defaultTools ["+codemode"] turns it on; a runaway script leaves the agent responsive and abort stops it', async () => {
    const c = await start({ settings: { defaultTools: ["+codemode", "-edit"] }, args: ["--no-session"] });
    fake.script({ toolCalls: [{ id: "spin", name: "codemode", args: { code: 'text("spinning"); await tools.bash({ command: "true" }); for (;;) {}' } }] });
    const from = c.records.length;
    await c.ok({ type: "prompt", message: "spin" });
    // Its nested call has ended: the script runs (and will spin) in its worker.
    await c.waitFor((r) => r.type === "tool_execution_end" && r.toolCallId === "spin/1", 20_000, from);
    const offered = (fake.requests[0]!.body.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(["read", "bash", "write", "codemode"]));
    expect(offered).not.toContain("edit");
    // The script spins in its worker: the agent still answers.
    expect(await c.ok({ type: "get_state" })).toMatchObject({ isStreaming: true });
    await c.ok({ type: "abort" });
    const end = await c.waitFor((r) => r.type === "tool_execution_end" && r.toolCallId === "spin", 20_000, from);
    expect(end.isError).toBe(true);
    expect(resultText(end)).toContain("Script failed");
    expect(resultText(end)).toContain("spinning");
    expect(resultText(end)).toContain("Script aborted");
    expect(resultText(end)).toContain("Tool calls made before the failure (they are not undone): bash (ok)");
    await c.waitForEvent("agent_settled", 20_000, from);
    // And the next script runs.
    expect(resultText((await runScript(c, "return 6 * 7;", "after")).end)).toMatch(/Script completed[\s\S]*\n42$/);
  }, 60_000);

  it('an extension tool with exposure "codemode" is listed for scripts, not declared; mode "only" hides the declared tools', async () => {
    const c = await start({ args: ["--tools", "+codemode", "--no-session"] });
    const { end } = await runScript(c, 'const w = await tools.weather({ city: "Oslo" }); return [w.sky, w.city, ALL_TOOLS.map((t) => t.name)];', "w1");
    expect(resultText(end)).toMatch(/\n\["sunny","Oslo",\["read","bash","edit","write","weather"\]\]$/);
    const tools = fake.requests[0]!.body.tools as { function: { name: string; description: string } }[];
    expect(tools.map((tool) => tool.function.name)).not.toContain("weather");
    const codemode = tools.find((tool) => tool.function.name === "codemode")!.function.description;
    expect(codemode).toContain("### `weather`");
    expect(codemode).toContain("- Ask for one city at a time.");
    expect(codemode).toContain("weather(args: {");
    expect(codemode).not.toContain("### `read`");
    // "on": declared tools say how scripts call them.
    expect(tools.find((tool) => tool.function.name === "bash")!.function.description).toContain(
      "Codemode: `tools.bash(args)` resolves to `{ output, truncated, full_output_path?, exit_code, wall_time_seconds }`.",
    );
    await c.close();

    const only = await start({ args: ["--tools", "+codemode", "--no-session"], settings: { codemode: { mode: "only", inlineBudget: 100000 } } });
    const before = fake.requests.length;
    const { end: readEnd } = await runScript(only, 'await tools.write({ path: "a.txt", content: "x" }); return await tools.read({ path: "a.txt" });', "o1");
    expect(resultText(readEnd)).toMatch(/\nx$/);
    const offered = fake.requests[before]!.body.tools as { function: { name: string; description: string } }[];
    expect(offered.map((tool) => tool.function.name)).toEqual(["codemode"]);
    expect(offered[0]!.function.description).toContain("### `read`");
    // The system prompt names only the declared tools (pi's hidden declarations); "on" names them all.
    expect(systemPrompt(fake.requests[before]!.body)).toMatch(/Available tools:\n- codemode: [^\n]*\n\n/);
    expect(systemPrompt(fake.requests[0]!.body)).toMatch(/Available tools:\n- read: [\s\S]*\n- codemode: /);
  }, 60_000);
});

/** The system message of an OpenAI chat request body. */
function systemPrompt(body: Record<string, unknown>): string {
  const messages = body.messages as { role: string; content: unknown }[];
  const system = messages.find((message) => message.role === "system" || message.role === "developer");
  return typeof system?.content === "string" ? system.content : JSON.stringify(system?.content ?? "");
}
