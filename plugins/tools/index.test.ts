import { describe, expect, it } from "vitest";
import { ProcessScope, type PluginContext, type ScopeHolder, type ToolDefinition } from "../../kernel/index.js";
import toolsPlugin from "./index.js";
import { createToolRunner } from "./test-harness.js";

/** Just what the plugin's apply() touches. */
function fakeKernel(registered: ToolDefinition<any>[], shared: ScopeHolder = new ProcessScope().holder()): PluginContext {
  return {
    name: "tools",
    shared,
    registerTool: (tool: ToolDefinition<any>) => registered.push(tool),
    config: { cli: { positionals: [] } },
    hooks: { boot_configure: { tap: () => undefined } },
  } as unknown as PluginContext;
}

describe("tools plugin", () => {
  it("registers the six file tools; grep's worker pool is the process scope's, stopped with its last holder", async () => {
    const registered: ToolDefinition<any>[] = [];
    const scope = new ProcessScope();
    const [first, second] = [scope.holder(), scope.holder()];
    await toolsPlugin.apply(fakeKernel(registered, first));
    await toolsPlugin.apply(fakeKernel([], second));
    expect(toolsPlugin.name).toBe("tools");
    expect(registered.map((tool) => tool.name)).toEqual(["read", "edit", "write", "grep", "find", "ls"]);
    expect(scope.keys()).toEqual(["tools.regex-workers"]);
    await first.releaseAll();
    expect(scope.keys()).toEqual(["tools.regex-workers"]);
    await second.releaseAll();
    expect(scope.keys()).toEqual([]);
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
