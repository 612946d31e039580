/**
 * A turn's tool calls for pi-agent-core's `Agent` (agent.ts), run as pi's loop runs them: all at
 * once unless the agent or one of the tools asks for one at a time; `beforeToolCall` may block a
 * call, `afterToolCall` may change its result, and a missing tool or a throw becomes an error
 * result. The batch terminates the run when every result says `terminate`. Apart from the loop,
 * which streams the responses and decides when another turn comes.
 */
import type { AssistantMessage, ToolResultMessage } from "../../../lib/llm/index.js";
import type { Agent } from "./agent.js";
import type { AgentEvent, AgentTool, AgentToolResult } from "./agent-types.js";

export type ToolCall = { type: "toolCall"; id: string; name: string; arguments: Record<string, unknown> };

/** What the calls need of the agent: its tools and hooks (read as each call runs), its events and context. */
export interface ToolCallHost {
  agent: Pick<Agent, "state" | "toolExecution" | "beforeToolCall" | "afterToolCall">;
  emit(event: AgentEvent, signal: AbortSignal): Promise<void>;
  context(): unknown;
}

export async function runToolCalls(
  host: ToolCallHost,
  message: AssistantMessage,
  calls: ToolCall[],
  signal: AbortSignal,
): Promise<{ results: ToolResultMessage[]; terminate: boolean }> {
  const sequential = host.agent.toolExecution === "sequential" || calls.some((call) => toolNamed(host, call.name)?.executionMode === "sequential");
  const outcomes: { result: AgentToolResult<unknown>; message: ToolResultMessage }[] = [];
  if (sequential) for (const call of calls) outcomes.push(await runToolCall(host, message, call, signal));
  else outcomes.push(...(await Promise.all(calls.map((call) => runToolCall(host, message, call, signal)))));
  return { results: outcomes.map((outcome) => outcome.message), terminate: outcomes.every((outcome) => outcome.result.terminate === true) };
}

function toolNamed(host: ToolCallHost, name: string): AgentTool | undefined {
  return host.agent.state.tools.find((tool) => tool.name === name);
}

async function runToolCall(host: ToolCallHost, message: AssistantMessage, call: ToolCall, signal: AbortSignal) {
  const pending = host.agent.state.pendingToolCalls as Set<string>;
  pending.add(call.id);
  const started = Date.now();
  await host.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments }, signal);
  const errorResult = (text: string): AgentToolResult<unknown> => ({ content: [{ type: "text", text }], details: {}, isError: true });
  const tool = toolNamed(host, call.name);
  let args: unknown = call.arguments;
  let result: AgentToolResult<unknown>;
  try {
    if (!tool) result = errorResult(`Tool ${call.name} not found`);
    else {
      args = tool.prepareArguments ? tool.prepareArguments(call.arguments) : call.arguments;
      const before = await host.agent.beforeToolCall?.({ assistantMessage: message, toolCall: call, args, context: host.context() } as never, signal);
      if (before?.block) result = { ...errorResult(before.reason ?? `Tool call ${call.name} was blocked`), ...(before.terminate ? { terminate: true } : {}) };
      else {
        result = await tool.execute(call.id, args as never, signal, (partialResult) => {
          void host.emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, args, partialResult }, signal);
        });
        if (before?.terminate) result = { ...result, terminate: true };
      }
    }
  } catch (error) {
    result = errorResult(error instanceof Error ? error.message : String(error));
  }
  let isError = result.isError === true;
  if (tool) {
    const after = await host.agent.afterToolCall?.({ assistantMessage: message, toolCall: call, args, result, isError, context: host.context() } as never, signal);
    if (after) {
      result = { ...result, ...Object.fromEntries(Object.entries(after).filter(([, value]) => value !== undefined)) };
      isError = after.isError ?? isError;
    }
  }
  pending.delete(call.id);
  await host.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError, durationMs: Date.now() - started }, signal);
  const toolResult: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: result.content,
    details: result.details,
    isError,
    timestamp: Date.now(),
  } as ToolResultMessage;
  return { result, message: toolResult };
}
