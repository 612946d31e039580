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
