/**
 * `atomic mcp add|remove|list|test`: the MCP configuration from a shell, without starting an
 * agent. `add` and `remove` edit `<agent dir>/mcp.json` (or with `-l` the project's
 * `.atomic/mcp.json`) under a lock, atomically, keeping the rest of the file; every entry is
 * checked before it is written. `list` shows what is configured without connecting; `test`
 * connects to each enabled server (or the ones named) and lists its tools; exit 1 when one fails.
 */
import { readFile } from "node:fs/promises";
import { isTrustedProject, projectSettingsPath, userSettingsPath } from "../../kernel/index.js";
import { parseJsonc } from "../../lib/jsonc/index.js";
import { updateJsonFile } from "../../lib/locked-json/index.js";
import { shellWord } from "../../lib/shell-words/index.js";
import { DEFAULT_CONNECT_TIMEOUT_S, parseServerEntry, SERVER_NAME, serverExposureOf, type ServerEntry } from "./config.js";
import { configFiles, loadConfig } from "./config-files.js";
import { describeTarget, launchOf } from "./resolve.js";
import type { CliIo } from "../../lib/cli-io/index.js";

export type McpCliIo = Pick<CliIo, "agentDir" | "cwd" | "env" | "stdout" | "stderr">;

const USAGE = `Usage:
  atomic mcp add <name> [options] -- <command> [args...]   add (or replace) a stdio server
  atomic mcp add <name> [options] --url <url>             add (or replace) an HTTP server
      -l, --local                  the project's .atomic/mcp.json (default: <agent dir>/mcp.json)
      --env KEY=VALUE              stdio: an environment variable (repeatable; \${VAR} is kept as written)
      --cwd <dir>                  stdio: the server's working folder
      --header KEY=VALUE           HTTP: a header sent with every request (repeatable)
      --bearer-token-env-var NAME  HTTP: sends "Authorization: Bearer \${NAME}"
      --transport http|sse         HTTP: sse for servers that only speak the older transport
      --exposure codemode|direct|deferred|hidden (default codemode), --description <text>, --timeout <seconds>
  atomic mcp remove <name> [-l]                              remove a server from mcp.json
  atomic mcp list [--json] [--approve]                       the configured servers (no connection)
  atomic mcp test [name...] [--approve]                      connect, list each server's tools
--approve reads the project's .atomic/mcp.json even when the project is not trusted.
`;

class UsageProblem extends Error {}

export async function runMcpCommand(argv: string[], io: McpCliIo): Promise<number> {
  const args = argv[0] === "mcp" ? argv.slice(1) : argv;
  const [action, ...rest] = args;
  try {
    switch (action) {
      case "add":
        return await add(rest, io);
      case "remove":
        return await remove(rest, io);
      case "list":
        return await list(rest, io);
      case "test":
        return await test(rest, io);
      case "help":
      case "--help":
      case "-h":
        io.stdout.write(USAGE);
        return 0;
      default:
        io.stderr.write(`${action === undefined ? "" : `Unknown mcp command: ${action}\n`}${USAGE}`);
        return 2;
    }
  } catch (error) {
    io.stderr.write(`${(error as Error).message}\n${error instanceof UsageProblem ? USAGE : ""}`);
    return error instanceof UsageProblem ? 2 : 1;
  }
}

function targetFile(io: McpCliIo, local: boolean): string {
  const files = configFiles(io.agentDir, io.cwd);
  return local ? files.project : files.user;
}

