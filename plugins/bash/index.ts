/**
 * The `bash` plugin: the `bash` LLM tool. It streams the output tail to the agent loop while the
 * command runs (throttled), keeps the last 2000 lines / 50 KiB for the result and points at a
 * temp file with the complete output when that was not everything. Failures (non-zero exit,
 * timeout, abort) are thrown so the loop reports them as error results, with the output so far.
 */
import { z } from "zod";
import { definePlugin, defineSetting, defineTool, type ToolDefinition, type ToolResult } from "../../kernel/index.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../../lib/truncate/index.js";
import { defaultShell, runShellCommand, type RunShellResult } from "./run.js";

/** At most one partial update per this interval (plus a final one). */
const UPDATE_INTERVAL_MS = 50;

const BashParams = () => z.object({
  command: z.string().min(1).describe("The shell command to run (bash syntax; pipes, redirects and && work)."),
  timeout: z.number().positive().optional().describe("Timeout in seconds; the command and all its child processes are killed when it expires. No timeout by default."),
});

export interface BashToolOptions {
  /** Shell binary; defaults to /bin/bash. */
  shell?: string;
  /** Directory for full-output files (tests); defaults to os.tmpdir(). */
  tempDir?: string;
}

export function createBashTool(options: BashToolOptions = {}): ToolDefinition<ReturnType<typeof BashParams>> {
  return defineTool({
    name: "bash",
    description:
      "Run a shell command in the working directory and return its combined stdout and stderr (ANSI colours " +
      `removed). Only the last ${DEFAULT_MAX_LINES} lines or ${formatSize(DEFAULT_MAX_BYTES)} of output are returned; when ` +
      "output is cut, the complete output is saved to a file whose path is given at the end (read it with the read " +
      "tool or grep it). A non-zero exit code is reported as an error. Commands run non-interactively (no stdin); " +
      "use `timeout` for commands that might hang, and prefer the read/grep/find/ls tools for inspecting files.",
    parameters: BashParams,
    async execute(args, ctx): Promise<ToolResult> {
      const updates = throttledUpdates((text) =>
        ctx.onUpdate({ content: [{ type: "text", text }], details: { truncation: null, fullOutputPath: null } }),
      );
      let result: RunShellResult;
      try {
        result = await runShellCommand({
          command: args.command,
          cwd: ctx.cwd,
          shell: options.shell ?? defaultShell(),
          signal: ctx.signal,
          timeoutMs: args.timeout !== undefined ? args.timeout * 1000 : undefined,
          tempDir: options.tempDir,
          onProgress: updates.schedule,
        });
      } finally {
        updates.flush();
      }

      const body = withTruncationNotice(result);
      const fail = (status: string) => new Error(body ? `${body}\n\n${status}` : status);
      if (result.cancelled) throw fail("Command aborted");
      if (result.timedOut) throw fail(`Command timed out after ${args.timeout} seconds`);
      if (result.exitCode !== 0) throw fail(`Command exited with code ${result.exitCode ?? "unknown"}`);
      return {
        content: [{ type: "text", text: body || "(no output)" }],
        details: {
          truncation: result.truncated ? result.truncation : null,
          fullOutputPath: result.fullOutputPath,
          exitCode: result.exitCode,
        },
      };
    },
  });
}

function withTruncationNotice(result: RunShellResult): string {
  if (!result.truncated) return result.output;
  const { truncation, totalLines, fullOutputPath } = result;
  const first = totalLines - truncation.outputLines + 1;
  const shown = truncation.partialLine
    ? `[Showing the last ${formatSize(truncation.outputBytes)} of line ${totalLines} (${totalLines} lines total). Full output: ${fullOutputPath}]`
    : `[Showing lines ${first}-${totalLines} of ${totalLines}. Full output: ${fullOutputPath}]`;
  return `${result.output}\n\n${shown}`;
}

/**
 * Rate-limits partial results: the first chunk is sent at once, later ones at most every
 * UPDATE_INTERVAL_MS, and `flush` sends the final state (the output is rendered only when sent).
 */
function throttledUpdates(send: (text: string) => void) {
  let renderTail: (() => string) | null = null;
  let timer: NodeJS.Timeout | undefined;
  let lastSent = 0;
  const emit = () => {
    timer = undefined;
    lastSent = Date.now();
    if (renderTail) send(renderTail());
  };
  return {
    schedule(render: () => string): void {
      renderTail = render;
      if (timer) return;
      const wait = UPDATE_INTERVAL_MS - (Date.now() - lastSent);
      if (wait <= 0) emit();
      else timer = setTimeout(emit, wait);
    },
    flush(): void {
      if (timer) clearTimeout(timer);
      if (renderTail) emit();
    },
  };
}

declare module "../../kernel/config.js" {
  interface Settings {
    shellPath?: string;
    shellCommandPrefix?: string;
  }
}

export default definePlugin({
  name: "bash",
  description: "The bash tool: run shell commands for the model.",
  // Both choose what runs for every command: a cloned project may set them only when trusted.
  settings: {
    shellPath: defineSetting(() => z.string().min(1), { scope: "trusted", description: "Shell binary for bash commands (default: bash, else sh)." }),
    shellCommandPrefix: defineSetting(() => z.string(), { scope: "trusted", description: "Text prepended to every shell command (e.g. `set -euo pipefail;`)." }),
  },
  apply(k) {
    k.registerTool(createBashTool({ shell: k.config.settings.shellPath }));
  },
});
