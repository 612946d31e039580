/**
 * Hostile scripts: each ends with a clear `Script failed` bounded by the sandbox's own limits
 * (heap limit, stack guard, output limits, the deadline through the interrupt flag and thread
 * termination, the call cap), and the sandbox runs the next script as if nothing happened.
 */
import { afterAll, describe, expect, it } from "vitest";
import { ToolRegistry, type ToolExecutionContext, type ToolResult } from "../../kernel/index.js";
import { closeSandbox, executeCodemode, MAX_CALLS } from "./execute.js";

const registry = new ToolRegistry();
let echoCalls = 0;
registry.register({
  name: "echo",
  description: "Echoes its text.",
  parameters: { jsonSchema: { type: "object", properties: { text: { type: "string" } } } },
  async execute(args) {
    echoCalls++;
    return { content: [{ type: "text", text: String((args as { text?: string }).text ?? "") }] };
  },
});

afterAll(() => closeSandbox());

function context(signal = new AbortController().signal): ToolExecutionContext {
  let count = 0;
  return {
    toolCallId: "cm",
    signal,
    cwd: process.cwd(),
    onUpdate: () => undefined,
    async executeTool(name, args) {
      const toolCallId = `cm/${++count}`;
      const tool = registry.get(name)!;
      const result = await tool.execute(args as Record<string, unknown>, { toolCallId, signal, cwd: process.cwd(), onUpdate: () => undefined });
      return { toolCallId, result, isError: result.isError === true };
    },
  };
}

async function run(code: string, signal?: AbortSignal): Promise<{ result: ToolResult; text: string }> {
  const result = await executeCodemode({ code }, context(signal), { tools: registry, ready: async () => undefined, branch: () => [], appendStore: () => undefined });
  const text = result.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("");
  return { result, text };
}

/** After each hostile script, the sandbox still runs an ordinary one. */
async function stillWorks(): Promise<void> {
  const { text } = await run(`return (await tools.echo({ text: "fine" })) + " " + [1, 2, 3].length;`);
  expect(text).toMatch(/^Script completed\nWall time \d+\.\d seconds\nOutput:\nfine 3$/);
}

describe("hostile scripts", () => {
  it("an infinite loop ends at its deadline", async () => {
    const { result, text } = await run('// @options: {"timeout_ms": 300}\nwhile (true) {}');
    expect(result.isError).toBe(true);
    expect(text).toContain("Script failed");
    expect(text).toContain("Script error:\nScript timed out: Execution timed out after 300 ms");
    await stillWorks();
  }, 30_000);

  it("an infinite loop of awaits (promise jobs only) ends at its deadline", async () => {
    const { text } = await run('// @options: {"timeout_ms": 300}\nwhile (true) await null;');
    expect(text).toContain("Script timed out: Execution timed out after 300 ms");
    await stillWorks();
  }, 30_000);

  it("an abort stops a spinning script at once, with no deadline set", async () => {
    const controller = new AbortController();
    const pending = run("text('spinning'); for (;;) {}", controller.signal);
    setTimeout(() => controller.abort(), 300);
    const { text } = await pending;
    expect(text).toContain("Script failed");
    expect(text).toContain("Script aborted: Execution aborted");
    await stillWorks();
  }, 30_000);

  it("a huge allocation fails with out of memory inside the script (the heap limit)", async () => {
    const { text } = await run('const chunks = []; for (;;) chunks.push("x".repeat(1 << 20) + chunks.length);');
    expect(text).toContain("Script failed");
    expect(text).toMatch(/InternalError: out of memory|RangeError: invalid array length/);
    await stillWorks();
  }, 60_000);

  it("deep recursion throws a RangeError the script cannot escape the stack with", async () => {
    const { text } = await run("function down(n) { return down(n + 1) + 1; }\ndown(0);");
    expect(text).toContain("Script failed");
    expect(text).toContain("RangeError: Maximum call stack size exceeded");
    await stillWorks();
  }, 30_000);

  it("100,000 text() calls pass the output item limit: failed, even when the script catches it", async () => {
    const { text } = await run("try { for (let i = 0; i < 200000; i++) text(''); } catch (error) {}\nreturn 'caught';");
    expect(text).toContain("Script failed");
    expect(text).toContain("RangeError: script output exceeded the limit of 16777216 characters or 100000 text(), image(), and console calls");
    expect(text).not.toContain("caught");
    await stillWorks();
  }, 60_000);

  it("a tool-call storm passes the call cap: failed, the calls made bounded", async () => {
    echoCalls = 0;
    const { text } = await run("const all = []; for (let i = 0; i < 50000; i++) all.push(tools.echo({ text: String(i) }));\nawait Promise.all(all);");
    expect(text).toContain("Script failed");
    expect(text).toContain(`RangeError: the script made more than ${MAX_CALLS} tool and helper calls`);
    expect(echoCalls).toBeLessThanOrEqual(MAX_CALLS);
    await stillWorks();
  }, 60_000);

  it("a promise nothing can settle fails at once", async () => {
    const { text } = await run("await new Promise(() => {});");
    expect(text).toContain("The script is waiting on a promise that can never settle");
    await stillWorks();
  }, 30_000);
});
