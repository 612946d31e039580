/**
 * pi-agent-core's `Agent` for extensions: a small agent of the extension's own (a reviewer, an
 * arbiter) with its system prompt, model, tools and transcript, run by pi's loop: stream a
 * response, run its tool calls (`beforeToolCall` may block one, `afterToolCall` may change a
 * result), and go on while the model calls tools, until a batch whose every result says
 * `terminate`, an error or `abort()`. Steering and follow-up messages are taken between turns.
 * Requests go through `streamFn` (by default the running agent's providers, bound per scope in
 * modules.ts), in pi 1.x's transcript form (a leading `system` message) with `systemPrompt` and
 * `tools` beside it for a stream function that reads those.
 */
import type { AgentEvent, AgentOptions, AgentState, QueueMode, StreamFn } from "./agent-types.js";
import { runToolCalls, type ToolCall, type ToolCallHost } from "./agent-tool-calls.js";
import { createInitialSystemMessage } from "./transcript.js";
import type { AssistantMessage, ImageContent, LlmMessage } from "../../../lib/llm/index.js";

export type * from "./agent-types.js";

type Message = LlmMessage | { role: string; [key: string]: unknown };

const LLM_ROLES = new Set(["user", "assistant", "toolResult"]);

/** pi's default: the messages an LLM understands, the rest (an extension's custom entries) left out. */
export const defaultConvertToLlm = (messages: Message[]): LlmMessage[] => messages.filter((message) => LLM_ROLES.has(message.role)) as LlmMessage[];

export class Agent {
  /** Where requests go when the options name no `streamFn` (set per scope by the loader). */
  static defaultStreamFn: StreamFn | undefined;
  readonly #state: AgentState;
  readonly #listeners = new Set<(event: AgentEvent, signal: AbortSignal) => Promise<void> | void>();
  readonly #steering: Message[] = [];
  readonly #followUps: Message[] = [];
  #run: { controller: AbortController; done: Promise<void> } | undefined;
  /** What a turn's tool calls (agent-tool-calls.ts) reach of this agent. */
  readonly #toolHost: ToolCallHost = { agent: this, emit: (event, signal) => this.#emit(event, signal), context: () => this.#context() };
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  convertToLlm: NonNullable<AgentOptions["convertToLlm"]>;
  transformContext: AgentOptions["transformContext"];
  streamFunction: StreamFn | undefined;
  getApiKey: AgentOptions["getApiKey"];
  beforeToolCall: AgentOptions["beforeToolCall"];
  afterToolCall: AgentOptions["afterToolCall"];
  finishTurn: AgentOptions["finishTurn"];
  toolExecution: NonNullable<AgentOptions["toolExecution"]>;
  sessionId: string | undefined;

