/**
 * Reading `<agent dir>/mcp.json` and, for a trusted project, `<cwd>/.atomic/mcp.json`. A project
 * entry replaces the user entry of the same name, or, without `command`/`url`/`type`, overrides
 * only its `enabled`/`exposure`/`toolExposure` (the user's credentials stay the user's). An
 * untrusted project's file is never read: one notice says so. An invalid entry is skipped with an
 * error naming the file and key path; the others still connect.
 */
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { describeJsonError } from "../../lib/json-error/index.js";
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
  errors: string[];
  /** The untrusted project's file that was not read, if there is one. */
  untrustedProject?: string;
}

/** Whether either file exists: the cheap check that decides if MCP loads at all. */
export async function anyConfigFile(files: ConfigFiles): Promise<boolean> {
  const exists = async (path: string) => (await stat(path).catch(() => undefined))?.isFile() === true;
  const [user, project] = await Promise.all([exists(files.user), exists(files.project)]);
  return user || project;
}

export async function loadConfig(files: ConfigFiles, trusted: boolean): Promise<LoadedConfig> {
  const entries = new Map<string, ServerEntry>();
  const errors: string[] = [];
  await readInto(files.user, "user", entries, errors);
  let untrustedProject: string | undefined;
  if (trusted) await readInto(files.project, "project", entries, errors);
  else if ((await stat(files.project).catch(() => undefined))?.isFile()) untrustedProject = files.project;
  return { entries: [...entries.values()], errors, ...(untrustedProject ? { untrustedProject } : {}) };
}

async function readInto(path: string, source: "user" | "project", entries: Map<string, ServerEntry>, errors: string[]): Promise<void> {
  const servers = await readServers(path, errors);
  if (!servers) return;
  for (const [name, raw] of Object.entries(servers)) {
    const keyPath = `mcpServers.${name}`;
    if (source === "project" && isOverride(raw)) {
      const base = entries.get(name);
      if (!base) {
        errors.push(`${path}: Invalid ${keyPath}: expected "command" or "url", or the name of a server in the user's mcp.json to override`);
        continue;
      }
      const result = applyOverride(base, raw, keyPath);
      if (result.ok) entries.set(name, { ...base, config: result.config, origin: `${base.origin} (overridden by ${path})` });
      else errors.push(`${path}: ${result.error}`);
      continue;
    }
    const result = parseServerEntry(name, raw, keyPath);
    if (!result.ok) {
      errors.push(`${path}: ${result.error}`);
      continue;
    }
    const clash = [...entries.keys()].find((other) => other !== name && namespaceOf(other) === namespaceOf(name));
    if (clash) {
      errors.push(`${path}: Invalid ${keyPath}: the name clashes with server "${clash}" (names that differ only in "-" and "_" give the same tool names)`);
      continue;
    }
    entries.set(name, { name, config: result.config, source, origin: path, raw: raw as Record<string, unknown> });
  }
}

/** The file's `mcpServers`, or undefined when it is missing or unreadable (an error then says why). */
export async function readServers(path: string, errors: string[]): Promise<Record<string, unknown> | undefined> {
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
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") errors.push(`${path}: cannot be read (${(error as Error).message})`);
    return undefined;
  }
  if (text.trim() === "") return undefined;
  let value: unknown;
  const json = text.replace(/^\uFEFF/, "");
  try {
    value = JSON.parse(json);
  } catch (error) {
    errors.push(`${path}: not valid JSON (${describeJsonError(json, error)})`);
    return undefined;
  }
  const file = parseConfigFile(value);
  if (!file.ok) {
    errors.push(`${path}: ${file.error}`);
    return undefined;
  }
  return file.servers;
}
