/**
 * The `mcpServers` configuration shape (Claude Code, Cursor and pi read it too): stdio servers
 * (`command`, `args`, `env`, `cwd`) and HTTP servers (`url`, `headers`, `type` http or sse), with
 * `enabled`, `description`, `timeout` (seconds), `exposure` and `toolExposure`. Validated with
 * zod; every error names its source and the key path (`mcpServers.docs.headers`). Values are
 * kept as written: `${VAR}` references are resolved when the server starts (resolve.ts).
 */
import { z } from "zod";
import { formatValidationError, ONE_SHOT } from "../../kernel/index.js";
import type { McpExposure, McpServerSource } from "./api.js";
import { ENTRY_KEYS, fileKeyProblems, slipHint, slippedKey, type FileProblem } from "./config-keys.js";

/** Letters, digits, `_` and `-`: tool names are built from it. */
/** `mcp.connectTimeout` when the settings set none, in seconds: the agent's and `atomic mcp test`'s. */
export const DEFAULT_CONNECT_TIMEOUT_S = 60;

export const SERVER_NAME = /^[A-Za-z0-9_-]+$/;

interface CommonConfig {
  description?: string;
  enabled: boolean;
  /** Seconds a request (a tool call, a resource read) may take; progress notifications renew it. */
  timeout?: number;
  exposure?: McpExposure;
  /** Per tool: an exact server tool name or a `*` pattern. */
  toolExposure: Record<string, McpExposure>;
}

export interface StdioConfig extends CommonConfig {
  type: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface HttpConfig extends CommonConfig {
  /** `http`: streamable HTTP, falling back to SSE for older servers; `sse`: SSE only. */
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
}

export type McpServerConfig = StdioConfig | HttpConfig;

export interface ServerEntry {
  name: string;
  config: McpServerConfig;
  source: McpServerSource;
  /** The file (user, project) or the extension (extension) it came from. */
  origin?: string;
  /** The entry as written, for a project override to merge into. */
  raw: Record<string, unknown>;
}

/** An entry that only changes `enabled`/`exposure`/`toolExposure` of a user server of the same name. */
export const OVERRIDE_KEYS = ["enabled", "exposure", "toolExposure"] as const;

const OAUTH_UNSUPPORTED =
  'OAuth sign-in is not supported by Atomic; send a token in "headers" instead (e.g. "Authorization": "Bearer ${TOKEN}", or `atomic mcp add --bearer-token-env-var TOKEN`)';

let schemas: ReturnType<typeof buildSchemas> | undefined;

function buildSchemas() {
  // `codemode-deferred` is pi's old name for `codemode`.
  const exposure = z
    .enum(["direct", "deferred", "hidden", "codemode", "codemode-deferred"])
    .transform((value): McpExposure => (value === "codemode-deferred" ? "codemode" : value));
  const strings = z.record(z.string(), z.string());
  const common = {
    description: z.string().optional(),
    enabled: z.boolean().optional(),
    // Cline's and Roo's files say `disabled`.
    disabled: z.boolean().optional(),
    timeout: z.number().positive().optional(),
    exposure: exposure.optional(),
    toolExposure: z.record(z.string(), exposure).optional(),
    oauth: z
      .unknown()
      .refine((value) => value === undefined, OAUTH_UNSUPPORTED)
      .optional(),
  };
  const stdio = z.object({
    ...common,
    type: z.literal("stdio").optional(),
    command: z.string().min(1),
    args: z.array(z.string()).optional(),
    env: strings.optional(),
    cwd: z.string().optional(),
  });
  const http = z.object({
    ...common,
    type: z.enum(["http", "streamable-http", "sse"]).optional(),
    url: z.string().refine(isHttpUrl, "an http:// or https:// URL"),
    headers: strings.optional(),
  });
  const override = z.object({ enabled: z.boolean().optional(), exposure: exposure.optional(), toolExposure: z.record(z.string(), exposure).optional() }).strict();
  const file = z.object({ mcpServers: z.record(z.string(), z.unknown()).optional(), autoEnableCodemode: z.unknown().optional() });
  return { stdio, http, override, file, exposure };
}

/** `${VAR}` references are resolved at start: checked here with a stand-in value. */
function isHttpUrl(text: string): boolean {
  try {
    return /^https?:$/.test(new URL(text.replace(/\$\{[^}]*\}/g, "0")).protocol);
  } catch {
    return false;
  }
}

