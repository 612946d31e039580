/**
 * The `bash` and `abort_bash` commands: shell commands the user (not the model) runs, on the
 * immediate lane so several run at once while everything else is answered. Each streams
 * `bash_execution_update` deltas under its own request id, may be inspected, rewritten, refused
 * or answered by a `user_bash` tap, and ends with one response and one BashExecutionMessage,
 * stored in the session where it started (see store-result.ts).
 */
import { z } from "zod";
import { defineCommand, NO_DATA, ErrorCode, formatValidationError, KernelError, type CommandContext, type CommandDefinition, type EventBus } from "../../kernel/index.js";
import type { BashExecutionMessage } from "../../lib/llm/index.js";
import type { BashHooks, UserBashEvent, UserBashResult, UserBashVerdict } from "./hooks.js";
import type { BashRequest, BashRequests } from "./requests.js";
import { withCommandPrefix } from "./shell.js";

/** A piece of a user bash command's output; `id` is the request's (absent when it had none). */
export const BashExecutionUpdateSchema = () =>
  z
    .object({
      id: z.union([z.string(), z.number()]).optional().meta({ description: "The originating bash request's id (absent when it had none)." }),
      channel: z.enum(["stdout", "stderr"]).describe("Which stream it came from."),
      delta: z.string().describe("The new output."),
    })
    .meta({ description: "A correlated stdout/stderr delta of a user `bash` command.", examples: [{ id: "b1", channel: "stdout", delta: "Tests: 12 passed\n" }] });

declare module "../../kernel/events.js" {
  interface EventMap {
    bash_execution_update: z.output<ReturnType<typeof BashExecutionUpdateSchema>>;
  }
}

/** What the `bash` command answers (the protocol's BashResult). */
export interface BashCommandResult {
  output: string;
  /** Absent when cancelled. */
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
}

export interface UserBashDeps {
  hooks: BashHooks;
  events: Pick<EventBus, "emit" | "drain">;
  cwd: string;
  shell: () => Promise<string>;
  commandPrefix?: string;
  requests: BashRequests;
  /** A full-output file was written. */
  onFullOutput(path: string): void;
  /** Binds the result's destination when the request starts; the returned function stores it. */
  openStore(): (message: BashExecutionMessage) => Promise<void>;
}

const nonBlank = (value: string) => value.trim() !== "";

const BashInput = () =>
  z
    .object({
      command: z.string().refine(nonBlank, "non-empty string").describe("The command line, run by the shell in the working folder."),
      /** Keep the result out of the LLM context (pi's `!!`). */
      excludeFromContext: z.boolean().optional().describe("Keep the output out of the model's context (pi's `!!`)."),
    })
    .meta({ examples: [{ command: "git status --short" }] });

/** A request id as the client sent it (zod's union error would not say "string or number"). */
const RequestId = () =>
  z
    .custom<string | number>((value) => typeof value === "string" || (typeof value === "number" && Number.isFinite(value)), "string or number")
    .meta({ type: ["string", "number"], description: "The id of the bash request to cancel." });

/** A `user_bash` tap's own answer; the flags default to false. Built on first use, not at startup. */
let handlerResultSchema: ReturnType<typeof buildHandlerResult> | undefined;
const buildHandlerResult = () =>
  z.object({
    output: z.string(),
    exitCode: z.number().int().optional(),
    cancelled: z.boolean().default(false),
    truncated: z.boolean().default(false),
    fullOutputPath: z.string().optional(),
  });

export function userBashCommands(deps: UserBashDeps): CommandDefinition<any, any>[] {
  const bash = defineCommand({
    name: "bash",
    description: "Run a shell command for the user in the working directory; its output reaches the LLM with the next prompt.",
    lane: "immediate",
    input: BashInput,
    output: () =>
      z.object({
        output: z.string().describe("stdout and stderr as they interleaved (the tail when truncated)."),
        exitCode: z.number().optional().meta({ description: "Absent when cancelled; a non-zero exit is still a success." }),
        cancelled: z.boolean().describe("It was cancelled (`abort_bash`, teardown) before it exited."),
        truncated: z.boolean().describe("`output` is the tail of a longer output (see fullOutputPath)."),
        fullOutputPath: z.string().optional().meta({ description: "The complete output, when truncated." }),
      }),
    run: (input, ctx) => runUserBash(deps, input, ctx),
  });
  const abortBash = defineCommand({
    name: "abort_bash",
    description: "Cancel the running bash request with id `requestId`, or without it every running bash request.",
    lane: "immediate",
    input: () => z.object({ requestId: RequestId().optional() }).meta({ examples: [{ requestId: "b1" }] }),
    output: NO_DATA,
    run: ({ requestId }, ctx) => {
      deps.requests.cancel(ctx.source, requestId);
    },
  });
  return [bash, abortBash];
}

