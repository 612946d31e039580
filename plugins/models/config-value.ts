/**
 * Secret values in models.json (`apiKey`, header values): a literal, an environment variable
 * (`NAME`, `$NAME` or `${NAME}`), or `!command` run through the shell when a request needs it,
 * so keys can live in a password manager instead of a file.
 */

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_REF = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/;
const COMMAND_TIMEOUT_MS = 10_000;

export type ConfigValueKind = "command" | "env" | "literal";

export interface ConfigValueOptions {
  env: NodeJS.ProcessEnv;
  /**
   * Bare `NAME` values: try them as an environment variable first (pi's apiKey rule). Header
   * values turn this off, since `application/json`-like literals must stay literal.
   */
  bareNameIsEnv?: boolean;
}

/** How a value will be resolved, without running anything (for auth status). */
export function describeConfigValue(value: string, options: ConfigValueOptions): { kind: ConfigValueKind; envName?: string; resolvable: boolean } {
  if (value.startsWith("!")) return { kind: "command", resolvable: value.slice(1).trim() !== "" };
  const ref = ENV_REF.exec(value);
  if (ref) {
    const name = (ref[1] ?? ref[2])!;
    return { kind: "env", envName: name, resolvable: Boolean(options.env[name]) };
  }
  if ((options.bareNameIsEnv ?? true) && ENV_NAME.test(value) && options.env[value]) {
    return { kind: "env", envName: value, resolvable: true };
  }
  return { kind: "literal", resolvable: value !== "" };
}

/** The value a request should use; undefined when an env var is unset or a command prints nothing. */
export async function resolveConfigValue(value: string, options: ConfigValueOptions): Promise<string | undefined> {
  const described = describeConfigValue(value, options);
  switch (described.kind) {
    case "command":
      return runCommand(value.slice(1).trim(), options.env);
    case "env":
      return options.env[described.envName!] || undefined;
    case "literal":
      return value === "" ? undefined : value;
  }
}

/** Runs `command` with the user's shell; its trimmed stdout is the value. Errors never echo output. */
async function runCommand(command: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  // Loaded on first use: node:child_process costs a few ms of startup otherwise.
  const { exec } = await import("node:child_process");
  return new Promise((resolve, reject) => {
    exec(command, { env: { ...process.env, ...env }, timeout: COMMAND_TIMEOUT_MS, windowsHide: true }, (error, stdout) => {
      if (error) {
        // The command's output may contain the secret: report only the exit status.
        reject(new Error(`API key command failed (${error.code ?? error.signal ?? "error"}): ${command}`));
        return;
      }
      const text = String(stdout).trim();
      resolve(text === "" ? undefined : text);
    });
  });
}