  constructor(options: AgentOptions = {}) {
    const initial = options.initialState ?? {};
    let tools = [...(initial.tools ?? [])];
    let messages = [...(initial.messages ?? [])];
    const pending = new Set<string>();
    this.#state = {
      systemPrompt: initial.systemPrompt ?? "",
      model: initial.model as AgentState["model"],
      thinkingLevel: initial.thinkingLevel ?? "off",
      get tools() {
        return tools;
      },
      set tools(next) {
        tools = [...next];
      },
      get messages() {
        return messages;
      },
      set messages(next) {
        messages = [...next];
      },
      isStreaming: false,
      pendingToolCalls: pending,
    };
    this.convertToLlm = options.convertToLlm ?? defaultConvertToLlm;
    this.transformContext = options.transformContext;
    this.streamFunction = options.streamFn ?? options.streamFunction;
    this.getApiKey = options.getApiKey;
    this.beforeToolCall = options.beforeToolCall;
    this.afterToolCall = options.afterToolCall;
    this.finishTurn = options.finishTurn;
    this.toolExecution = options.toolExecution ?? "parallel";
    this.steeringMode = options.steeringMode ?? "one-at-a-time";
    this.followUpMode = options.followUpMode ?? "one-at-a-time";
    this.sessionId = options.sessionId;
  }

  get state(): AgentState {
    return this.#state;
  }

  get signal(): AbortSignal | undefined {
    return this.#run?.controller.signal;
  }

  subscribe(listener: (event: AgentEvent, signal: AbortSignal) => Promise<void> | void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  steer(message: Message): void {
    this.#steering.push(message);
  }

  followUp(message: Message): void {
    this.#followUps.push(message);
  }

  clearSteeringQueue(): void {
    this.#steering.length = 0;
  }

  clearFollowUpQueue(): void {
    this.#followUps.length = 0;
  }

  clearAllQueues(): void {
    this.clearSteeringQueue();
    this.clearFollowUpQueue();
  }

  hasQueuedMessages(): boolean {
    return this.#steering.length > 0 || this.#followUps.length > 0;
  }

  peekQueuedMessages(): Message[] {
    return [...this.#steering, ...this.#followUps];
  }

  abort(): void {
    this.#run?.controller.abort();
  }

  async waitForIdle(): Promise<void> {
    await this.#run?.done;
  }

  reset(): void {
    this.abort();
    this.#state.messages = [];
    this.clearAllQueues();
    this.#mutable.errorMessage = undefined;
  }

  prompt(input: string | Message | Message[], images?: ImageContent[]): Promise<void> {
    const messages: Message[] =
      typeof input === "string"
        ? [{ role: "user", content: images && images.length > 0 ? [{ type: "text", text: input }, ...images] : input, timestamp: Date.now() }]
        : Array.isArray(input)
          ? input
          : [input];
    return this.#start(messages);
  }

  continue(): Promise<void> {
    const last = this.#state.messages.at(-1);
    if (!last) return Promise.reject(new Error("No messages to continue from"));
    if (last.role === "assistant") return Promise.reject(new Error("Cannot continue from message role: assistant"));
    return this.#start([]);
  }

  get #mutable(): { -readonly [K in keyof AgentState]: AgentState[K] } {
    return this.#state as { -readonly [K in keyof AgentState]: AgentState[K] };
  }

  #start(messages: Message[]): Promise<void> {
    if (this.#run) return Promise.reject(new Error("Agent is already processing a prompt. Use steer() or followUp() to queue messages, or wait for completion."));
    const controller = new AbortController();
    const done = this.#loop(messages, controller.signal).finally(() => {
      this.#run = undefined;
    });
    this.#run = { controller, done };
    return done;
  }

  async #emit(event: AgentEvent, signal: AbortSignal): Promise<void> {
    for (const listener of [...this.#listeners]) await listener(event, signal);
  }

  /** `started`: its message_start went out while it streamed. */
  async #add(message: Message, added: Message[], signal: AbortSignal, started = false): Promise<void> {
    if (!started) await this.#emit({ type: "message_start", message } as AgentEvent, signal);
    this.#state.messages.push(message as never);
    added.push(message);
    await this.#emit({ type: "message_end", message } as AgentEvent, signal);
  }

  #dequeue(queue: Message[], mode: QueueMode): Message[] {
    return mode === "all" ? queue.splice(0) : queue.splice(0, 1);
  }

  async #loop(first: Message[], signal: AbortSignal): Promise<void> {
    const state = this.#mutable;
    state.isStreaming = true;
    state.errorMessage = undefined;
    const added: Message[] = [];
    try {
      await this.#emit({ type: "agent_start" }, signal);
      let pending = first.length > 0 ? first : this.#dequeue(this.#steering, this.steeringMode);
      while (true) {
        await this.#emit({ type: "turn_start" }, signal);
        for (const message of pending) await this.#add(message, added, signal);
        const { message, started } = await this.#respond(signal);
        await this.#add(message, added, signal, started);
        if (message.stopReason === "error" || message.stopReason === "aborted") {
          state.errorMessage = message.errorMessage ?? (message.stopReason === "aborted" ? "Request aborted" : "Request failed");
          await this.#emit({ type: "turn_end", message, toolResults: [] } as AgentEvent, signal);
          break;
        }
        const calls = message.content.filter((part): part is ToolCall => part.type === "toolCall");
        const batch = calls.length > 0 ? await runToolCalls(this.#toolHost, message, calls, signal) : { results: [], terminate: false };
        for (const result of batch.results) await this.#add(result, added, signal);
        const decision = await this.finishTurn?.({ message, toolResults: batch.results, context: this.#context(), newMessages: added } as never, signal);
        await this.#emit({ type: "turn_end", message, toolResults: batch.results } as AgentEvent, signal);
        if (decision?.action === "end" || signal.aborted) break;
        pending = this.#dequeue(this.#steering, this.steeringMode);
        if ((calls.length > 0 && !batch.terminate) || pending.length > 0 || decision?.action === "continue") continue;
        pending = this.#dequeue(this.#followUps, this.followUpMode);
        if (pending.length === 0) break;
      }
    } catch (error) {
      state.errorMessage = error instanceof Error ? error.message : String(error);
    } finally {
      state.isStreaming = false;
      state.streamingMessage = undefined;
      await this.#emit({ type: "agent_end", messages: added } as AgentEvent, signal);
    }
  }

  #context() {
    return { messages: this.#state.messages, tools: this.#state.tools };
  }

  /** One request: the assistant message it ended with (an error or abort as a message, as pi's loop records it). */
  async #respond(signal: AbortSignal): Promise<{ message: AssistantMessage; started: boolean }> {
    const { model, systemPrompt, thinkingLevel } = this.#state;
    const stream = this.streamFunction ?? (this.constructor as typeof Agent).defaultStreamFn;
    const failed = (errorMessage: string, stopReason: "error" | "aborted" = "error"): AssistantMessage => ({
      role: "assistant",
      content: [],
      api: model?.api ?? "",
      provider: model?.provider ?? "",
      model: model?.id ?? "",
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason,
      errorMessage,
      timestamp: Date.now(),
    });
    if (!model) return { message: failed("The agent has no model (initialState.model)"), started: false };
    if (!stream) return { message: failed("The agent has no stream function (streamFn)"), started: false };
    let messages = this.#state.messages as Message[];
    if (this.transformContext) messages = (await this.transformContext(messages as never, signal)) as Message[];
    const tools = this.#state.tools.map(({ name, description, parameters }) => ({ name, description, parameters: parameters as Record<string, unknown> }));
    const system = createInitialSystemMessage(systemPrompt, tools);
    const context = { systemPrompt, tools, messages: [...(system ? [system] : []), ...(await this.convertToLlm(messages as never))] };
    const apiKey = await this.getApiKey?.(model.provider);
    let final: AssistantMessage | undefined;
    let started = false;
    try {
      const events = await stream(model, context as never, {
        signal,
        ...(thinkingLevel && thinkingLevel !== "off" ? { reasoning: thinkingLevel } : {}),
        ...(apiKey ? { apiKey } : {}),
        ...(this.sessionId ? { sessionId: this.sessionId } : {}),
      });
      for await (const event of events as AsyncIterable<{ type: string; partial?: AssistantMessage; message?: AssistantMessage; error?: AssistantMessage }>) {
        if (event.type === "done") final = event.message;
        else if (event.type === "error") final = event.error;
        else if (event.partial) {
          this.#mutable.streamingMessage = event.partial;
          if (!started) await this.#emit({ type: "message_start", message: event.partial } as AgentEvent, signal);
          else await this.#emit({ type: "message_update", message: event.partial, assistantMessageEvent: event } as AgentEvent, signal);
          started = true;
        }
      }
    } catch (error) {
      final = failed(error instanceof Error ? error.message : String(error), signal.aborted ? "aborted" : "error");
    } finally {
      this.#mutable.streamingMessage = undefined;
    }
    const message =
      final ?? failed(signal.aborted ? "Request aborted" : `The provider for ${model.provider}/${model.id} ended without a final message`, signal.aborted ? "aborted" : "error");
    return { message, started };
  }
}
