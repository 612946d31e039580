/**
 * pi's `AgentSession` for extensions (made by `createAgentSession`, agent-session-create.ts): a
 * second agent in the extension's process, booted by `atomic-agent/sdk`'s `createAgent` (loaded
 * on first use) and driven through its commands and events. The members pi's SDK docs and
 * examples use are real (prompt awaited to the settle, subscribe, messages, model, abort,
 * dispose, the session file and id, ...); the getters read a copy of the agent's state refreshed
 * after every command and settle. Members with no Atomic equivalent throw an error naming what to
 * use instead.
 */
import type { Agent, AgentEvent, PromptOptions as SdkPromptOptions } from "../../../sdk/index.js";
import { UNSUPPORTED_SESSION_METHODS, UNSUPPORTED_SESSION_PROPERTIES } from "./agent-session-unsupported.js";
import { VIRTUAL_MODEL_API } from "../virtual-model-api.js";

type Message = Record<string, unknown> & { role: string };
type Model = Record<string, unknown> & { provider: string; id: string };
type Content = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };
type StateData = {
  model: Model | null;
  thinkingLevel: string;
  isStreaming: boolean;
  steeringMode: "all" | "one-at-a-time";
  followUpMode: "all" | "one-at-a-time";
  sessionId: string;
  pendingMessageCount: number;
  sessionFile?: string;
  sessionName?: string;
  modelFallbackMessage?: string;
};

export interface PromptOptions {
  images?: Extract<Content, { type: "image" }>[];
  streamingBehavior?: "steer" | "followUp";
}

const BUILT = Symbol("atomic.agent-session");

export class AgentSession {
  readonly #agent: Agent;
  #state: StateData;
  #messages: Message[];
  #streaming = false;
  #disposed: Promise<void> | undefined;
  /** Under a virtual model: the models an answer can come from (read with the state). */
  #physicalModels: Model[] = [];

