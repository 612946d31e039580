/**
 * Reading `<agent dir>/mcp.json` and, for a trusted project, `<cwd>/.atomic/mcp.json`. A project
 * entry replaces the user entry of the same name, or, without `command`/`url`/`type`, overrides
 * only its `enabled`/`exposure`/`toolExposure` (the user's credentials stay the user's). An
 * untrusted project's file is never read: one notice says so. An invalid entry is skipped with an
 * error naming the file and key path; the others still connect. pi's top-level
 * `autoEnableCodemode` is read too, the project's value winning over the user's. The files may
 * hold `//` comments and trailing commas (lib/jsonc).
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { describeJsonError } from "../../lib/json-error/index.js";
import { parseJsonc } from "../../lib/jsonc/index.js";
import { openRegularForRead } from "../../lib/regular-file/index.js";
import { applyOverride, isOverride, namespaceOf, parseConfigFile, parseServerEntry, type ServerEntry } from "./config.js";

export interface ConfigFiles {
  user: string;
  project: string;
}

export function configFiles(agentDir: string, cwd: string): ConfigFiles {
  return { user: join(agentDir, "mcp.json"), project: join(cwd, ".atomic", "mcp.json") };
}

export interface LoadedConfig {
  entries: ServerEntry[];
  /** Each problem naming its file and key path (what `get_mcp_servers` reports). */
  errors: string[];
  /** The same, each with what became of it (`(entry skipped)`): the lines a person reads. */
  problems: string[];
  /** The untrusted project's file that was not read, if there is one. */
  untrustedProject?: string;
  /** `false`: codemode is not switched on for servers with `codemode` exposure (pi's key; default true). */
  autoEnableCodemode?: boolean;
}

/** Whether either file exists: the cheap check that decides if MCP loads at all. */
export async function anyConfigFile(files: ConfigFiles): Promise<boolean> {
  const exists = async (path: string) => (await stat(path).catch(() => undefined))?.isFile() === true;
  const [user, project] = await Promise.all([exists(files.user), exists(files.project)]);
  return user || project;
}

export async function loadConfig(files: ConfigFiles, trusted: boolean): Promise<LoadedConfig> {
  const entries = new Map<string, ServerEntry>();
  const found: Problems = { errors: [], problems: [] };
  let auto = await readInto(files.user, "user", entries, found);
  let untrustedProject: string | undefined;
  if (trusted) auto = (await readInto(files.project, "project", entries, found)) ?? auto;
  else if ((await stat(files.project).catch(() => undefined))?.isFile()) untrustedProject = files.project;
  return { entries: [...entries.values()], ...found, ...(untrustedProject ? { untrustedProject } : {}), ...(auto !== undefined ? { autoEnableCodemode: auto } : {}) };
}

type Problems = Pick<LoadedConfig, "errors" | "problems">;

function report(found: Problems, message: string, effect: string): void {
  found.errors.push(message);
  found.problems.push(`${message} (${effect})`);
}

/** Reads one file's servers into `entries`; returns its `autoEnableCodemode`. */
async function readInto(path: string, source: "user" | "project", entries: Map<string, ServerEntry>, found: Problems): Promise<boolean | undefined> {
  const file = await readServers(path, found);
  if (!file) return undefined;
  const skip = (message: string) => report(found, `${path}: ${message}`, "entry skipped");
  for (const [name, raw] of Object.entries(file.servers)) {
    const keyPath = `mcpServers.${name}`;
    if (source === "project" && isOverride(raw)) {
      const base = entries.get(name);
      if (!base) {
        skip(`Invalid ${keyPath}: expected "command" or "url", or the name of a server in the user's mcp.json to override`);
        continue;
      }
      const result = applyOverride(base, raw, keyPath);
      if (result.ok) entries.set(name, { ...base, config: result.config, origin: `${base.origin} (overridden by ${path})` });
      else skip(result.error);
      continue;
    }
    const result = parseServerEntry(name, raw, keyPath);
    if (!result.ok) {
      skip(result.error);
      continue;
    }
    const clash = [...entries.keys()].find((other) => other !== name && namespaceOf(other) === namespaceOf(name));
    if (clash) {
      skip(`Invalid ${keyPath}: the name clashes with server "${clash}" (names that differ only in "-" and "_" give the same tool names)`);
      continue;
    }
    entries.set(name, { name, config: result.config, source, origin: path, raw: raw as Record<string, unknown> });
  }
  return file.autoEnableCodemode;
}

/** The file's `mcpServers` and `autoEnableCodemode`, or undefined when it is missing or unreadable (a problem then says why). */
async function readServers(path: string, found: Problems): Promise<{ servers: Record<string, unknown>; autoEnableCodemode?: boolean } | undefined> {
  const unread = (message: string) => report(found, `${path}: ${message}`, "no server is read from the file");
  let text: string;
  try {
    // Only a regular file: reading a FIFO would hang the start.
    const handle = await openRegularForRead(path);
    try {
      text = await handle.readFile("utf8");
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") unread(`cannot be read (${(error as Error).message})`);
    return undefined;
  }
  if (text.trim() === "") return undefined;
  let value: unknown;
  const json = text.replace(/^\uFEFF/, "");
  try {
    // `//` comments and trailing commas, as in models.json and settings.json (pi's MCP adapter allows them too).
    value = parseJsonc(json);
  } catch (error) {
    unread(`not valid JSON (${describeJsonError(json, error)})`);
    return undefined;
  }
  const file = parseConfigFile(value);
  if (!file.ok) {
    unread(file.error);
    return undefined;
  }
  for (const problem of file.problems) report(found, `${path}: ${problem.message}`, problem.effect);
  return { servers: file.servers, ...(file.autoEnableCodemode !== undefined ? { autoEnableCodemode: file.autoEnableCodemode } : {}) };
}
