/** The payloads of the agent's hooks (besides those that mirror an outward event). */
import type { CommandSource } from "../../kernel/index.js";
import type { AgentMessage, AssistantMessage, CustomMessage, ImageContent, Model, TextContent, ToolSpec } from "../../lib/llm/index.js";

export type StreamingBehavior = "steer" | "followUp";

export interface InputEvent {
  text: string;
  images?: ImageContent[];
  source: CommandSource;
  /** Which command carried it: `steer`/`follow_up` queue it, `prompt` sends it (or queues it with a streamingBehavior). */
  via: "prompt" | "steer" | "follow_up";
  streamingBehavior?: StreamingBehavior;
  /** Arrival number of the command that carried it: work it starts is aborted by an `abort` read after it (`abort` hook `seq`). */
  seq?: number;
  /** Set by a tap that fully handled the input: nothing is sent or queued. */
  handled?: boolean;
  /**
   * Set by a tap that refuses the input (an extension command sent by steer/follow_up): the
   * command fails with this text, nothing is sent or queued. A throwing tap cannot do this: the
   * `input` hook isolates failures and passes the input through.
   */
  rejected?: string;
}

export interface ToolCallEvent {
  toolCallId: string;
  toolName: string;
  /** Mutable: a tap may rewrite arguments in place (no re-validation). */
  input: Record<string, unknown>;
  /** The tool call that made this one (a codemode script's calls); absent for the model's own calls. */
  parentToolCallId?: string;
}

export interface ToolCallVeto {
  block: true;
  reason?: string;
  /** The blocked call's result ends the run as a `terminate` result does (pi 1.x). */
  terminate?: boolean;
}

export interface ToolResultEvent {
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError: boolean;
  parentToolCallId?: string;
}

export interface SystemPromptContext {
  cwd: string;
  tools: ToolSpec[];
  model: Model | null;
}

export interface BeforeAgentStartEvent {
  /** The expanded prompt text. */
  prompt: string;
  images?: ImageContent[];
  /** Chained: what a tap returns here is the system prompt of this run only. */
  systemPrompt: string;
  /** Messages to store after the prompt (and send with it): taps push to it. */
  inject: CustomMessage[];
}

/** One LLM call's request as `context_with_system` taps see and return it. */
export interface RequestContext {
  systemPrompt: string;
  tools: ToolSpec[];
  messages: AgentMessage[];
}

/** A context edit allowed at a run's edges only (compaction): replaces the live messages. */
export interface RunEdgeEvent {
  messages: readonly AgentMessage[];
  signal: AbortSignal;
  setContext(messages: AgentMessage[]): void;
}

export interface RunEndEvent extends RunEdgeEvent {
  /** What this run produced (the agent_end messages). */
  produced: AgentMessage[];
  lastAssistant: AssistantMessage | undefined;
}

/**
 * A run_end tap's answer: continue the prompt with another run. `retrying` names the failed
 * answer that run retries (dropped from the context by the tap); its first LLM call carries it.
 */
export interface RunEndVerdict {
  continue: true;
  retrying?: AssistantMessage;
}

export type ModelSelectSource = "set" | "cycle" | "restore" | "startup" | "fallback";
