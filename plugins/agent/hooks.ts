/**
 * The hooks the agent core declares and calls, and how it announces a finished message: the
 * only announcement whose hook may change what goes on the wire (`message_end` may replace the
 * message, keeping its role).
 */
import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook } from "tapable";
import { guard, internal, notify, transform, type DeclaredHooks, type EventBus, type EventMap } from "../../kernel/index.js";
import type { AgentMessage, Model, ThinkingLevel } from "../../lib/llm/index.js";
import type {
  BeforeAgentStartEvent,
  InputEvent,
  ModelSelectSource,
  RequestContext,
  RunEdgeEvent,
  RunEndEvent,
  RunEndVerdict,
  SystemPromptContext,
  ToolCallEvent,
  ToolCallVeto,
  ToolResultEvent,
} from "./hook-types.js";
import { StreamHooks } from "./stream-hooks.js";

type TurnIndex = { turnIndex: number };

export function agentHookDeclarations() {
  return {
    abort: notify(
      new AsyncSeriesHook<[{ seq: number }]>(["event"]),
      "`abort` was read: everything cancellable (run, compaction, retry wait) stops. `seq` orders it against other input.",
    ),
    input: transform(
      new AsyncSeriesWaterfallHook<[InputEvent]>(["event"]),
      "A prompt, steer or follow_up text arrives: taps run extension commands and expand skills and templates.",
    ),
    prompt_preflight: internal(
      new AsyncSeriesBailHook<[{ text: string }], string | undefined>(["event"]),
      "Before a run starts: a returned string refuses the prompt before any event (model and key checks).",
    ),
    system_prompt: transform(
      new AsyncSeriesWaterfallHook<[string, SystemPromptContext]>(["prompt", "context"]),
      "Builds the system prompt: persona, context files, skills, then date and folder.",
    ),
    before_agent_start: transform(
      new AsyncSeriesWaterfallHook<[BeforeAgentStartEvent]>(["event"]),
      "The prompt is about to run: taps may change this run's system prompt and add messages.",
    ),
    context: transform(new AsyncSeriesWaterfallHook<[{ messages: AgentMessage[] }]>(["event"]), "Before each LLM call: the messages the model will see (taps may edit a copy)."),
    context_with_system: transform(
      new AsyncSeriesWaterfallHook<[RequestContext]>(["event"]),
      "Before each LLM call, after `context`: the whole request (system prompt, tools, messages); what the taps return is sent.",
    ),
    run_start: internal(new AsyncSeriesHook<[RunEdgeEvent]>(["event"]), "Before agent_start: the one context edit allowed before the first LLM call (threshold compaction)."),
    agent_start: notify(new AsyncSeriesHook<[EventMap["agent_start"]]>(["event"]), "A run begins."),
    agent_end: notify(new AsyncSeriesHook<[EventMap["agent_end"]]>(["event"]), "A run ended, with every message it produced."),
    run_end: internal(
      new AsyncSeriesBailHook<[RunEndEvent], RunEndVerdict | undefined>(["event"]),
      "After agent_end: a tap may edit the context and ask for a continuation (retry, overflow compaction).",
    ),
    agent_settled: notify(
      new AsyncSeriesHook<[{ aborted: boolean }]>(["event"]),
      "A prompt's run is over and nothing is pending any more (no retry, compaction or continuation); `aborted` when an abort ended it. Not for a prompt an extension command handled.",
    ),
    turn_start: notify(new AsyncSeriesHook<[EventMap["turn_start"] & TurnIndex]>(["event"]), "A turn (one LLM call and its tool calls) begins."),
    turn_end: notify(new AsyncSeriesHook<[EventMap["turn_end"] & TurnIndex]>(["event"]), "A turn ended, with its assistant message and tool results."),
    message_start: notify(new AsyncSeriesHook<[EventMap["message_start"]]>(["event"]), "A message begins (user, assistant, tool result, custom)."),
    message_update: notify(new AsyncSeriesHook<[EventMap["message_update"]]>(["event"]), "The streamed assistant message grew."),
    message_end: transform(
      new AsyncSeriesWaterfallHook<[EventMap["message_end"]], EventMap["message_end"] | void>(["event"]),
      "A message is complete: a tap may replace it (same role) before it is stored and written.",
    ),
    tool_call: guard(
      new AsyncSeriesBailHook<[ToolCallEvent], ToolCallVeto | undefined>(["event"]),
      (message) => ({ block: true as const, reason: `Tool call blocked: ${message}` }),
      "Before a tool runs: a tap may block it or rewrite its arguments in place.",
    ),
    tool_result: transform(new AsyncSeriesWaterfallHook<[ToolResultEvent]>(["event"]), "A tool finished: taps may change its result before the model sees it."),
    tool_execution_start: notify(new AsyncSeriesHook<[EventMap["tool_execution_start"]]>(["event"]), "A tool starts running."),
    tool_execution_update: notify(new AsyncSeriesHook<[EventMap["tool_execution_update"]]>(["event"]), "A running tool reported its output so far."),
    tool_execution_end: notify(new AsyncSeriesHook<[EventMap["tool_execution_end"]]>(["event"]), "A tool finished running."),
    model_select: notify(new AsyncSeriesHook<[{ model: Model; previousModel?: Model; source: ModelSelectSource }]>(["event"]), "The model changed."),
    thinking_level_select: notify(new AsyncSeriesHook<[{ level: ThinkingLevel; previousLevel: ThinkingLevel }]>(["event"]), "The thinking level changed."),
    stream: internal(new StreamHooks(), "Providers, keyed by API name (`anthropic-messages`, `openai-completions`, ...): the first tap that answers streams the LLM call."),
  };
}

export type AgentHooks = DeclaredHooks<ReturnType<typeof agentHookDeclarations>>;

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
