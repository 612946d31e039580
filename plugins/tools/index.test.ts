import { describe, expect, it } from "vitest";
import type { PluginContext, ToolDefinition } from "../../kernel/index.js";
import toolsPlugin from "./index.js";
import { createToolRunner } from "./test-harness.js";

describe("tools plugin", () => {
  it("registers the six file tools", async () => {
    const registered: ToolDefinition<any>[] = [];
    await toolsPlugin.apply({ registerTool: (tool: ToolDefinition<any>) => registered.push(tool) } as unknown as PluginContext);
    expect(toolsPlugin.name).toBe("tools");
    expect(registered.map((tool) => tool.name)).toEqual(["read", "edit", "write", "grep", "find", "ls"]);
  });

  it("describes every parameter in the JSON Schema the model sees", async () => {
    const registered: ToolDefinition<any>[] = [];
    await toolsPlugin.apply({ registerTool: (tool: ToolDefinition<any>) => registered.push(tool) } as unknown as PluginContext);
    for (const spec of createToolRunner(registered).registry.specs()) {
      expect(spec.description.length).toBeGreaterThan(100);
      const properties = spec.parameters.properties as Record<string, { description?: string }>;
      for (const [name, property] of Object.entries(properties)) expect(property.description, `${spec.name}.${name}`).toBeTruthy();
    }
  });
});
