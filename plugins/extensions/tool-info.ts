/**
 * Read and select tools and commands the way pi's API reports them: every tool with its JSON
 * Schema, the active set (unknown names are left out with a warning, as pi ignores them), and
 * the command list (extension commands live; templates and skills as of the last listing).
 */
import { toolJsonSchema, type OpenLayer } from "../../kernel/index.js";
import type { ExtensionHost } from "./host.js";
import type { ExtensionRecord } from "./record.js";
import { builtinSourceInfo } from "./tool-meta.js";
import type { SlashCommandInfo, ToolInfo } from "./types/api.js";

export function allTools(host: ExtensionHost): ToolInfo[] {
  const tools = host.k.tools;
  const offered = new Map(tools.specs().map((spec) => [spec.name, spec]));
  return tools.names().map((name) => {
    const spec = offered.get(name);
    const definition = tools.get(name)!;
    const meta = host.toolOwners.has(name) ? host.toolMeta.get(name) : undefined;
    const guidelines = host.toolGuidelines.get(name);
    return {
      name,
      description: spec?.description ?? definition.description,
      parameters: spec?.parameters ?? toolJsonSchema(definition),
      ...(guidelines ? { promptGuidelines: [...guidelines] } : {}),
      exposure: meta?.exposure ?? definition.exposure ?? "direct",
      ...(meta?.namespace ? { namespace: { ...meta.namespace } } : {}),
      ...(meta?.annotations ? { annotations: { ...meta.annotations } } : {}),
      ...(meta?.reachesTools ? { reachesTools: meta.reachesTools } : {}),
      sourceInfo: meta?.sourceInfo ?? builtinSourceInfo(name),
    };
  });
}

export function setActiveTools(host: ExtensionHost, record: ExtensionRecord, layer: OpenLayer, names: unknown): void {
  if (!Array.isArray(names) || names.some((name) => typeof name !== "string")) throw new TypeError("setActiveTools: expected an array of tool names");
  // pi ignores unknown and hidden tools alike.
  const known = names.filter((name) => host.k.tools.get(name) !== undefined && host.toolMeta.get(name)?.exposure !== "hidden");
  const unknown = names.filter((name) => host.k.tools.get(name) === undefined);
  const hidden = names.filter((name) => !known.includes(name) && !unknown.includes(name));
  if (unknown.length > 0) host.k.log.warn(`[${record.path}] setActiveTools: no tool named ${unknown.join(", ")} (left out)`);
  if (hidden.length > 0) host.k.log.warn(`[${record.path}] setActiveTools: ${hidden.join(", ")} ${hidden.length === 1 ? "is" : "are"} hidden (left out)`);
  layer.setActiveTools([...new Set(known)]);
}

export function commandInfos(host: ExtensionHost): SlashCommandInfo[] {
  host.refreshCommandListing();
  const extensions: SlashCommandInfo[] = host.records.flatMap((record) =>
    [...record.commands].map(([name, options]) => ({
      name,
      ...(typeof options.description === "string" ? { description: options.description } : {}),
      source: "extension" as const,
      path: record.path,
    })),
  );
  const others = host.listedCommands.filter((entry) => entry.source !== "extension");
  return [...extensions, ...others.map((entry) => ({ ...entry }))];
}
