/**
 * Read and select tools and commands the way pi's API reports them: every tool with its JSON
 * Schema, the active set (unknown names are left out with a warning, as pi ignores them), and
 * the command list (extension commands live; templates and skills as of the last listing).
 */
import { toolJsonSchema, type OpenLayer, type ToolRegistryView } from "../../kernel/index.js";
import type { ExtensionHost } from "./host.js";
import type { ExtensionRecord } from "./record.js";
import type { SlashCommandInfo, ToolInfo } from "./types/api.js";

export function allTools(tools: ToolRegistryView): ToolInfo[] {
  const offered = new Map(tools.specs().map((spec) => [spec.name, spec]));
  return tools.names().map((name) => {
    const spec = offered.get(name);
    if (spec) return { name, description: spec.description, parameters: spec.parameters };
    const definition = tools.get(name)!;
    return { name, description: definition.description, parameters: toolJsonSchema(definition) };
  });
}

export function setActiveTools(host: ExtensionHost, record: ExtensionRecord, layer: OpenLayer, names: unknown): void {
  if (!Array.isArray(names) || names.some((name) => typeof name !== "string")) throw new TypeError("setActiveTools: expected an array of tool names");
  const known = names.filter((name) => host.k.tools.get(name) !== undefined);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) host.k.log.warn(`[${record.path}] setActiveTools: no tool named ${unknown.join(", ")} (left out)`);
  layer.setActiveTools([...new Set(known)]);
}

export function commandInfos(host: ExtensionHost): SlashCommandInfo[] {
  host.refreshCommandListing();
  const extensions: SlashCommandInfo[] = host.records.flatMap((record) =>
    [...record.commands].map(([name, options]) => ({ name, ...(typeof options.description === "string" ? { description: options.description } : {}), source: "extension" as const, path: record.path })),
  );
  const others = host.listedCommands.filter((entry) => entry.source !== "extension");
  return [...extensions, ...others.map((entry) => ({ ...entry }))];
}
