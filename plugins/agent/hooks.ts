/**
 * The hooks the agent core owns (calls), and how it announces a finished message: the only
 * announcement whose hook may change what goes on the wire (`message_end` may replace the
 * message, keeping its role).
 */
import type { AgentMessage, EventBus, Hooks } from "../../kernel/index.js";

export const AGENT_HOOKS = [
  "abort",
  "input",
  "prompt_preflight",
  "system_prompt",
  "before_agent_start",
  "context",
  "run_start",
  "agent_start",
  "agent_end",
  "run_end",
  "agent_settled",
  "turn_start",
  "turn_end",
  "message_start",
  "message_update",
  "message_end",
  "tool_call",
  "tool_result",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "model_select",
  "thinking_level_select",
  "stream",
] as const;

export type AgentHooks = Pick<Hooks, (typeof AGENT_HOOKS)[number]>;

export interface AnnounceTarget {
  hooks: AgentHooks;
  events: EventBus;
  /** Where a rejected replacement is reported. */
  warn(message: string): void;
}

/**
 * Runs `message_end` taps, then writes the event with the message they settled on. A
 * replacement with another role is refused (reported, the original kept). Returns the message
 * that now stands in `list` (replaced in place when a tap swapped it).
 */
export async function endMessage<M extends AgentMessage>(target: AnnounceTarget, message: M, list?: AgentMessage[]): Promise<M> {
  let final: M = message;
  const hook = target.hooks.message_end;
  if (hook.isUsed()) {
    const result = (await hook.promise({ message }))?.message;
    if (result && result !== message) {
      if (result.role === message.role) final = result as M;
      else target.warn(`message_end: a replacement must keep the role "${message.role}" (got "${String((result as { role?: unknown }).role)}"); kept the original`);
    }
  }
  if (final !== message && list) {
    const index = list.lastIndexOf(message);
    if (index >= 0) list[index] = final;
  }
  target.events.emit("message_end", { message: final });
  return final;
}
