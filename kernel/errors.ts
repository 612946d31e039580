/**
 * One catalogue of coded errors. Everything that crosses the protocol edge goes through
 * `toKernelError`, so no raw exception or stack reaches a client.
 */
import { dirname, isAbsolute, sep } from "node:path";
import { fileURLToPath } from "node:url";

export const ErrorCode = {
  KERNEL_FROZEN: "E_KERNEL_FROZEN",
  DUPLICATE: "E_DUPLICATE",
  PLUGIN_INVALID: "E_PLUGIN_INVALID",
  PLUGIN_LOAD: "E_PLUGIN_LOAD",
  PLUGIN_MISSING_DEPENDENCY: "E_PLUGIN_MISSING_DEPENDENCY",
  PLUGIN_CYCLE: "E_PLUGIN_CYCLE",
  PLUGIN_BOOT_TIMEOUT: "E_PLUGIN_BOOT_TIMEOUT",
  HOOK_FAILED: "E_HOOK_FAILED",
  UNKNOWN_COMMAND: "E_UNKNOWN_COMMAND",
  INVALID_INPUT: "E_INVALID_INPUT",
  SERVICE_MISSING: "E_SERVICE_MISSING",
  CONFIG_INVALID: "E_CONFIG_INVALID",
  NOT_FOUND: "E_NOT_FOUND",
  CONFLICT: "E_CONFLICT",
  /** A file another agent or process holds by its lock (the server mode maps it to its own "in use" code). */
  IN_USE: "E_IN_USE",
  UNAVAILABLE: "E_UNAVAILABLE",
  CANCELLED: "E_CANCELLED",
  USAGE: "E_USAGE",
  INTERNAL: "E_INTERNAL",
} as const;

export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];

export interface KernelErrorInit {
  plugin?: string;
  hook?: string;
  cause?: unknown;
}

/** A coded error. `message` is the client-facing text; `plugin`/`hook` say where it came from. */
export class KernelError extends Error {
  readonly code: ErrorCodeValue;
  readonly plugin?: string;
  readonly hook?: string;

  constructor(code: ErrorCodeValue, message: string, init: KernelErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = "KernelError";
    this.code = code;
    if (init.plugin !== undefined) this.plugin = init.plugin;
    if (init.hook !== undefined) this.hook = init.hook;
  }
}

/** Duck-typed: a user plugin may hold its own copy of the kernel module. */
export function isKernelError(value: unknown): value is KernelError {
  return value instanceof KernelError || (value instanceof Error && value.name === "KernelError" && typeof (value as { code?: unknown }).code === "string");
}

/** Codes anything; an unknown throw keeps its message but never its stack. */
export function toKernelError(value: unknown): KernelError {
  if (isKernelError(value)) return value;
  if (value instanceof Error) return new KernelError(ErrorCode.INTERNAL, value.message || value.name, { cause: value });
  return new KernelError(ErrorCode.INTERNAL, typeof value === "string" ? value : safeString(value));
}

/**
 * Where a tap named by its file (an extension) threw: the first stack frame in that file, else in
 * its folder outside node_modules (a package's other modules), as `path:line:column`. One line
 * for a report, where the whole stack would drown it.
 */
export function thrownAt(error: unknown, file: string): string | undefined {
  if (!(error instanceof Error) || typeof error.stack !== "string" || !isAbsolute(file)) return undefined;
  const frames = error.stack.split("\n").flatMap((line) => {
    const frame = line.trim();
    if (!frame.startsWith("at ")) return [];
    const location = frame.endsWith(")") && frame.includes(" (") ? frame.slice(frame.lastIndexOf(" (") + 2, -1) : frame.replace(/^at (async )?/, "");
    const match = /^(.+):(\d+):(\d+)$/.exec(location);
    if (!match) return [];
    const path = match[1]!.startsWith("file://") ? fileURLToPath(match[1]!) : match[1]!;
    return [{ path, at: `${path}:${match[2]}:${match[3]}` }];
  });
  const folder = dirname(file) + sep;
  const inFolder = (path: string) => path.startsWith(folder) && !path.includes(`${sep}node_modules${sep}`);
  return (frames.find((frame) => frame.path === file) ?? frames.find((frame) => inFolder(frame.path)))?.at;
}

function safeString(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** Builders for the errors the kernel raises itself. */
export const kernelErrors = {
  frozen: (what: string) => new KernelError(ErrorCode.KERNEL_FROZEN, `Cannot ${what}: the kernel is frozen after boot. Register from a plugin's apply() or its boot hook.`),
  duplicate: (kind: string, name: string, plugin?: string, existingOwner?: string) =>
    new KernelError(
      ErrorCode.DUPLICATE,
      existingOwner ? `${kind} "${name}" from "${plugin}" is already registered by "${existingOwner}"` : `${kind} "${name}" is already registered`,
      plugin ? { plugin } : {},
    ),
  missingDependency: (plugin: string, dependency: string) =>
    new KernelError(ErrorCode.PLUGIN_MISSING_DEPENDENCY, `Plugin "${plugin}" depends on "${dependency}", which is not loaded`, { plugin }),
  unknownCommand: (type: string) => new KernelError(ErrorCode.UNKNOWN_COMMAND, `Unknown command: ${type}`),
  invalidInput: (message: string) => new KernelError(ErrorCode.INVALID_INPUT, message),
  serviceMissing: (name: string, requiredBy?: string) =>
    new KernelError(
      ErrorCode.SERVICE_MISSING,
      requiredBy ? `Plugin "${requiredBy}" requires the service "${name}", which no loaded plugin provides` : `No plugin provides the service "${name}"`,
      requiredBy ? { plugin: requiredBy } : {},
    ),
  hookFailed: (plugin: string, hook: string, cause: unknown) =>
    new KernelError(ErrorCode.HOOK_FAILED, `[plugin ${plugin}] hook ${hook}: ${cause instanceof Error ? cause.message : String(cause)}`, { plugin, hook, cause }),
};