function getSchemas() {
  return (schemas ??= buildSchemas());
}

export type EntryResult = { ok: true; config: McpServerConfig } | { ok: false; error: string };

/**
 * Validates one entry. `path` prefixes the key path in errors (`mcpServers.docs`). A `command`
 * makes a stdio server, a `url` an HTTP one; anything else is an error saying which is missing.
 */
export function parseServerEntry(name: string, raw: unknown, path: string): EntryResult {
  const fail = (error: string): EntryResult => ({ ok: false, error });
  if (!SERVER_NAME.test(name)) return fail(`Invalid ${path}: a server name may contain only letters, digits, "_" and "-"`);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return fail(`Invalid ${path}: expected an object`);
  const entry = raw as Record<string, unknown>;
  const { stdio, http } = getSchemas();
  const isStdio = entry.command !== undefined || entry.type === "stdio";
  if (!isStdio && entry.url === undefined)
    return fail(`Invalid ${path}: expected "command" (a stdio server) or "url" (an HTTP server)${slipHint(entry, ENTRY_KEYS, ["command", "url"])}`);
  const slip = slippedKey(entry, ENTRY_KEYS);
  if (slip) return fail(`Invalid ${path}.${slip.key}: unknown key (did you mean "${slip.meant}"?)`);
  const parsed = (isStdio ? stdio : http).safeParse(entry, ONE_SHOT);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    if (issue?.path[0] === "oauth") return fail(`Invalid ${path}.oauth: ${OAUTH_UNSUPPORTED}`);
    return fail(prefixed(formatValidationError(parsed.error), path));
  }
  const value = parsed.data;
  const toolExposure = toolExposureAsWritten(entry.toolExposure, `${path}.toolExposure`);
  if (typeof toolExposure === "string") return fail(toolExposure);
  const common = {
    ...(value.description !== undefined ? { description: value.description } : {}),
    enabled: value.enabled ?? (value.disabled === undefined ? true : !value.disabled),
    ...(value.timeout !== undefined ? { timeout: value.timeout } : {}),
    ...(value.exposure !== undefined ? { exposure: value.exposure } : {}),
    toolExposure,
  };
  if ("command" in value) {
    return {
      ok: true,
      config: { ...common, type: "stdio", command: value.command, args: value.args ?? [], env: value.env ?? {}, ...(value.cwd !== undefined ? { cwd: value.cwd } : {}) },
    };
  }
  const type = value.type === "sse" ? "sse" : "http";
  return { ok: true, config: { ...common, type, url: value.url, headers: value.headers ?? {} } };
}

/**
 * `toolExposure` keyed by tool names exactly as written, in an object without a prototype: a tool
 * may be named `__proto__` or `constructor` (zod's record drops a `__proto__` key, and a plain
 * object answers `constructor` with its own). Returns the error message for a bad value.
 */
function toolExposureAsWritten(raw: unknown, path: string): Record<string, McpExposure> | string {
  const map = Object.create(null) as Record<string, McpExposure>;
  if (raw === undefined) return map;
  const exposure = getSchemas().exposure;
  for (const [tool, value] of Object.entries(raw as Record<string, unknown>)) {
    const parsed = exposure.safeParse(value, ONE_SHOT);
    if (!parsed.success) return prefixed(formatValidationError(parsed.error), `${path}.${tool}`);
    map[tool] = parsed.data;
  }
  return map;
}

/** `Invalid args.0: ...` under `mcpServers.fs` reads `Invalid mcpServers.fs.args.0: ...`. */
function prefixed(message: string, path: string): string {
  return message.replace(/^Invalid (input|\S+):/, (_, key: string) => `Invalid ${key === "input" ? path : `${path}.${key}`}:`);
}

/** Whether a project entry only overrides a few keys of a user server (no `command`, `url` or `type`). */
export function isOverride(raw: unknown): boolean {
  return typeof raw === "object" && raw !== null && !Array.isArray(raw) && !("command" in raw) && !("url" in raw) && !("type" in raw);
}