async function add(args: string[], io: McpCliIo): Promise<number> {
  const split = args.indexOf("--");
  const options = split >= 0 ? args.slice(0, split) : args;
  const command = split >= 0 ? args.slice(split + 1) : [];
  const [name, ...flags] = options;
  if (!name || name.startsWith("-")) throw new UsageProblem("atomic mcp add: give the server's name first");
  if (!SERVER_NAME.test(name)) throw new UsageProblem(`Invalid server name "${name}": use letters, digits, "_" and "-"`);
  const entry: Record<string, unknown> = {};
  const pairs = (key: string) => (entry[key] ??= {}) as Record<string, string>;
  let local = false;
  for (let i = 0; i < flags.length; i++) {
    const flag = flags[i]!;
    const value = () => {
      const next = flags[++i];
      if (next === undefined) throw new UsageProblem(`${flag} needs a value`);
      return next;
    };
    const pair = () => {
      const text = value();
      const at = text.indexOf("=");
      if (at <= 0) throw new UsageProblem(`${flag} takes KEY=VALUE (got "${text}")`);
      return [text.slice(0, at), text.slice(at + 1)] as const;
    };
    if (flag === "-l" || flag === "--local") local = true;
    else if (flag === "--url") entry.url = value();
    else if (flag === "--transport") entry.type = value();
    else if (flag === "--env") {
      const [key, v] = pair();
      pairs("env")[key] = v;
    } else if (flag === "--header") {
      const [key, v] = pair();
      pairs("headers")[key] = v;
    } else if (flag === "--bearer-token-env-var") pairs("headers").Authorization = `Bearer \${${value()}}`;
    else if (flag === "--cwd") entry.cwd = value();
    else if (flag === "--exposure") entry.exposure = value();
    else if (flag === "--description") entry.description = value();
    else if (flag === "--timeout") entry.timeout = Number(value());
    else if (!flag.startsWith("-")) {
      // `atomic mcp add fs npx -y ...`: the command without the `--` that marks where it starts.
      const rest = flags
        .slice(i)
        .map((word) => shellWord(word))
        .join(" ");
      throw new UsageProblem(`atomic mcp add: "${flag}" is not an option; the server's command goes after --: atomic mcp add ${name} -- ${rest}`);
    } else throw new UsageProblem(`Unknown option for atomic mcp add: ${flag}`);
  }
  if (command.length > 0 && entry.url !== undefined) throw new UsageProblem("Give either a command after -- (stdio) or --url (HTTP), not both");
  if (command.length > 0) Object.assign(entry, { command: command[0], ...(command.length > 1 ? { args: command.slice(1) } : {}) });
  if (command.length === 0 && entry.url === undefined) throw new UsageProblem("atomic mcp add: give the server's command after --, or --url");
  const checked = parseServerEntry(name, entry, `mcpServers.${name}`);
  if (!checked.ok) throw new Error(checked.error);
  const path = targetFile(io, local);
  let replaced = false;
  await updateJsonFile(path, (file) => {
    const servers = file.mcpServers;
    if (servers !== undefined && (typeof servers !== "object" || servers === null || Array.isArray(servers)))
      throw new Error(`${path}: "mcpServers" is not an object; fix the file first`);
    const next = { ...(servers as Record<string, unknown> | undefined) };
    replaced = name in next;
    next[name] = entry;
    return { ...file, mcpServers: next };
  });
  io.stdout.write(`${replaced ? "Replaced" : "Added"} MCP server "${name}" in ${path}. Check it with: atomic mcp test ${name}\n`);
  return 0;
}

async function remove(args: string[], io: McpCliIo): Promise<number> {
  const local = args.includes("-l") || args.includes("--local");
  const names = args.filter((arg) => arg !== "-l" && arg !== "--local");
  if (names.length !== 1 || names[0]!.startsWith("-")) throw new UsageProblem("atomic mcp remove: give one server name");
  const name = names[0]!;
  const path = targetFile(io, local);
  let removed = false;
  await updateJsonFile(path, (file) => {
    const servers = file.mcpServers as Record<string, unknown> | undefined;
    if (!servers || typeof servers !== "object" || !(name in servers)) return file;
    removed = true;
    const { [name]: _gone, ...kept } = servers;
    return { ...file, mcpServers: kept };
  });
  io.stdout.write(removed ? `Removed MCP server "${name}" from ${path}.\n` : `${path} has no MCP server "${name}".\n`);
  return removed ? 0 : 1;
}

async function configured(io: McpCliIo, approve: boolean) {
  const trusted = isTrustedProject(io.cwd, await trustedProjects(io), approve, io.env);
  const files = configFiles(io.agentDir, io.cwd);
  return { files, trusted, ...(await loadConfig(files, trusted)) };
}

