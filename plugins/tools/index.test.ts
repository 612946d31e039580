import { describe, expect, it } from "vitest";
import type { PluginContext, ToolDefinition } from "../../kernel/index.js";
import toolsPlugin from "./index.js";
import { createToolRunner } from "./test-harness.js";

/** Just what the plugin's apply() touches. */
function fakeKernel(registered: ToolDefinition<any>[], shutdown: (() => Promise<void>)[] = []): PluginContext {
  return {
    name: "tools",
    registerTool: (tool: ToolDefinition<any>) => registered.push(tool),
    config: { cli: { positionals: [] } },
    hooks: { shutdown: { tapPromise: (_: string, fn: () => Promise<void>) => shutdown.push(fn) }, boot_configure: { tap: () => undefined } },
  } as unknown as PluginContext;
}

describe("tools plugin", () => {
  it("registers the six file tools, and stops grep's worker at shutdown", async () => {
    const registered: ToolDefinition<any>[] = [];
    const shutdown: (() => Promise<void>)[] = [];
    await toolsPlugin.apply(fakeKernel(registered, shutdown));
    expect(toolsPlugin.name).toBe("tools");
    expect(registered.map((tool) => tool.name)).toEqual(["read", "edit", "write", "grep", "find", "ls"]);
    expect(shutdown).toHaveLength(1);
    await shutdown[0]!();
  });

  it("describes every parameter in the JSON Schema the model sees", async () => {
    const registered: ToolDefinition<any>[] = [];
    await toolsPlugin.apply(fakeKernel(registered));
    for (const spec of createToolRunner(registered).registry.specs()) {
      expect(spec.description.length).toBeGreaterThan(100);
      const properties = spec.parameters.properties as Record<string, { description?: string }>;
      for (const [name, property] of Object.entries(properties)) expect(property.description, `${spec.name}.${name}`).toBeTruthy();
    }
  });

  it("offers read, edit and write by default; grep, find and ls are registered inactive", async () => {
    const registered: ToolDefinition<any>[] = [];
    await toolsPlugin.apply(fakeKernel(registered));
    expect(registered.filter((tool) => tool.defaultActive !== false).map((tool) => tool.name)).toEqual(["read", "edit", "write"]);
    expect(registered.filter((tool) => tool.defaultActive === false).map((tool) => tool.name)).toEqual(["grep", "find", "ls"]);
  });
});
