/**
 * Executes an assistant turn's tool calls, in call order: validate -> tool_call guard ->
 * execute (streaming tool_execution_update) -> tool_result transform -> tool_execution_end ->
 * the ToolResultMessage. A failure of any step is an error result; the run goes on.
 */
import { announce, type ToolRegistryView, type ToolResult } from "../../kernel/index.js";
import type { AgentMessage, ToolCall, ToolResultMessage } from "../../lib/llm/index.js";
import { endMessage, type AnnounceTarget } from "./hooks.js";

export interface ToolHost extends AnnounceTarget {
  tools: ToolRegistryView;
  cwd: string;
  messages: AgentMessage[];
}

export async function executeToolCalls(host: ToolHost, calls: ToolCall[], signal: AbortSignal): Promise<ToolResultMessage[]> {
  const results: ToolResultMessage[] = [];
  for (const call of calls) {
    const result = await executeOne(host, call, signal);
    const message: ToolResultMessage = {
      role: "toolResult",
      toolCallId: call.id,
      toolName: call.name,
      content: result.content,
      ...(result.details === undefined ? {} : { details: result.details }),
      isError: result.isError === true,
      timestamp: Date.now(),
    };
    host.messages.push(message);
    await announce(host, "message_start", { message });
    results.push(await endMessage(host, message, host.messages));
  }
  return results;
}

async function executeOne(host: ToolHost, call: ToolCall, signal: AbortSignal): Promise<ToolResult> {
  const args = call.arguments;
  await announce(host, "tool_execution_start", { toolCallId: call.id, toolName: call.name, args });

  const ran = await runTool(host, call, signal);
  let result = ran.result;
  if (host.hooks.tool_result.isUsed()) {
    const transformed = await host.hooks.tool_result.promise({
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
  await announce(host, "tool_execution_end", {
    toolCallId: call.id,
    toolName: call.name,
    result: { content: result.content, details: result.details },
    isError,
    ...(ran.durationMs !== undefined ? { durationMs: ran.durationMs } : {}),
  });
  return { ...result, isError };
}

/** The tool's result, with how long its execute() took when it ran (`tool_execution_end.durationMs`). */
async function runTool(host: ToolHost, call: ToolCall, signal: AbortSignal): Promise<{ result: ToolResult; durationMs?: number }> {
  if (signal.aborted) return { result: errorResult("Operation aborted") };
  const validation = await host.tools.validate(call.name, call.arguments);
  if (!validation.ok) return { result: errorResult(validation.error) };

  if (host.hooks.tool_call.isUsed()) {
    const veto = await host.hooks.tool_call.promise({ toolCallId: call.id, toolName: call.name, input: validation.args });
    if (veto?.block) return { result: errorResult(veto.reason ?? "Tool execution was blocked") };
  }

  const tool = host.tools.get(call.name)!;
  // A tool may call onUpdate after it settled (a late stream chunk): that would put an update
  // after tool_execution_end, so updates stop once execute returns.
  let running = true;
  const started = performance.now();
  const timed = (result: ToolResult) => ({ result, durationMs: Math.round(performance.now() - started) });
  try {
    const result = await tool.execute(validation.args, {
      toolCallId: call.id,
      signal,
      cwd: host.cwd,
      onUpdate: (partial) => {
        if (!running) return;
        void announce(host, "tool_execution_update", {
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
