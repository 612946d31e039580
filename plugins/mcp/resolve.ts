/**
 * A server's configuration as it starts: `${VAR}` and `${VAR:-default}` resolved from the
 * environment in the command, arguments, working folder, `env`, URL and headers (as Claude Code
 * resolves them), `~/` as the home folder in the command, arguments and folder, a relative folder
 * against the agent's. A reference to a variable that is not set, without a default, fails the
 * start with the server, the key and the variable named.
 *
 * A stdio server does not get the agent's whole environment (provider API keys included): only
 * the variables the MCP SDK passes by default (HOME, PATH, ...: its DEFAULT_INHERITED_ENV_VARS),
 * the ones its entry's `env` sets, and the ones that entry's `${VAR}` references name.
 */
import { isAbsolute, resolve } from "node:path";
import { expandHome } from "../../kernel/index.js";
import type { HttpConfig, McpServerConfig, StdioConfig } from "./config.js";

export interface StdioLaunch {
  type: "stdio";
  command: string;
  args: string[];
  /** The whole environment of the child (see above). */
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface HttpLaunch {
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
}

export type Launch = StdioLaunch | HttpLaunch;

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Resolves `${VAR}` references in `text`; `where` names the value in the error. */
export function expandVariables(text: string, env: NodeJS.ProcessEnv, where: string): string {
  return text.replace(REFERENCE, (_, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== "") return value;
    if (fallback !== undefined) return fallback;
    throw new Error(`${where}: environment variable ${name} is not set`);
  });
}

/** `inherited`: the names a stdio server gets from the agent's environment without asking (the SDK's default list). */
export function launchOf(server: string, config: McpServerConfig, env: NodeJS.ProcessEnv, cwd: string, inherited: readonly string[]): Launch {
  return config.type === "stdio" ? stdioLaunch(server, config, env, cwd, inherited) : httpLaunch(server, config, env);
}

function stdioLaunch(server: string, config: StdioConfig, env: NodeJS.ProcessEnv, cwd: string, inherited: readonly string[]): StdioLaunch {
  const at = (key: string) => `MCP server "${server}" ${key}`;
  const command = expandHome(expandVariables(config.command, env, at("command")), env);
  const args = config.args.map((arg, index) => expandHome(expandVariables(arg, env, at(`args[${index}]`)), env));
  const childEnv: NodeJS.ProcessEnv = {};
  const pass = (name: string) => {
    const found = lookup(env, name);
    // A shell function exported into the environment is not passed (as the SDK does).
    if (found !== undefined && !found[1].startsWith("()")) childEnv[found[0]] = found[1];
  };
  for (const name of inherited) pass(name);
  for (const value of Object.values(config.env)) for (const match of value.matchAll(REFERENCE)) pass(match[1]!);
  for (const [key, value] of Object.entries(config.env)) childEnv[key] = expandVariables(value, env, at(`env.${key}`));
  const folder = config.cwd === undefined ? cwd : expandHome(expandVariables(config.cwd, env, at("cwd")), env);
  return { type: "stdio", command, args, env: childEnv, cwd: isAbsolute(folder) ? folder : resolve(cwd, folder) };
}

/** The variable and its value; on Windows names are case-insensitive (`Path` is PATH). */
function lookup(env: NodeJS.ProcessEnv, name: string): [string, string] | undefined {
  const value = env[name];
  if (value !== undefined) return [name, value];
  if (process.platform !== "win32") return undefined;
  const key = Object.keys(env).find((candidate) => candidate.toUpperCase() === name.toUpperCase());
  return key === undefined || env[key] === undefined ? undefined : [key, env[key]!];
}

function httpLaunch(server: string, config: HttpConfig, env: NodeJS.ProcessEnv): HttpLaunch {
  const at = (key: string) => `MCP server "${server}" ${key}`;
  const headers: Record<string, string> = {};
  for (const [key, value] of Object.entries(config.headers)) headers[key] = expandVariables(value, env, at(`headers.${key}`));
  return { type: config.type, url: expandVariables(config.url, env, at("url")), headers };
}

/** One line saying how a server is reached (listings, errors); never a header's value. */
export function describeTarget(config: McpServerConfig): string {
  return config.type === "stdio" ? [config.command, ...config.args].join(" ") : config.url;
}
