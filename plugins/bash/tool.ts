/**
 * The `bash` LLM tool. It streams the output tail to the agent loop while the command runs
 * (throttled), keeps the last 2000 lines / 50 KiB for the result and points at a temp file with
 * the complete output when that was not everything. Failures (non-zero exit, timeout, abort) are
 * thrown so the loop reports them as error results, with the output so far.
 */
import { z } from "zod";
import { defineTool, type ToolDefinition, type ToolResult } from "../../kernel/index.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize } from "../../lib/truncate/index.js";
import type { RunShellResult } from "./run.js";
import { withCommandPrefix } from "./shell.js";
import { BASH_OUTPUT_SCHEMA, structuredResult } from "./structured.js";
import { BASH_JSON_SCHEMA } from "./json-schema.generated.js";
import type { CommandSpawn, SandboxApi } from "../sandbox/api.js";

/** At most one partial update per this interval (plus a final one). */
const UPDATE_INTERVAL_MS = 50;
export const DEFAULT_TOOL_TIMEOUT_SECONDS = 600;

const baseParams = (defaultTimeout: number) => ({
  command: z.string().min(1).describe("The shell command to run (bash syntax; pipes, redirects and && work)."),
  timeout: z.number().positive().optional().describe(`Timeout in seconds (default ${defaultTimeout}); the command and all its child processes are killed when it expires.`),
});

const bashParams = (defaultTimeout: number) => () => z.object(baseParams(defaultTimeout));

/** With a sandbox whose approval is "on-request": the model may ask to run one command outside it (as Codex's shell tool does). */
const escalatingParams = (defaultTimeout: number) => () =>
  z
    .object({
      ...baseParams(defaultTimeout),
      escalate: z
        .boolean()
        .optional()
        .describe(
          "Run this one command outside the sandbox. The user is asked first and sees `reason`; the answer is kept in the session. Use it only when the sandbox blocked something the task needs (a write outside the workspace, the network), never to try a command first.",
        ),
      reason: z.string().optional().describe("Why this command must run outside the sandbox (required with escalate: true): one sentence the user can judge."),
    })
    .superRefine((args, ctx) => {
      if (args.escalate === true && (args.reason ?? "").trim() === "") ctx.addIssue({ code: "custom", path: ["reason"], message: "a non-empty string when escalate is true" });
    });

type BashArgs = { command: string; timeout?: number; escalate?: boolean; reason?: string };

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
  /** Confines every command (absent or inactive: commands run with the user's rights). */
  sandbox?: SandboxApi;
}

export function createBashTool(options: BashToolOptions): ToolDefinition<z.ZodType<BashArgs>> {
  const defaultTimeout = options.defaultTimeoutSeconds ?? DEFAULT_TOOL_TIMEOUT_SECONDS;
  const sandbox = options.sandbox?.active ? options.sandbox : undefined;
  const plain = !sandbox?.escalation && defaultTimeout === DEFAULT_TOOL_TIMEOUT_SECONDS;
  return defineTool<z.ZodType<BashArgs>>({
    name: "bash",
    description:
      "Run a shell command in the working directory and return its combined stdout and stderr (ANSI colours " +
      `removed). Only the last ${DEFAULT_MAX_LINES} lines or ${formatSize(DEFAULT_MAX_BYTES)} of output are returned; when ` +
      "output is cut, the complete output is saved to a file whose path is given at the end (read it with the read " +
      "tool or grep it). A non-zero exit code is reported as an error. Commands run non-interactively (no stdin); " +
      "use `timeout` for commands that might hang, and prefer the read/grep/find/ls tools for inspecting files." +
      (sandbox ? ` ${sandbox.summary}` : ""),
    parameters: sandbox?.escalation ? escalatingParams(defaultTimeout) : bashParams(defaultTimeout),
    outputSchema: BASH_OUTPUT_SCHEMA as unknown as Record<string, unknown>,
    ...(plain ? { precomputedJsonSchema: BASH_JSON_SCHEMA } : {}),
    async execute(args, ctx): Promise<ToolResult> {
      const updates = throttledUpdates((text) => ctx.onUpdate({ content: [{ type: "text", text }], details: { truncation: null, fullOutputPath: null } }));
      const timeout = args.timeout ?? defaultTimeout;
      const escalate = args.escalate === true && args.reason ? { reason: args.reason } : undefined;
      let confined = false;
      const confine = sandbox
        ? async (spawn: CommandSpawn) => {
            const launch = await sandbox.confine(spawn, { command: args.command, toolCallId: ctx.toolCallId, signal: ctx.signal, ...(escalate ? { escalate } : {}) });
            confined = launch.confined;
            return launch;
          }
        : undefined;
      // The runner (output cleaning, the process tree) loads with the first command, not at every start.
      const { runShellCommand } = await import("./run.js");
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
          ...(confine ? { confine } : {}),
        });
      } finally {
        updates.flush();
      }
      if (result.fullOutputPath) options.onFullOutput?.(result.fullOutputPath);

      const body = withTruncationNotice(result);
      const note = confined && sandbox && result.exitCode !== 0 ? sandbox.explain(result.output) : undefined;
      const fail = (status: string) => new Error([body, status, note].filter(Boolean).join("\n\n"));
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
