/**
 * A server's configuration as it starts: `${VAR}` and `${VAR:-default}` resolved from the
 * environment in the command, arguments, working folder, `env`, URL and headers (as Claude Code
 * resolves them), `~/` as the home folder in the command, arguments and folder, a relative folder
 * against the agent's. A reference to a variable that is not set, without a default, fails the
 * start with the server, the key and the variable named.
 */
import { isAbsolute, resolve } from "node:path";
import { expandHome } from "../../kernel/index.js";
import type { HttpConfig, McpServerConfig, StdioConfig } from "./config.js";

export interface StdioLaunch {
  type: "stdio";
  command: string;
  args: string[];
  /** The whole environment of the child: the agent's, with the entry's `env` on top. */
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

export function launchOf(server: string, config: McpServerConfig, env: NodeJS.ProcessEnv, cwd: string): Launch {
  return config.type === "stdio" ? stdioLaunch(server, config, env, cwd) : httpLaunch(server, config, env);
}

function stdioLaunch(server: string, config: StdioConfig, env: NodeJS.ProcessEnv, cwd: string): StdioLaunch {
  const at = (key: string) => `MCP server "${server}" ${key}`;
  const command = expandHome(expandVariables(config.command, env, at("command")), env);
  const args = config.args.map((arg, index) => expandHome(expandVariables(arg, env, at(`args[${index}]`)), env));
  const childEnv: NodeJS.ProcessEnv = { ...env };
  for (const [key, value] of Object.entries(config.env)) childEnv[key] = expandVariables(value, env, at(`env.${key}`));
  const folder = config.cwd === undefined ? cwd : expandHome(expandVariables(config.cwd, env, at("cwd")), env);
  return { type: "stdio", command, args, env: childEnv, cwd: isAbsolute(folder) ? folder : resolve(cwd, folder) };
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
