/**
 * The tools a script may call: every registered tool another tool may run (the registry's
 * `isCallable`: active `direct` tools, and `codemode`/`deferred` ones whenever registered),
 * except codemode itself, each with what a script is shown of it: its description followed by
 * its prompt guidelines (the system prompt only carries those for declared tools), its JSON
 * Schemas, its namespace.
 */
import { toolJsonSchema, type ToolDefinition, type ToolNamespace, type ToolRegistryView } from "../../kernel/index.js";
import { toIdentifier, toolSample, type DeclaredTool } from "./declarations.js";

export const CODEMODE_TOOL = "codemode";

export interface CatalogTool extends DeclaredTool {
  exposure: NonNullable<ToolDefinition["exposure"]>;
  namespace?: ToolNamespace;
  /** The description and the declaration (describeTool(), ALL_TOOLS). */
  sample: string;
}

/** pi's order of its built-in tools, which its scripts list first; the others follow in registration order. */
const BUILTIN_ORDER = ["read", "bash", "edit", "write", "grep", "find", "ls"];

export function scriptTools(registry: ToolRegistryView): CatalogTool[] {
  const rank = (name: string) => {
    const at = BUILTIN_ORDER.indexOf(name);
    return at === -1 ? BUILTIN_ORDER.length : at;
  };
  return registry
    .names()
    .filter((name) => name !== CODEMODE_TOOL && registry.isCallable(name))
    .sort((a, b) => rank(a) - rank(b))
    .map((name) => catalogTool(registry.get(name)!));
}

export function catalogTool(definition: ToolDefinition): CatalogTool {
  const guidelines = (definition.promptGuidelines ?? []).map((line) => line.trim()).filter((line) => line !== "");
  const description = guidelines.length > 0 ? `${definition.description.trim()}\n\n${guidelines.map((line) => `- ${line}`).join("\n")}` : definition.description;
  const declared: DeclaredTool = {
    name: definition.name,
    description,
    inputSchema: safeSchema(definition),
    ...(definition.outputSchema ? { outputSchema: definition.outputSchema } : {}),
  };
  return {
    ...declared,
    exposure: definition.exposure ?? "direct",
    ...(definition.namespace ? { namespace: definition.namespace } : {}),
    sample: toolSample(declared),
  };
}

/** A schema the converter cannot take is shown as any object rather than failing the listing. */
function safeSchema(definition: ToolDefinition): Record<string, unknown> {
  try {
    return toolJsonSchema(definition);
  } catch {
    return { type: "object" };
  }
}

/** Whether `query` names the namespace: its name or an alias, as written or as the same identifier. */
export function isNamespaceName(namespace: ToolNamespace, query: string): boolean {
  const wanted = toIdentifier(query);
  return [namespace.name, ...(namespace.aliases ?? [])].some((name) => name === query || toIdentifier(name) === wanted);
}
