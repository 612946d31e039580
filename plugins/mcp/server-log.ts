/**
 * Where a stdio MCP server's own stderr goes: `<agent dir>/mcp.log` (as pi's `mcp.log`), each
 * line labelled with the server and the time, and to the agent's stderr too only with
 * `--verbose`: a server's start-up banner is not the answer `atomic -p` prints. The last lines
 * still reach the user in the error shown when the server dies.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { dirname, join } from "node:path";
import type { Logger } from "../../kernel/index.js";
import { makeFolderSync } from "../../lib/make-folder/index.js";

export interface ServerLog {
  /** One labelled line (`[mcp <name>] ...\n`). */
  write(text: string): void;
  close(): Promise<void>;
}

export function mcpLogPath(agentDir: string): string {
  return join(agentDir, "mcp.log");
}

export function openServerLog(path: string, options: { verbose: boolean; log: Logger; stderr?: (text: string) => void }): ServerLog {
  const stderr = options.stderr ?? ((text: string) => process.stderr.write(text));
  let stream: WriteStream | undefined;
  let failed = false;
  const file = (): WriteStream | undefined => {
    if (stream || failed) return stream;
    try {
      makeFolderSync(dirname(path));
    } catch {
      // createWriteStream reports it below.
    }
    stream = createWriteStream(path, { flags: "a" });
    stream.on("error", (error) => {
      failed = true;
      stream = undefined;
      options.log.warn(`mcp: cannot write the servers' log ${path}: ${error.message}${options.verbose ? "" : " (start with --verbose to see their stderr)"}`);
    });
    return stream;
  };
  return {
    write(text) {
      file()?.write(`${new Date().toISOString()} ${text}`);
      if (options.verbose) stderr(text);
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!stream) return resolve();
        stream.end(resolve);
        stream = undefined;
      }),
  };
}
