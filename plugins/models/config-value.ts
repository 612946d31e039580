/**
 * Secret values in models.json and auth.json (`apiKey`, header values): a literal, an
 * environment variable (`NAME`, `$NAME` or `${NAME}`), or `!command` run through the shell when
 * a request needs it, so keys can live in a password manager instead of a file.
 */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_REF = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))$/;

export type ConfigValueKind = "command" | "env" | "literal";

export interface ConfigValueOptions {
  env: NodeJS.ProcessEnv;
  /**
   * Bare `NAME` values: try them as an environment variable first (pi's rule for keys and
   * header values); off, a bare name is always a literal.
   */
  bareNameIsEnv?: boolean;
  /** What the value is for, named in errors instead of the value ("apiKey of provider x"). */
  label?: string;
  /** Aborts a running `!command` and kills its process. */
  signal?: AbortSignal;
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
    case "command": {
      // Loaded on first use: most setups have no key commands.
      const { runSecretCommand } = await import("./secret-command.js");
      return runSecretCommand(value.slice(1).trim(), { env: options.env, label: options.label ?? "a configured value", ...(options.signal ? { signal: options.signal } : {}) });
    }
    case "env":
      return options.env[described.envName!] || undefined;
    case "literal":
      return value === "" ? undefined : value;
  }
}
