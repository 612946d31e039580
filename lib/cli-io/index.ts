/**
 * What `atomic <subcommand>` (auth, mcp, models, install...) hands the plugin that implements it:
 * the process's folders and streams, so an entry point runs the same under a test's fakes; and
 * how a message names a launch option.
 */
import type { CliOptions } from "../../kernel/index.js";

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

declare module "../../kernel/config.js" {
  interface CliOptions {
    /**
     * How messages name options given other than as flags, by flag: set by whoever gave them
     * (a server's agent_open: `{"--provider": 'the "provider" field of agent_open'}`), so an
     * error points at what the client sent.
     */
    optionNames?: Readonly<Record<string, string>>;
  }
}

/**
 * How a message names a launch option: the name its giver set (`optionNames`), else its flag
 * (`--provider`), or for an agent the SDK made (`origin: "sdk"`), the `createAgent` option that
 * gave it (`sdkName`; default `flags.<key>`, as a plugin's flag is given).
 */
export function optionName(
  cli: Pick<CliOptions, "origin" | "optionNames">,
  flag: string,
  sdkName = `flags.${flag.replace(/^--/, "").replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}`,
): string {
  return cli.optionNames?.[flag] ?? (cli.origin === "sdk" ? sdkName : flag);
}
