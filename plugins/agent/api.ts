/**
 * The agent core's service API (`services.get("agent")`): the conversation state and the turn
 * loop. Other plugins (sessions, models, retry, bash, compaction, extensions) drive it through
 * this interface; it does no I/O of its own.
 */
import type { ZodRawShape } from "zod";
import type { AgentMessage, AssistantStream, CustomMessage, ImageContent, LlmMessage, Model, ThinkingLevel, ToolSpec } from "../../lib/llm/index.js";
import type { CommandSource } from "../../kernel/index.js";

export type QueueMode = "all" | "one-at-a-time";

/**
 * What became of a submitted `prompt` (pi 1.x): `started` a run, `queued` while one streams, or
 * `handled` by an extension command or input handler (no run: no `agent_settled` follows).
 */
export type PromptDisposition = "started" | "queued" | "handled";
/** What became of a `steer` / `follow_up`: queued, or consumed by an input handler. */
export type QueuedInputDisposition = Exclude<PromptDisposition, "started">;

export interface PromptInput {
  text: string;
  /** The command that carried it (default `prompt`): `steer`/`follow_up` always queue. */
  via?: "prompt" | "steer" | "follow_up";
  images?: ImageContent[];
  streamingBehavior?: "steer" | "followUp";
  /** Who sent it (the command's source); extensions see it in the `input` hook. */
  source?: CommandSource;
  /** Arrival number of the command: an `abort` read after it still aborts its run. */
  seq?: number;
}

/** One LLM call outside the conversation (compaction planning, an extension's side question). */
export interface CompletionRequest {
  /** Default: the session's model. */
  model?: Model;
  systemPrompt: string;
  messages: LlmMessage[];
  tools?: ToolSpec[];
  signal: AbortSignal;
  /** Default: off. */
  thinkingLevel?: ThinkingLevel;
  maxTokens?: number;
}

/** Adds fields to the `get_state` response (session file, compaction state, ...). */
export type StateContributor = () => Record<string, unknown>;

export interface AgentApi {
  getModel(): Model | null;
  /** Sets the model, re-clamps the thinking level, fires model_select. */
  setModel(model: Model | null, source: "set" | "cycle" | "restore" | "startup"): Promise<void>;
  getThinkingLevel(): ThinkingLevel;
  /**
   * Clamps to what the model supports; fires thinking_level_select when it changes, and (once
   * booted, unless `restore`: a session being loaded) the `thinking_level_changed` event. Returns
   * the level set.
   */
  setThinkingLevel(level: ThinkingLevel, options?: { restore?: boolean }): Promise<ThinkingLevel>;
  /** Levels the current (or given) model accepts, in cycle order. */
  availableThinkingLevels(model?: Model | null): ThinkingLevel[];

  /** The live context (what get_messages returns). */
  getMessages(): AgentMessage[];
  /** Replaces the context wholesale (session switch, fork, compaction rebuild). Not while streaming. */
  replaceMessages(messages: AgentMessage[]): void;
  /** Removes one message from the live context (e.g. a failed turn before a retry). */
  removeMessage(message: AgentMessage): boolean;
  /** Appends a message outside a run; it fires message_end hooks (persistence) but no event. */
  appendMessage(message: AgentMessage): Promise<void>;
  /**
   * Appends now when idle; while a run streams, when it ends (before agent_settled), so it can
   * never land between a tool call and its result (user bash results, next-turn notes).
   */
  appendAfterRun(message: AgentMessage): Promise<void>;

  isStreaming(): boolean;
  /**
   * The input pipeline of `prompt`, `steer` and `follow_up`: the `input` hook (extension
   * commands, skill and template expansion), then a run, or the queue (steer/follow_up, or a
   * prompt while streaming with a streamingBehavior). Resolves once accepted, with what became
   * of it (`steer`/`follow_up` never start a run).
   */
  prompt(input: PromptInput): Promise<PromptDisposition>;
  /**
   * Streams one LLM call through the same providers, outside the conversation: no events, no
   * history. Throws when there is no model or no provider for its API.
   */
  complete(request: CompletionRequest): AssistantStream;
  steer(text: string, images?: ImageContent[]): void;
  followUp(text: string, images?: ImageContent[]): void;
  /**
   * Queues an extension's custom message (pi's `sendMessage` with `deliverAs` steer or followUp):
   * delivered where a steering / follow-up text would be, or ahead of the next prompt when idle.
   */
  queueMessage(kind: "steer" | "followUp", message: CustomMessage): void;
  /**
   * Starts a run that opens with `message` (after any queued messages), as `prompt` does with a
   * text: pi's `sendMessage` with `triggerTurn` while idle. Rejects while streaming, without a
   * model, or when the preflight refuses.
   */
  promptMessage(message: CustomMessage): Promise<void>;
  /**
   * Aborts the current run (if any; `abort` hook taps stop compaction, retry waits, ...) and
   * resolves once its closing events are out. `seq`: the abort's arrival number, so a prompt
   * read before it but not yet started starts aborted; with `earlier` (the command's), the
   * abort also waits for such a run to close.
   */
  abort(seq?: number, earlier?: () => Promise<void>): Promise<void>;
  waitForIdle(): Promise<void>;
  /** Signal of the running run, undefined when idle. */
  runSignal(): AbortSignal | undefined;

  getSteeringMode(): QueueMode;
  setSteeringMode(mode: QueueMode): void;
  getFollowUpMode(): QueueMode;
  setFollowUpMode(mode: QueueMode): void;
  pendingMessageCount(): number;
  /** Drops every queued steering/follow-up message (session replacement); queue_update when any was queued. */
  clearQueues(): void;
  /**
   * `clear_queue`: removes every queued message (extensions' too) and returns the user texts that
   * were waiting; a `queue_update` with empty lists says so, as in pi.
   */
  takeQueues(): { steering: string[]; followUp: string[] };

  /** Session identity used for provider cache keys; set by the session plugin. */
  setSessionId(id: string | undefined): void;
  /**
   * Adds fields to `get_state`; `fields` is their zod shape (it documents the response and tests
   * validate it). A contributor owns its fields (compaction: isCompacting, autoCompactionEnabled).
   */
  addStateContributor(contributor: StateContributor, fields: () => ZodRawShape): void;
}

/** What the model sees of the conversation: agent messages as LLM messages (pure; extensions' `convertToLlm`). */
export { toLlmMessages } from "./convert.js";
export type {} from "./events.js";
import type { AgentHooks } from "./hooks.js";
export type * from "./hook-types.js";
export type { AgentHooks } from "./hooks.js";

declare module "../../kernel/services.js" {
  interface Services {
    agent: AgentApi;
  }
}

declare module "../../kernel/hooks.js" {
  interface HookCatalog extends AgentHooks {}
}

/** The hooks this plugin declares (for a stand-in plugin in tests, which must declare them too). */
export { agentHookDeclarations } from "./hooks.js";