async function list(args: string[], io: McpCliIo): Promise<number> {
  const unknown = args.filter((arg) => arg !== "--json" && arg !== "--approve");
  if (unknown.length > 0) throw new UsageProblem(`Unknown option for atomic mcp list: ${unknown[0]}`);
  const { files, trusted, entries, errors, problems, untrustedProject } = await configured(io, args.includes("--approve"));
  const rows = entries.map((entry) => ({
    name: entry.name,
    source: entry.source,
    origin: entry.origin,
    transport: entry.config.type,
    enabled: entry.config.enabled,
    exposure: serverExposureOf(entry.config),
    target: describeTarget(entry.config),
  }));
  if (args.includes("--json")) {
    io.stdout.write(`${JSON.stringify({ files: { user: files.user, project: files.project, projectTrusted: trusted }, servers: rows, errors }, null, 2)}\n`);
    return errors.length > 0 ? 1 : 0;
  }
  const out = [`User:    ${files.user}`, `Project: ${files.project}${untrustedProject ? " (not read: the project is not trusted; --approve reads it)" : ""}`, ""];
  if (rows.length === 0) out.push("No MCP servers configured. Add one with: atomic mcp add <name> -- <command> [args...]");
  for (const row of rows) out.push(`${row.name}  ${row.transport}  ${row.enabled ? "enabled" : "disabled"}  ${row.exposure}  ${row.source}  ${row.target}`);
  if (problems.length > 0) out.push("", "Problems:", ...problems.map((problem) => `  ${problem}`));
  io.stdout.write(`${out.join("\n")}\n`);
  return errors.length > 0 ? 1 : 0;
}

async function test(args: string[], io: McpCliIo): Promise<number> {
  const names = args.filter((arg) => arg !== "--approve");
  const { entries, problems } = await configured(io, args.includes("--approve"));
  const unknown = names.filter((name) => !entries.some((entry) => entry.name === name));
  if (unknown.length > 0) throw new Error(`No MCP server named ${unknown.join(", ")} (configured: ${entries.map((entry) => entry.name).join(", ") || "none"})`);
  const chosen = names.length > 0 ? entries.filter((entry) => names.includes(entry.name)) : entries.filter((entry) => entry.config.enabled);
  for (const problem of problems) io.stderr.write(`${problem}\n`);
  const connectTimeoutMs = await connectTimeoutOf(io);
  const results = await Promise.all(chosen.map((entry) => probe(entry, io, connectTimeoutMs)));
  io.stdout.write(results.map((result) => result.text).join("\n") + (results.length > 0 ? "\n" : "No enabled MCP server to test.\n"));
  return results.some((result) => !result.ok) || problems.length > 0 ? 1 : 0;
}

async function probe(entry: ServerEntry, io: McpCliIo, connectTimeoutMs: number): Promise<{ ok: boolean; text: string }> {
  const { McpConnection } = await import("./connection.js");
  const { config } = entry;
  const connection = new McpConnection(
    {
      name: entry.name,
      launch: (inherited) => launchOf(entry.name, config, io.env, io.cwd, inherited),
      clientInfo: { name: "atomic", version: "cli" },
      timeoutMs: (config.timeout ?? 30) * 1000,
      connectTimeoutMs,
      onTools: () => undefined,
      onState: () => undefined,
      writeStderr: (text) => io.stderr.write(text),
    },
    config.type,
  );
  try {
    await connection.client();
    const tools = connection.tools.map((tool) => `  ${tool.name}${tool.description ? `: ${tool.description.trim().split("\n", 1)[0]}` : ""}`);
    const head = `${entry.name}: connected over ${connection.transport}, ${tools.length} tool${tools.length === 1 ? "" : "s"}${connection.hasResources ? ", resources" : ""}`;
    return { ok: true, text: [head, ...tools].join("\n") };
  } catch {
    return { ok: false, text: `${entry.name}: failed: ${connection.error}` };
  } finally {
    await connection.close();
  }
}

/** The user's `trustedProjects` (only the user's own settings file may grant trust). */
async function trustedProjects(io: McpCliIo): Promise<string[]> {
  const settings = (await settingsFile(userSettingsPath(io.agentDir))) as { trustedProjects?: unknown };
  return Array.isArray(settings.trustedProjects) ? settings.trustedProjects.filter((entry): entry is string => typeof entry === "string") : [];
}

/** `mcp.connectTimeout` as the agent takes it (the project's file over the user's, seconds), so a test fails when a session would. */
async function connectTimeoutOf(io: McpCliIo): Promise<number> {
  const seconds = (settings: Record<string, unknown>) => {
    const value = (settings.mcp as { connectTimeout?: unknown } | undefined)?.connectTimeout;
    return typeof value === "number" && value > 0 ? value : undefined;
  };
  const [user, project] = await Promise.all([settingsFile(userSettingsPath(io.agentDir)), settingsFile(projectSettingsPath(io.cwd))]);
  return (seconds(project) ?? seconds(user) ?? DEFAULT_CONNECT_TIMEOUT_S) * 1000;
}

/** A settings file read as startup reads it (`//` comments, trailing commas); `{}` when missing or unreadable. */
async function settingsFile(path: string): Promise<Record<string, unknown>> {
  try {
    const value = parseJsonc(await readFile(path, "utf8"));
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
