/**
 * The hook catalogue: every point where plugins (and, through the extensions plugin, user
 * extensions) meet. One frozen object per kernel; the hook kind follows its meaning:
 * guard = first answer wins (bail), transform = waterfall, notify = series, internal = owner only.
 * Names are the extension event names (snake_case), so `pi.on("tool_call")` maps to `hooks.tool_call`.
 * Payloads of hooks that mirror an outward event are that event's payload (`EventMap`), plus
 * hook-only extras such as `turnIndex`: nothing is declared twice.
 */
import { AsyncSeriesBailHook, AsyncSeriesHook, AsyncSeriesWaterfallHook, HookMap, SyncBailHook } from "tapable";
import type { EventMap } from "./events.js";
import { installPolicies, type PluginErrorEvent } from "./hook-policy.js";
import type {
  CompactionParameters,
  CompactionPreparation,
  CompactionReason,
  CompactionResult,
  CompactionEntry,
  SessionEntry,
} from "./session-types.js";
import type { AssistantStream } from "./assistant-stream.js";
import type { AgentMessage, CustomMessage, ImageContent, Model, StreamRequest, TextContent, ThinkingLevel, ToolSpec } from "./types.js";

export type { PluginErrorEvent } from "./hook-policy.js";

export type SessionStartReason = "startup" | "new" | "resume" | "fork";
export type StreamingBehavior = "steer" | "followUp";
/** Who sent a command or a prompt: a transport name, "sdk", "extension", ... */
export type CommandSource = "rpc" | "json" | "print" | "acp" | "sdk" | "extension" | "cli" | (string & {});

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
}

export interface ToolCallVeto {
  block: true;
  reason?: string;
}

export interface ToolResultEvent {
  toolCallId: string;
  toolName: string;
  input: Record<string, unknown>;
  content: (TextContent | ImageContent)[];
  details?: unknown;
  isError: boolean;
}