/** A project override applied to a user entry; errors name the project file's key path. */
export function applyOverride(base: ServerEntry, raw: unknown, path: string): EntryResult {
  const parsed = getSchemas().override.safeParse(raw, ONE_SHOT);
  if (!parsed.success) {
    const keys = `an override (an entry without "command" or "url") may set only ${OVERRIDE_KEYS.join(", ")}`;
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      error:
        issue?.code === "unrecognized_keys"
          ? `Invalid ${path}: ${keys} (found ${issue.keys.join(", ")})${slipHint(raw as object, ENTRY_KEYS, ENTRY_KEYS)}`
          : prefixed(formatValidationError(parsed.error), path),
    };
  }
  const value = parsed.data;
  const toolExposure = toolExposureAsWritten((raw as Record<string, unknown>).toolExposure, `${path}.toolExposure`);
  if (typeof toolExposure === "string") return { ok: false, error: toolExposure };
  return {
    ok: true,
    config: {
      ...base.config,
      ...(value.enabled !== undefined ? { enabled: value.enabled } : {}),
      ...(value.exposure !== undefined ? { exposure: value.exposure } : {}),
      ...(value.toolExposure !== undefined ? { toolExposure: Object.assign(Object.create(null) as Record<string, McpExposure>, base.config.toolExposure, toolExposure) } : {}),
    },
  };
}

export type ConfigFileResult = { ok: true; servers: Record<string, unknown>; autoEnableCodemode?: boolean; problems: FileProblem[] } | { ok: false; error: string };

/**
 * The top level of an `mcp.json`: an object whose `mcpServers` is an object, and pi's
 * `autoEnableCodemode` (other keys are ignored, but VS Code's `servers` and a slip of these two
 * are problems: config-keys.ts). A bad `autoEnableCodemode` is reported without costing the
 * servers, as pi does.
 */
export function parseConfigFile(value: unknown): ConfigFileResult {
  const parsed = getSchemas().file.safeParse(value, ONE_SHOT);
  if (!parsed.success)
    return { ok: false, error: typeof value !== "object" || value === null || Array.isArray(value) ? "expected a JSON object" : formatValidationError(parsed.error) };
  const servers = parsed.data.mcpServers ?? {};
  const problems = fileKeyProblems(value as Record<string, unknown>);
  const auto = parsed.data.autoEnableCodemode;
  if (auto === undefined) return { ok: true, servers, problems };
  if (typeof auto !== "boolean") return { ok: true, servers, problems: [...problems, { message: "Invalid autoEnableCodemode: expected boolean", effect: "ignored" }] };
  return { ok: true, servers, autoEnableCodemode: auto, problems };
}

/** `-` and `_` name the same tool prefix: two server names that differ only there clash. */
export function namespaceOf(server: string): string {
  return server.replace(/-/g, "_");
}

/**
 * pi 1.6's default: a server's tools are called from codemode scripts, neither declared to the
 * model nor listed in the codemode description (docs/decisions.md).
 */
export const DEFAULT_EXPOSURE: McpExposure = "codemode";

/** The server's own exposure: as configured, else the default. */
export function serverExposureOf(config: McpServerConfig): McpExposure {
  return config.exposure ?? DEFAULT_EXPOSURE;
}

/** A tool's exposure: its exact `toolExposure` entry, else the first matching pattern, else the server's (default codemode). */
export function toolExposureOf(config: McpServerConfig, tool: string): McpExposure {
  // Own keys only: a tool named `constructor` or `toString` is not configured by Object.prototype.
  if (Object.hasOwn(config.toolExposure, tool)) return config.toolExposure[tool]!;
  for (const [pattern, exposure] of Object.entries(config.toolExposure)) {
    if (pattern.includes("*") && patternRegExp(pattern).test(tool)) return exposure;
  }
  return serverExposureOf(config);
}

/** Every exposure the server's tools may have, known before it connects. */
export function exposuresOf(config: McpServerConfig): Set<McpExposure> {
  return new Set([serverExposureOf(config), ...Object.values(config.toolExposure)]);
}

function patternRegExp(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split("*")
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
      .join(".*")}$`,
  );
}
