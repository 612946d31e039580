/**
 * What `atomic <subcommand>` (auth, mcp, models, install...) hands the plugin that implements it:
 * the process's folders and streams, so an entry point runs the same under a test's fakes.
 */
export interface CliIo {
  agentDir: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A subcommand's entry point: its arguments, the io, and the exit code it resolves with. */
export type CliEntry = (argv: string[], io: CliIo) => Promise<number>;

/**
 * How a message names a launch option: its flag (`--provider`), or for an agent the SDK made
 * (`origin: "sdk"`), the `createAgent` option that gave it (`sdkName`; default `flags.<key>`, as
 * a plugin's flag is given).
 */
export function optionName(cli: { origin?: "sdk" }, flag: string, sdkName = `flags.${flag.replace(/^--/, "").replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}`): string {
  return cli.origin === "sdk" ? sdkName : flag;
}
