/**
 * Executes an assistant turn's tool calls, in call order: validate -> tool_call guard ->
 * execute (streaming tool_execution_update) -> tool_result transform -> tool_execution_end ->
 * the ToolResultMessage. A failure of any step is an error result; the run goes on.
 *
 * A running tool may run other tools through `ctx.executeTool` (codemode scripts do): such a
 * nested call takes the same steps under the id `<parent id>/<n>`, with `parentToolCallId` on
 * its hooks and events, and reaches the tools the registry calls callable; its result goes back
 * to the calling tool only, never into the conversation.
 */
import { announce, type NestedToolOutcome, type ToolExecutionContext, type ToolResult } from "../../kernel/index.js";
import type { ToolCall, ToolResultMessage } from "../../lib/llm/index.js";
import { endMessage } from "./hooks.js";
import type { Run } from "./run.js";
import { unlessStalled } from "../../lib/stall/index.js";

/** The batch's results; `terminate` when every one asked to end the run (pi's rule: one that did not keeps it going). */
export async function executeToolCalls(run: Run, calls: ToolCall[]): Promise<{ results: ToolResultMessage[]; terminate: boolean }> {
  const results: ToolResultMessage[] = [];
  let terminate = calls.length > 0;
  for (const call of calls) {
    const result = await executeOne(run, call);
    if (result.terminate !== true) terminate = false;
    const message: ToolResultMessage = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      ...(result.details === undefined ? {} : { details: result.details }),
      ...(result.usage ? { usage: result.usage } : {}),
      isError: result.isError === true,
      timestamp: Date.now(),
    };
    run.messages.push(message);
    await announce(run, "message_start", { message });
    results.push(await endMessage(run, message, run.messages));
  }
  return { results, terminate };
}

/** Where a call comes from: the model (no parent) or a running tool. */
interface CallSite {
  signal: AbortSignal;
  parentToolCallId?: string;
}

type Call = Pick<ToolCall, "id" | "name" | "arguments">;

async function executeOne(run: Run, call: Call, site: CallSite = { signal: run.signal }): Promise<ToolResult> {
  const args = call.arguments;
  const parent = site.parentToolCallId === undefined ? {} : { parentToolCallId: site.parentToolCallId };
  await announce(run, "tool_execution_start", { toolCallId: call.id, toolName: call.name, args, ...parent });

  const ran = await runTool(run, call, site);
  let result = ran.result;
  if (run.hooks.tool_result.isUsed()) {
    const transformed = await run.hooks.tool_result.promise({
      toolCallId: call.id,
      toolName: call.name,
      input: args,
      content: result.content,
      details: result.details,
      isError: result.isError === true,
      ...parent,
    });
    result = { ...result, content: transformed.content, details: transformed.details, isError: transformed.isError };
  }
  const isError = result.isError === true;
  await announce(run, "tool_execution_end", {
    toolCallId: call.id,
    toolName: call.name,
    result: { content: result.content, details: result.details, ...(result.usage ? { usage: result.usage } : {}) },
    isError,
    ...(ran.durationMs !== undefined ? { durationMs: ran.durationMs } : {}),
    ...parent,
  });
  return { ...result, isError };
}

/** `ctx.executeTool` of the call `parentId`: its nested calls are `<parentId>/1`, `/2`, ... */
function nestedRunner(run: Run, parentId: string, parentSignal: AbortSignal): NonNullable<ToolExecutionContext["executeTool"]> {
  let count = 0;
  return async (name, args, options = {}): Promise<NestedToolOutcome> => {
    const toolCallId = `${parentId}/${++count}`;
    const signal = options.signal ? AbortSignal.any([parentSignal, options.signal]) : parentSignal;
    const result = await executeOne(run, { id: toolCallId, name: String(name), arguments: (args ?? {}) as Record<string, unknown> }, { signal, parentToolCallId: parentId });
    return { toolCallId, result, isError: result.isError === true };
  };
}

/** The tool's result, with how long its execute() took when it ran (`tool_execution_end.durationMs`). */
async function runTool(run: Run, call: Call, site: CallSite): Promise<{ result: ToolResult; durationMs?: number }> {
  const { signal } = site;
  const nested = site.parentToolCallId !== undefined;
  if (signal.aborted) return { result: errorResult("Operation aborted") };
  const validation = await run.deps.tools.validate(call.name, call.arguments, { nested });
  if (!validation.ok) return { result: errorResult(validation.error) };

  if (run.hooks.tool_call.isUsed()) {
    const parent = nested ? { parentToolCallId: site.parentToolCallId } : {};
    const veto = await run.hooks.tool_call.promise({ toolCallId: call.id, toolName: call.name, input: validation.args, ...parent });
    if (veto?.block) return { result: { ...errorResult(veto.reason ?? "Tool execution was blocked"), ...(veto.terminate ? { terminate: true } : {}) } };
  }

  const tool = run.deps.tools.get(call.name)!;
  // A tool may call onUpdate after it settled (a late stream chunk): that would put an update
  // after tool_execution_end, so updates stop once execute returns.
  let running = true;
  const started = performance.now();
  const timed = (result: ToolResult) => ({ result, durationMs: Math.round(performance.now() - started) });
  try {
    const executing = tool.execute(validation.args, {
      toolCallId: call.id,
      signal,
      cwd: run.deps.cwd,
      onUpdate: (partial) => {
        if (!running) return;
        void announce(run, "tool_execution_update", {
          toolCallId: call.id,
          toolName: call.name,
          args: call.arguments,
          partialResult: { content: partial.content, details: partial.details },
          ...(nested ? { parentToolCallId: site.parentToolCallId } : {}),
        });
      },
      executeTool: nestedRunner(run, call.id, signal),
    });
    // A tool awaiting a promise nobody settles would end the process mid-run, in silence.
    const result = await unlessStalled(Promise.resolve(executing), () =>
      errorResult(`Tool ${call.name} never finished: it waits for something that cannot happen (nothing else was left running to wake it)`),
    );
    if (!result || !Array.isArray(result.content)) return timed(errorResult(`Tool ${call.name} returned no content`));
    return timed(result);
  } catch (error) {
    return timed(errorResult(error instanceof Error ? error.message : String(error)));
  } finally {
    running = false;
  }
}

/** As pi's agent loop makes them: empty `details`, so a client reading them sees what pi sends. */
function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], details: {}, isError: true };
}