  /** Built by `createAgentSession()`; pi's constructor takes its internal objects, which Atomic does not have. */
  constructor(...args: unknown[]) {
    if (args[0] !== BUILT) throw new Error("new AgentSession() is not supported in Atomic: use `await createAgentSession(options)`");
    const [, agent, state, messages] = args as [symbol, Agent, StateData, Message[]];
    this.#agent = agent;
    this.#state = state;
    this.#messages = messages;
    agent.subscribe((event) => this.#observe(event));
  }

  /** @internal */
  static async open(agent: Agent): Promise<AgentSession> {
    const [state, messages] = await Promise.all([agent.send({ type: "get_state" }), agent.getMessages()]);
    if (!state.success) throw new Error(state.error);
    // A copy: in process, the response may hand out the agent's own array.
    const session = new AgentSession(BUILT, agent, state.data as StateData, [...(messages as unknown as Message[])]);
    await session.#readPhysicalModels();
    return session;
  }

  /** @internal The session's commands, for AgentSessionRuntime (same module family). */
  static command(session: AgentSession, command: Record<string, unknown> & { type: string }): Promise<unknown> {
    return session.#command(command);
  }

  /** Every event of the session (pi's and Atomic's events share their shapes); returns the unsubscribe function. */
  subscribe(listener: (event: AgentEvent) => void): () => void {
    return this.#agent.subscribe(listener);
  }

  /** Sends the prompt and resolves once the agent has settled; a failed run resolves too, its error in the last assistant message (as pi). */
  async prompt(text: string, options: PromptOptions = {}): Promise<void> {
    const sdkOptions: SdkPromptOptions = {};
    if (options.images) sdkOptions.images = options.images;
    if (options.streamingBehavior) sdkOptions.streamingBehavior = options.streamingBehavior;
    try {
      await this.#agent.prompt(text, sdkOptions);
    } catch (error) {
      if ((error as Error).name !== "AgentRunError") throw error;
    } finally {
      await this.#refresh();
    }
  }

  async steer(text: string, images?: PromptOptions["images"]): Promise<void> {
    await this.#agent.steer(text, images);
    await this.#refresh();
  }

  async followUp(text: string, images?: PromptOptions["images"]): Promise<void> {
    await this.#agent.followUp(text, images);
    await this.#refresh();
  }

  /** A user message: prompted when idle, else queued as `deliverAs` says (default: steer). */
  async sendUserMessage(content: string | Content[], options: { deliverAs?: "steer" | "followUp" } = {}): Promise<void> {
    const parts = typeof content === "string" ? [{ type: "text" as const, text: content }] : content;
    const text = parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    const images = parts.filter((part): part is Extract<Content, { type: "image" }> => part.type === "image");
    if (!this.#streaming) return this.prompt(text, images.length > 0 ? { images } : {});
    return options.deliverAs === "followUp" ? this.followUp(text, images) : this.steer(text, images);
  }

  async abort(): Promise<void> {
    await this.#agent.abort();
    await this.#refresh();
  }

  waitForIdle(): Promise<void> {
    return this.#agent.waitForIdle();
  }

  /** Stops the agent (aborting a run, flushing the session); `await` it to know it is done. */
  dispose(): Promise<void> {
    return (this.#disposed ??= this.#agent.dispose());
  }

  async setModel(model: Model): Promise<void> {
    await this.#command({ type: "set_model", provider: model.provider, modelId: model.id });
  }

  async setThinkingLevel(level: string): Promise<void> {
    await this.#command({ type: "set_thinking_level", level });
  }

  async setSessionName(name: string): Promise<void> {
    await this.#command({ type: "set_session_name", name });
  }

  async setSteeringMode(mode: "all" | "one-at-a-time"): Promise<void> {
    await this.#command({ type: "set_steering_mode", mode });
  }

  async setFollowUpMode(mode: "all" | "one-at-a-time"): Promise<void> {
    await this.#command({ type: "set_follow_up_mode", mode });
  }

  /** The next model of the scoped models (or the available ones); undefined when there is no other. */
  async cycleModel(direction: "forward" | "backward" = "forward"): Promise<unknown> {
    return this.#command({ type: "cycle_model", ...(direction === "backward" ? { direction } : {}) });
  }

  async setAutoCompactionEnabled(enabled: boolean): Promise<void> {
    await this.#command({ type: "set_auto_compaction", enabled });
  }

  async setAutoRetryEnabled(enabled: boolean): Promise<void> {
    await this.#command({ type: "set_auto_retry", enabled });
  }

  async abortRetry(): Promise<void> {
    await this.#command({ type: "abort_retry" });
  }

  /** Runs a shell command as the user (`!cmd`): its output goes to the model with the next prompt unless `excludeFromContext`. */
  async executeBash(command: string, _onChunk?: unknown, options: { excludeFromContext?: boolean } = {}): Promise<unknown> {
    return this.#command({ type: "bash", command, ...(options.excludeFromContext ? { excludeFromContext: true } : {}) });
  }

  async abortBash(): Promise<void> {
    await this.#command({ type: "abort_bash" });
  }

  async compact(customInstructions?: string): Promise<unknown> {
    return this.#command({ type: "compact", ...(customInstructions !== undefined ? { customInstructions } : {}) });
  }

  async exportToHtml(outputPath?: string): Promise<string> {
    const data = (await this.#command({ type: "export_html", ...(outputPath !== undefined ? { outputPath } : {}) })) as { path: string };
    return data.path;
  }

  getLastAssistantText(): string | undefined {
    const last = this.#messages.findLast((message) => message.role === "assistant");
    const content = last?.content as { type: string; text?: string }[] | undefined;
    const text = content?.flatMap((part) => (part.type === "text" && part.text ? [part.text] : [])).join("");
    return text || undefined;
  }

  /** The conversation, oldest first. */
  get messages(): Message[] {
    return [...this.#messages];
  }
  /** pi's agent state: the parts Atomic's agent reports. */
  get state(): { messages: Message[]; model: Model | undefined; thinkingLevel: string; isStreaming: boolean; errorMessage: string | undefined } {
    const last = this.#messages.findLast((message) => message.role === "assistant");
    return {
      messages: this.messages,
      model: this.model,
      thinkingLevel: this.thinkingLevel,
      isStreaming: this.isStreaming,
      errorMessage: last?.stopReason === "error" ? String(last.errorMessage ?? "") : undefined,
    };
  }
  get model(): Model | undefined {
    return this.#state.model ?? undefined;
  }
  get thinkingLevel(): string {
    return this.#state.thinkingLevel;
  }
  /** Under a virtual model, the model and thinking level of the latest successful answer (pi 1.6). */
  get routedModel(): { model: Model; thinkingLevel: string | undefined } | undefined {
    if (this.#state.model?.api !== VIRTUAL_MODEL_API) return undefined;
    const latest = this.#messages.findLast((message) => message.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "aborted");
    const model = latest && this.#physicalModels.find((candidate) => candidate.provider === latest.provider && candidate.id === latest.model);
    return model && { model, thinkingLevel: latest.thinkingLevel as string | undefined };
  }
  get isStreaming(): boolean {
    return this.#streaming;
  }
  get isIdle(): boolean {
    return !this.#streaming;
  }
  get sessionFile(): string | undefined {
    return this.#state.sessionFile;
  }
  get sessionId(): string {
    return this.#state.sessionId;
  }
  get sessionName(): string | undefined {
    return this.#state.sessionName;
  }
  get steeringMode(): "all" | "one-at-a-time" {
    return this.#state.steeringMode;
  }
  get followUpMode(): "all" | "one-at-a-time" {
    return this.#state.followUpMode;
  }
  /** Why prompts are refused (the saved model's provider is unsupported), when they are. */
  get modelFallbackMessage(): string | undefined {
    return this.#state.modelFallbackMessage;
  }
  get pendingMessageCount(): number {
    return this.#state.pendingMessageCount;
  }

  #observe(event: AgentEvent): void {
    if (event.type === "agent_start") this.#streaming = true;
    else if (event.type === "agent_settled") this.#streaming = false;
    else if (event.type === "message_end") this.#messages.push((event as { message: Message }).message);
  }

  async #command(command: Record<string, unknown> & { type: string }): Promise<unknown> {
    const response = (await this.#agent.send(command as Parameters<Agent["send"]>[0])) as { success: boolean; error?: string; data?: unknown } | undefined;
    if (!response?.success) throw new Error(response?.error ?? `No response to ${command.type}`);
    await this.#refresh();
    return response.data;
  }

  /** The state and conversation as the agent has them now (live copies between two refreshes). */
  async #refresh(): Promise<void> {
    if (this.#disposed) return;
    const [state, messages] = await Promise.all([this.#agent.send({ type: "get_state" }), this.#agent.getMessages()]);
    if (state.success) this.#state = state.data as StateData;
    this.#messages = [...(messages as unknown as Message[])];
    await this.#readPhysicalModels();
  }

  /** Only a session on a virtual model needs them (`routedModel`): no request otherwise. */
  async #readPhysicalModels(): Promise<void> {
    if (this.#state.model?.api !== VIRTUAL_MODEL_API) return;
    const response = (await this.#agent.send({ type: "get_available_models" })) as { success: boolean; data?: { models?: Model[] } };
    if (response.success) this.#physicalModels = (response.data?.models ?? []).filter((model) => model.api !== VIRTUAL_MODEL_API);
  }

  static {
    for (const [name, instead] of Object.entries(UNSUPPORTED_SESSION_METHODS)) {
      Object.defineProperty(AgentSession.prototype, name, {
        value() {
          throw new Error(`AgentSession.${name}() is not available in Atomic: ${instead}`);
        },
        configurable: true,
        writable: true,
      });
    }
    for (const [name, instead] of Object.entries(UNSUPPORTED_SESSION_PROPERTIES)) {
      Object.defineProperty(AgentSession.prototype, name, {
        get() {
          throw new Error(`AgentSession.${name} is not available in Atomic: ${instead}`);
        },
        configurable: true,
      });
    }
  }
}