export interface CancelVeto {
  cancel: true;
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

/** A context edit allowed at a run's edges only (compaction): replaces the live messages. */
export interface RunEdgeEvent {
  messages: readonly AgentMessage[];
  signal: AbortSignal;
  setContext(messages: AgentMessage[]): void;
}

export interface RunEndEvent extends RunEdgeEvent {
  /** What this run produced (the agent_end messages). */
  produced: AgentMessage[];
  lastAssistant: import("./types.js").AssistantMessage | undefined;
}

export interface UiResponse {
  id: string;
  value?: unknown;
  confirmed?: unknown;
  cancelled?: unknown;
}

export interface CompactVerdict {
  cancel?: boolean;
  /** Supplied text replaces the planner's (rung "extension"). */
  compactedText?: string;
  /**
   * pi's form of the same: `summary` is the compacted text; `firstKeptEntryId` may move the kept
   * tail (an entry of the current branch, or null for none); `details` are stored with the entry.
   */
  compaction?: { summary: string; firstKeptEntryId?: string | null; tokensBefore?: number; details?: unknown };
}

export interface UserBashEvent {
  /** Mutable: a tap may rewrite the command. */
  command: string;
  cwd: string;
  excludeFromContext: boolean;
}

export interface UserBashResult {
  output: string;
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  fullOutputPath?: string;
}

export type UserBashVerdict = { block: true; reason?: string } | { result: UserBashResult };

export type ShutdownReason = "eof" | "signal" | "exit";

export interface ResourcesDiscoverEvent {
  cwd: string;
  reason: "startup" | "reload";
  /** Accumulated across taps. */
  skillPaths: string[];
  promptPaths: string[];
  themePaths: string[];
}

type TurnIndex = { turnIndex: number };

/** Builds a fresh catalogue. Kept as one expression so the generics are the only types. */
function buildHooks() {
  return {
    // ---- host lifecycle
    boot: new AsyncSeriesHook<[]>([], "boot"),
    /** Teardown began: input is over, so whatever waits on the client (UI dialogs) gives up now. */
    closing: new AsyncSeriesHook<[{ reason: ShutdownReason }]>(["event"], "closing"),
    /** After every record read was answered: abort the run, cancel and drain long work (bash). */
    shutdown: new AsyncSeriesHook<[{ reason: ShutdownReason }]>(["event"], "shutdown"),
    plugin_error: new AsyncSeriesHook<[PluginErrorEvent]>(["event"], "plugin_error"),
    /** `abort` was read: everything cancellable (run, compaction, retry wait) stops. `seq` orders it against other input. */
    abort: new AsyncSeriesHook<[{ seq: number }]>(["event"], "abort"),
    /** A client's reply to an extension_ui_request; the dialog's owner answers `true`. */
    ui_response: new AsyncSeriesBailHook<[UiResponse], true | undefined>(["reply"], "ui_response"),
    project_trust: new AsyncSeriesBailHook<[{ cwd: string }], { trusted: "yes" | "no" } | undefined>(["event"], "project_trust"),
    resources_discover: new AsyncSeriesWaterfallHook<[ResourcesDiscoverEvent]>(["event"], "resources_discover"),

    // ---- session
    session_start: new AsyncSeriesHook<[{ reason: SessionStartReason; previousSessionFile?: string }]>(["event"], "session_start"),
    session_before_switch: new AsyncSeriesBailHook<[{ reason: "new" | "resume"; targetSessionFile?: string }], CancelVeto | undefined>(["event"], "session_before_switch"),
    session_before_fork: new AsyncSeriesBailHook<[{ entryId: string | null; position: "before" | "at" }], CancelVeto | undefined>(["event"], "session_before_fork"),
    session_before_compact: new AsyncSeriesBailHook<
      [{ reason: CompactionReason; parameters: CompactionParameters; preparation: CompactionPreparation; branchEntries: readonly SessionEntry[]; customInstructions?: string; signal: AbortSignal }],
      CompactVerdict | undefined
    >(["event"], "session_before_compact"),
    session_compact: new AsyncSeriesHook<[{ reason: CompactionReason; result: CompactionResult; compactionEntry: CompactionEntry; fromExtension: boolean }]>(["event"], "session_compact"),
    session_shutdown: new AsyncSeriesHook<[{ reason: "quit" | "new" | "resume" | "fork"; targetSessionFile?: string }]>(["event"], "session_shutdown"),
    session_info_changed: new AsyncSeriesHook<[{ name?: string }]>(["event"], "session_info_changed"),

    // ---- prompt
    input: new AsyncSeriesWaterfallHook<[InputEvent]>(["event"], "input"),
    /** A returned string rejects the prompt before any event (model/auth checks). */
    prompt_preflight: new AsyncSeriesBailHook<[{ text: string }], string | undefined>(["event"], "prompt_preflight"),
    system_prompt: new AsyncSeriesWaterfallHook<[string, SystemPromptContext]>(["prompt", "context"], "system_prompt"),
    before_agent_start: new AsyncSeriesWaterfallHook<[BeforeAgentStartEvent]>(["event"], "before_agent_start"),
    context: new AsyncSeriesWaterfallHook<[{ messages: AgentMessage[] }]>(["event"], "context"),

    // ---- a run
    /** Before agent_start: the one context edit allowed before the first LLM call (threshold compaction). */
    run_start: new AsyncSeriesHook<[RunEdgeEvent]>(["event"], "run_start"),
    agent_start: new AsyncSeriesHook<[EventMap["agent_start"]]>(["event"], "agent_start"),
    agent_end: new AsyncSeriesHook<[EventMap["agent_end"]]>(["event"], "agent_end"),
    /** After agent_end: a tap may edit the context and ask for a continuation (retry, overflow compaction). */
    run_end: new AsyncSeriesBailHook<[RunEndEvent], { continue: true } | undefined>(["event"], "run_end"),
    /** Nothing pending any more: no run, retry, compaction or continuation (queued messages waiting for a command do not count). */
    agent_settled: new AsyncSeriesHook<[{}]>(["event"], "agent_settled"),
    turn_start: new AsyncSeriesHook<[EventMap["turn_start"] & TurnIndex]>(["event"], "turn_start"),
    turn_end: new AsyncSeriesHook<[EventMap["turn_end"] & TurnIndex]>(["event"], "turn_end"),
    message_start: new AsyncSeriesHook<[EventMap["message_start"]]>(["event"], "message_start"),
    message_update: new AsyncSeriesHook<[EventMap["message_update"]]>(["event"], "message_update"),
    /** May replace the message (same role); the outward event carries the result. */
    message_end: new AsyncSeriesWaterfallHook<[EventMap["message_end"]], EventMap["message_end"] | void>(["event"], "message_end"),

    // ---- tools and user shell commands
    tool_call: new AsyncSeriesBailHook<[ToolCallEvent], ToolCallVeto | undefined>(["event"], "tool_call"),
    tool_result: new AsyncSeriesWaterfallHook<[ToolResultEvent]>(["event"], "tool_result"),
    tool_execution_start: new AsyncSeriesHook<[EventMap["tool_execution_start"]]>(["event"], "tool_execution_start"),
    tool_execution_update: new AsyncSeriesHook<[EventMap["tool_execution_update"]]>(["event"], "tool_execution_update"),
    tool_execution_end: new AsyncSeriesHook<[EventMap["tool_execution_end"]]>(["event"], "tool_execution_end"),
    user_bash: new AsyncSeriesBailHook<[UserBashEvent], UserBashVerdict | undefined>(["event"], "user_bash"),

    // ---- model and provider
    model_select: new AsyncSeriesHook<[{ model: Model; previousModel?: Model; source: "set" | "cycle" | "restore" | "startup" | "fallback" }]>(["event"], "model_select"),
    thinking_level_select: new AsyncSeriesHook<[{ level: ThinkingLevel; previousLevel: ThinkingLevel }]>(["event"], "thinking_level_select"),
    /** Mutable `headers`: set a value to add or change a header, `null` to remove one. */
    before_provider_headers: new AsyncSeriesHook<[{ headers: Record<string, string | null>; model: Model }]>(["event"], "before_provider_headers"),
    before_provider_request: new AsyncSeriesWaterfallHook<[{ payload: unknown; model: Model }]>(["event"], "before_provider_request"),
    after_provider_response: new AsyncSeriesHook<[{ status: number; headers: Record<string, string>; model: Model }]>(["event"], "after_provider_response"),
    /** Providers, keyed by API name (`anthropic-messages`, `openai-completions`, ...): first tap that answers streams. */
    stream: new HookMap<SyncBailHook<[StreamRequest], AssistantStream | undefined>>(
      (api: string) => new SyncBailHook<[StreamRequest], AssistantStream | undefined>(["request"], `stream:${api}`),
      "stream",
    ),
  };
}

export type Hooks = ReturnType<typeof buildHooks>;
export type HookName = keyof Hooks & string;

/** The single argument a hook's taps receive. */
export type HookPayload<K extends HookName> = Hooks[K] extends { promise(arg: infer A, ...rest: any[]): any } ? A : never;

/** A fresh, frozen catalogue whose taps follow `HOOK_POLICY`; failures are sent to `report`. */
export function createHooks(report: (event: PluginErrorEvent) => void, bootTimeoutMs = 15_000): Hooks {
  const hooks = buildHooks();
  installPolicies(hooks, report, bootTimeoutMs);
  return Object.freeze(hooks);
}

/** Named tap stages: lower runs first. Use `before:` only for a real dependency. */
export const STAGE = Object.freeze({ FIRST: -1000, GUARD: -100, DEFAULT: 0, OBSERVE: 100, LAST: 1000 });
