/**
 * The `bash` LLM tool. It streams the output tail to the agent loop while the command runs
 * (throttled), keeps the last 2000 lines / 50 KiB for the result and points at a temp file with
 * the complete output when that was not everything. Failures (non-zero exit, timeout, abort) are
 * thrown so the loop reports them as error results, with the output so far.
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolResult } from "../../kernel/index.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../../lib/truncate/index.js";
import { runShellCommand, type RunShellResult } from "./run.js";
import { withCommandPrefix } from "./shell.js";
import { BASH_OUTPUT_SCHEMA, structuredResult } from "./structured.js";
import { BASH_JSON_SCHEMA } from "./json-schema.generated.js";

/** At most one partial update per this interval (plus a final one). */
const UPDATE_INTERVAL_MS = 50;
export const DEFAULT_TOOL_TIMEOUT_SECONDS = 600;

const bashParams = (defaultTimeout: number) => () =>
  z.object({
    command: z.string().min(1).describe("The shell command to run (bash syntax; pipes, redirects and && work)."),
    timeout: z.number().positive().optional().describe(`Timeout in seconds (default ${defaultTimeout}); the command and all its child processes are killed when it expires.`),
  });

export interface BashToolOptions {
  /** The shell binary, resolved once per process (see shell.ts). */
  shell: () => Promise<string>;
  /** Prepended to every command on its own line (setting `shellCommandPrefix`). */
  commandPrefix?: string;
  /** Timeout when the model gives none (setting `bash.toolTimeoutSeconds`). */
  defaultTimeoutSeconds?: number;
  /** Directory for full-output files (tests); defaults to os.tmpdir(). */
  tempDir?: string;
  /** Told about every full-output file, so it can be removed at exit unless a session keeps it. */
  onFullOutput?(path: string): void;
}

export function createBashTool(options: BashToolOptions): ToolDefinition<ReturnType<ReturnType<typeof bashParams>>> {
  const defaultTimeout = options.defaultTimeoutSeconds ?? DEFAULT_TOOL_TIMEOUT_SECONDS;
  return defineTool({
    name: "bash",
    description:
      "Run a shell command in the working directory and return its combined stdout and stderr (ANSI colours " +
      `removed). Only the last ${DEFAULT_MAX_LINES} lines or ${formatSize(DEFAULT_MAX_BYTES)} of output are returned; when ` +
      "output is cut, the complete output is saved to a file whose path is given at the end (read it with the read " +
      "tool or grep it). A non-zero exit code is reported as an error. Commands run non-interactively (no stdin); " +
      "use `timeout` for commands that might hang, and prefer the read/grep/find/ls tools for inspecting files.",
    parameters: bashParams(defaultTimeout),
    outputSchema: BASH_OUTPUT_SCHEMA as unknown as Record<string, unknown>,
    ...(defaultTimeout === DEFAULT_TOOL_TIMEOUT_SECONDS ? { precomputedJsonSchema: BASH_JSON_SCHEMA } : {}),
    async execute(args, ctx): Promise<ToolResult> {
      const updates = throttledUpdates((text) => ctx.onUpdate({ content: [{ type: "text", text }], details: { truncation: null, fullOutputPath: null } }));
      const timeout = args.timeout ?? defaultTimeout;
      let result: RunShellResult;
      const startedAt = performance.now();
      try {
        result = await runShellCommand({
          command: withCommandPrefix(args.command, options.commandPrefix),
          cwd: ctx.cwd,
          shell: await options.shell(),
          signal: ctx.signal,
          timeoutMs: timeout * 1000,
          tempDir: options.tempDir,
          onProgress: updates.schedule,
        });
      } finally {
        updates.flush();
      }
      if (result.fullOutputPath) options.onFullOutput?.(result.fullOutputPath);

      const body = withTruncationNotice(result);
      const fail = (status: string) => new Error(body ? `${body}\n\n${status}` : status);
      if (result.cancelled) throw fail("Command aborted");
      if (result.timedOut) throw fail(`Command timed out after ${timeout} seconds`);
      if (result.exitCode === undefined) throw fail("Command exited with code unknown");
      const structuredContent = await structuredResult(result, result.exitCode, performance.now() - startedAt);
      if (result.exitCode !== 0) return { content: [{ type: "text", text: fail(`Command exited with code ${result.exitCode}`).message }], isError: true, structuredContent };
      return {
        structuredContent,
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