async function runUserBash(deps: UserBashDeps, input: z.output<ReturnType<typeof BashInput>>, ctx: CommandContext): Promise<BashCommandResult> {
  const request = deps.requests.begin(ctx.id, ctx.source);
  try {
    const store = deps.openStore();
    const event: UserBashEvent = { command: input.command, cwd: deps.cwd, excludeFromContext: input.excludeFromContext ?? false };
    const hook = deps.hooks.user_bash;
    const answer: unknown = hook.isUsed() ? await hook.promise(event) : undefined;
    // Taps are user code: anything but an object is no verdict at all.
    const verdict = typeof answer === "object" && answer !== null ? (answer as UserBashVerdict) : undefined;
    if (verdict && "block" in verdict && verdict.block) {
      throw new KernelError(ErrorCode.CANCELLED, verdict.reason || "Command blocked by a user_bash handler");
    }
    if (typeof event.command !== "string" || !nonBlank(event.command)) {
      throw new KernelError(ErrorCode.INVALID_INPUT, "A user_bash handler rewrote the command to an empty or non-string value");
    }
    const result = verdict && "result" in verdict ? handlerResult(verdict.result) : await execute(deps, event.command, request);
    await store(toMessage(event, result));
    return result;
  } finally {
    request.end();
  }
}

async function execute(deps: UserBashDeps, command: string, request: BashRequest): Promise<BashCommandResult> {
  const { id } = request;
  const { runShellCommand } = await import("./run.js");
  const result = await runShellCommand({
    command: withCommandPrefix(command, deps.commandPrefix),
    cwd: deps.cwd,
    shell: await deps.shell(),
    signal: request.signal,
    onOutput: (channel, delta) => deps.events.emit("bash_execution_update", id === undefined ? { channel, delta } : { id, channel, delta }),
    // A client reading slowly slows the command's output down instead of growing our buffers.
    backpressure: () => deps.events.drain(),
  });
  if (result.fullOutputPath) deps.onFullOutput(result.fullOutputPath);
  return shape({ ...result, fullOutputPath: result.fullOutputPath ?? undefined });
}

/** A tap's answer, checked: it goes on the wire and into the session as it is. */
function handlerResult(raw: UserBashResult): BashCommandResult {
  const parsed = (handlerResultSchema ??= buildHandlerResult()).safeParse(raw);
  if (!parsed.success) throw new KernelError(ErrorCode.INVALID_INPUT, `A user_bash handler returned an invalid result: ${formatValidationError(parsed.error)}`);
  return shape(parsed.data);
}

/** The response's shape: `exitCode` only when there is one and the command was not cancelled. */
function shape(result: { output: string; exitCode?: number | undefined; cancelled: boolean; truncated: boolean; fullOutputPath?: string | undefined }): BashCommandResult {
  const { output, exitCode, cancelled, truncated, fullOutputPath } = result;
  return {
    output,
    ...(exitCode === undefined || cancelled ? {} : { exitCode }),
    cancelled,
    truncated,
    ...(fullOutputPath ? { fullOutputPath } : {}),
  };
}

function toMessage(event: UserBashEvent, result: BashCommandResult): BashExecutionMessage {
  return {
    role: "bashExecution",
    command: event.command,
    output: result.output,
    ...(result.exitCode === undefined ? {} : { exitCode: result.exitCode }),
    cancelled: result.cancelled,
    truncated: result.truncated,
    fullOutputPath: result.fullOutputPath ?? null,
    timestamp: Date.now(),
    ...(event.excludeFromContext ? { excludeFromContext: true } : {}),
  };
}
