/**
 * Kernel-free harness for tool tests: a real ToolRegistry (so the zod schema is validated the
 * way the agent loop does), a real temp dir and a real AbortController. Not a test file itself.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ToolRegistry, type ToolDefinition, type ToolResult } from "../../kernel/index.js";

export interface RunOptions {
  cwd: string;
  signal?: AbortSignal;
  onUpdate?: (partial: ToolResult) => void;
}

export function createToolRunner(tools: ToolDefinition<any>[]) {
  const registry = new ToolRegistry();
  for (const tool of tools) registry.register(tool, "test");
  // Every tool under test is offered, those registered inactive by default (grep, find, ls) too.
  registry.setActive(tools.map((tool) => tool.name));
  return {
    registry,
    async run(name: string, args: unknown, options: RunOptions): Promise<ToolResult> {
      const validation = await registry.validate(name, args);
      if (!validation.ok) throw new Error(validation.error);
      return registry.get(name)!.execute(validation.args, {
        toolCallId: "call-1",
        cwd: options.cwd,
        signal: options.signal ?? new AbortController().signal,
        onUpdate: options.onUpdate ?? (() => {}),
      });
    },
  };
}

/** The concatenated text blocks of a result. */
export function textOf(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

export async function makeTempDir(prefix = "atomic-tools-"): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
