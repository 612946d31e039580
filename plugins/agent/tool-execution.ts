/**
 * Executes an assistant turn's tool calls, in call order: validate -> tool_call guard ->
 * execute (streaming tool_execution_update) -> tool_result transform -> tool_execution_end ->
 * the ToolResultMessage. A failure of any step is an error result; the run goes on.
 */
import { announce, type ToolResult } from "../../kernel/index.js";
import type { ToolCall, ToolResultMessage } from "../../lib/llm/index.js";
import { endMessage } from "./hooks.js";
import type { Run } from "./run.js";

export async function executeToolCalls(run: Run, calls: ToolCall[]): Promise<ToolResultMessage[]> {
  const results: ToolResultMessage[] = [];
  for (const call of calls) {
    const result = await executeOne(run, call);
    const message: ToolResultMessage = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      ...(result.details === undefined ? {} : { details: result.details }),
      isError: result.isError === true,
      timestamp: Date.now(),
    };
    run.messages.push(message);
    await announce(run, "message_start", { message });
    results.push(await endMessage(run, message, run.messages));
  }
  return results;
}

async function executeOne(run: Run, call: ToolCall): Promise<ToolResult> {
  const args = call.arguments;
  await announce(run, "tool_execution_start", { toolCallId: call.id, toolName: call.name, args });

  const ran = await runTool(run, call);
  let result = ran.result;
  if (run.hooks.tool_result.isUsed()) {
    const transformed = await run.hooks.tool_result.promise({
      toolCallId: call.id,
      toolName: call.name,
      input: args,
      content: result.content,
      details: result.details,
      isError: result.isError === true,
    });
    result = { content: transformed.content, details: transformed.details, isError: transformed.isError };
  }
  const isError = result.isError === true;
  await announce(run, "tool_execution_end", {
    toolCallId: call.id,
    toolName: call.name,
    result: { content: result.content, details: result.details },
    isError,
    ...(ran.durationMs !== undefined ? { durationMs: ran.durationMs } : {}),
  });
  return { ...result, isError };
}

/** The tool's result, with how long its execute() took when it ran (`tool_execution_end.durationMs`). */
async function runTool(run: Run, call: ToolCall): Promise<{ result: ToolResult; durationMs?: number }> {
  const { signal } = run;
  if (signal.aborted) return { result: errorResult("Operation aborted") };
  const validation = await run.deps.tools.validate(call.name, call.arguments);
  if (!validation.ok) return { result: errorResult(validation.error) };

  if (run.hooks.tool_call.isUsed()) {
    const veto = await run.hooks.tool_call.promise({ toolCallId: call.id, toolName: call.name, input: validation.args });
    if (veto?.block) return { result: errorResult(veto.reason ?? "Tool execution was blocked") };
  }

  const tool = run.deps.tools.get(call.name)!;
  // A tool may call onUpdate after it settled (a late stream chunk): that would put an update
  // after tool_execution_end, so updates stop once execute returns.
  let running = true;
  const started = performance.now();
  const timed = (result: ToolResult) => ({ result, durationMs: Math.round(performance.now() - started) });
  try {
    const result = await tool.execute(validation.args, {
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
        });
      },
    });
    if (!result || !Array.isArray(result.content)) return timed(errorResult(`Tool ${call.name} returned no content`));
    return timed(result);
  } catch (error) {
    return timed(errorResult(error instanceof Error ? error.message : String(error)));
  } finally {
    running = false;
  }
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: "text", text }], isError: true };
}
