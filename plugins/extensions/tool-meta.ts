/**
 * pi 1.x's tool-definition fields beyond what the model is sent: `exposure`, `defaultActive`,
 * `annotations`, `namespace`, `outputSchema`, `reachesTools`, `promptSnippet`. They are checked
 * when the tool is registered, kept per tool name, and reported by `getAllTools()`. `exposure`
 * and `defaultActive` decide the kernel tool's `defaultActive` (pi: registering a `direct` or
 * `model-only` tool activates it unless `defaultActive: false`; `hidden` tools never are).
 * `codemode` and `deferred` tools start inactive; codemode scripts call them (the kernel's
 * `isCallable`), and `codemode` ones are listed in the codemode tool's description.
 */
import { dirname } from "node:path";
import type { ExtensionScope } from "./record.js";
import type { SourceInfo, ToolAnnotations, ToolDefinition, ToolExposure, ToolNamespace } from "./types/api.js";

const EXPOSURES: readonly ToolExposure[] = ["direct", "model-only", "codemode", "deferred", "hidden"];
const HINTS = ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const;

export interface ToolMeta {
  exposure: ToolExposure;
  defaultActive?: boolean;
  annotations?: ToolAnnotations;
  namespace?: ToolNamespace;
  outputSchema?: Record<string, unknown>;
  reachesTools?: (input: Record<string, unknown>) => "all" | readonly string[];
  promptSnippet?: string;
  sourceInfo: SourceInfo;
}

/** The fields as given, checked (a wrong one throws, naming the tool and the field). */
export function toolMetaOf(tool: ToolDefinition<any>, path: string, scope: ExtensionScope): ToolMeta {
  const name = tool.name;
  const bad = (field: string, expected: string) => new TypeError(`registerTool("${name}"): ${field} must be ${expected}`);
  const { exposure = "direct", defaultActive, annotations, namespace, outputSchema, reachesTools, promptSnippet } = tool;
  if (!EXPOSURES.includes(exposure)) throw bad("exposure", `one of ${EXPOSURES.map((value) => `"${value}"`).join(", ")}`);
  if (defaultActive !== undefined && typeof defaultActive !== "boolean") throw bad("defaultActive", "a boolean");
  if (annotations !== undefined) {
    if (typeof annotations !== "object" || annotations === null) throw bad("annotations", "an object of boolean hints");
    for (const hint of HINTS) if (annotations[hint] !== undefined && typeof annotations[hint] !== "boolean") throw bad(`annotations.${hint}`, "a boolean");
  }
  if (namespace !== undefined && (typeof namespace !== "object" || namespace === null || typeof namespace.name !== "string" || namespace.name === ""))
    throw bad("namespace", "an object with a non-empty name");
  if (outputSchema !== undefined && (typeof outputSchema !== "object" || outputSchema === null || Array.isArray(outputSchema))) throw bad("outputSchema", "a JSON Schema object");
  if (reachesTools !== undefined && typeof reachesTools !== "function") throw bad("reachesTools", "a function");
  if (promptSnippet !== undefined && typeof promptSnippet !== "string") throw bad("promptSnippet", "a string");
  return {
    exposure,
    ...(defaultActive !== undefined ? { defaultActive } : {}),
    ...(annotations ? { annotations: { ...annotations } } : {}),
    ...(namespace ? { namespace: { ...namespace } } : {}),
    ...(outputSchema ? { outputSchema: JSON.parse(JSON.stringify(outputSchema)) as Record<string, unknown> } : {}),
    ...(reachesTools ? { reachesTools: (input: Record<string, unknown>) => reachesTools.call(tool, input) } : {}),
    ...(promptSnippet?.trim() ? { promptSnippet: promptSnippet.trim() } : {}),
    sourceInfo: extensionSourceInfo(path, scope),
  };
}

export function activatesOnRegister(meta: ToolMeta): boolean {
  return (meta.exposure === "direct" || meta.exposure === "model-only") && meta.defaultActive !== false;
}

/** Where an extension's registrations come from, in pi's shape. */
export function extensionSourceInfo(path: string, scope: ExtensionScope): SourceInfo {
  return { path, source: "local", scope: scope === "project" ? "project" : scope === "cli" ? "temporary" : "user", origin: "top-level", baseDir: dirname(path) };
}

export function builtinSourceInfo(name: string): SourceInfo {
  return { path: `builtin:${name}`, source: "builtin", scope: "temporary", origin: "top-level" };
}
