/**
 * The agent's state machine: conversation state, queues, model and thinking level, and the
 * lifecycle of runs (start, continue, abort, settle). It performs no I/O of its own.
 */
import { randomUUID } from "node:crypto";
import { ErrorCode, KernelError, publicModel, type AgentMessage, type ImageContent, type Model, type PluginContext, type ThinkingLevel } from "../../kernel/index.js";
import type { AgentApi, PromptInput, QueueMode, StateContributor } from "./api.js";
import { notify } from "./notify.js";
import { MessageQueues } from "./queue.js";
import { lastAssistant, queuedToUserMessage, runTurns, toUserMessage, type Opening, type RunHost } from "./run-loop.js";
import { clampThinkingLevel, thinkingLevelsFor } from "../../kernel/index.js";

export const STREAMING_WITHOUT_BEHAVIOR =
  "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.";

interface ActiveRun {
  controller: AbortController;
  settled: Promise<void>;
}

export class Agent implements AgentApi {
  readonly #k: PluginContext;
  #messages: AgentMessage[] = [];
  #model: Model | null = null;
  #thinkingLevel: ThinkingLevel;
  #sessionId: string | undefined = randomUUID();
  #autoCompaction: boolean;
  #run: ActiveRun | undefined;
  #callIndex = 0;
  #systemPrompt = "";
  readonly #queues: MessageQueues;
  readonly #contributors: StateContributor[] = [];

  constructor(k: PluginContext) {
    this.#k = k;
    const settings = k.config.settings;
    this.#thinkingLevel = settings.defaultThinkingLevel ?? "medium";
    this.#autoCompaction = settings.compaction?.enabled ?? true;
    this.#queues = new MessageQueues(settings.steeringMode ?? "one-at-a-time", settings.followUpMode ?? "one-at-a-time");
  }

  // ---- model and thinking
  getModel(): Model | null {
    return this.#model;
  }

  async setModel(model: Model | null, source: "set" | "cycle" | "restore" | "startup"): Promise<void> {
    const previousModel = this.#model;
    this.#model = model;
    // model_select / thinking_level_select are hooks for plugins, not protocol events: nothing on stdout.
    const hook = this.#k.hooks.model_select;
    if (model && hook.isUsed()) await hook.promise({ model, ...(previousModel ? { previousModel } : {}), source });
    await this.setThinkingLevel(this.#thinkingLevel);
  }

  getThinkingLevel(): ThinkingLevel {
    return this.#thinkingLevel;
  }

  async setThinkingLevel(level: ThinkingLevel): Promise<ThinkingLevel> {
    const previousLevel = this.#thinkingLevel;
    const next = clampThinkingLevel(level, this.availableThinkingLevels());
    this.#thinkingLevel = next;
    const hook = this.#k.hooks.thinking_level_select;
    if (next !== previousLevel && hook.isUsed()) await hook.promise({ level: next, previousLevel });
    return next;
  }

  availableThinkingLevels(model: Model | null = this.#model): ThinkingLevel[] {
    return thinkingLevelsFor(model);
  }

  // ---- messages
  getMessages(): AgentMessage[] {
    return this.#messages;
  }

  replaceMessages(messages: AgentMessage[]): void {
    if (this.#run) throw new KernelError(ErrorCode.CONFLICT, "Cannot replace messages while the agent is running");
    this.#messages = [...messages];
  }

  removeMessage(message: AgentMessage): boolean {
    const index = this.#messages.lastIndexOf(message);
    if (index < 0) return false;
    this.#messages.splice(index, 1);
    return true;
  }

  async appendMessage(message: AgentMessage): Promise<void> {
    this.#messages.push(message);
    const hook = this.#k.hooks.message_end;
    if (hook.isUsed()) await hook.promise({ message });
  }

  // ---- runs
  isStreaming(): boolean {
    return this.#run !== undefined;
  }

  runSignal(): AbortSignal | undefined {
    return this.#run?.controller.signal;
  }

  async prompt(input: PromptInput): Promise<void> {
    const hooks = this.#k.hooks;
    let text = input.text;
    let images = input.images;
    // Input taps run first, even while streaming: they run extension commands (which work
    // mid-stream) and expand templates before a queued message is stored (spec, prompt pipeline).
    if (hooks.input.isUsed()) {
      const result = await hooks.input.promise({
        text,
        ...(images ? { images } : {}),
        source: input.source ?? "rpc",
        ...(input.streamingBehavior ? { streamingBehavior: input.streamingBehavior } : {}),
      });
      if (result.handled) return;
      text = result.text;
      images = result.images;
    }
    if (this.#run) {
      if (!input.streamingBehavior) throw new KernelError(ErrorCode.CONFLICT, STREAMING_WITHOUT_BEHAVIOR);
      if (input.streamingBehavior === "steer") this.steer(text, images);
      else this.followUp(text, images);
      return;
    }
    const rejection = await hooks.prompt_preflight.promise({ text });
    if (rejection) throw new KernelError(ErrorCode.UNAVAILABLE, rejection);
    if (!this.#model) throw new KernelError(ErrorCode.UNAVAILABLE, "No model selected. Use set_model or start with --provider/--model.");
    // A run may have started while the preflight was awaited (an extension's sendMessage).
    if (this.#run) throw new KernelError(ErrorCode.CONFLICT, STREAMING_WITHOUT_BEHAVIOR);

    const queued = this.#queues.takeAll().map(queuedToUserMessage);
    this.#startRun({ messages: [...queued, toUserMessage(text, images)], fromQueue: queued.length > 0 }, text, images);
  }

  steer(text: string, images?: ImageContent[]): void {
    this.#queues.push("steering", text, images);
    this.#emitQueueUpdate();
  }

  followUp(text: string, images?: ImageContent[]): void {
    this.#queues.push("followUp", text, images);
    this.#emitQueueUpdate();
  }

  async abort(): Promise<void> {
    const run = this.#run;
    if (!run) return;
    run.controller.abort();
    await run.settled;
  }

  async waitForIdle(): Promise<void> {
    while (this.#run) await this.#run.settled;
  }

  // ---- queues and flags
  getSteeringMode(): QueueMode {
    return this.#queues.steeringMode;
  }

  setSteeringMode(mode: QueueMode): void {
    this.#queues.steeringMode = mode;
  }

  getFollowUpMode(): QueueMode {
    return this.#queues.followUpMode;
  }

  setFollowUpMode(mode: QueueMode): void {
    this.#queues.followUpMode = mode;
  }

  pendingMessageCount(): number {
    return this.#queues.size;
  }

  clearQueues(): void {
    if (this.#queues.size === 0) return;
    this.#queues.takeAll();
    this.#emitQueueUpdate();
  }

  isAutoCompactionEnabled(): boolean {
    return this.#autoCompaction;
  }

  setAutoCompactionEnabled(enabled: boolean): void {
    this.#autoCompaction = enabled;
  }

  setSessionId(id: string | undefined): void {
    this.#sessionId = id;
  }

  addStateContributor(contributor: StateContributor): void {
    this.#contributors.push(contributor);
  }

  /** The `get_state` payload. */
  state(): Record<string, unknown> {
    const base: Record<string, unknown> = {
      model: this.#model && publicModel(this.#model),
      thinkingLevel: this.#thinkingLevel,
      isStreaming: this.isStreaming(),
      isCompacting: false,
      steeringMode: this.#queues.steeringMode,
      followUpMode: this.#queues.followUpMode,
      sessionId: this.#sessionId,
      autoCompactionEnabled: this.#autoCompaction,
      messageCount: this.#messages.length,
      pendingMessageCount: this.#queues.size,
    };
    for (const contributor of this.#contributors) Object.assign(base, contributor());
    return base;
  }

  #emitQueueUpdate(): void {
    this.#k.events.emit("queue_update", this.#queues.snapshot());
  }

  /** Marks the agent busy now (so the response can precede agent_start) and runs on the next tick. */
  #startRun(opening: Opening, prompt: string, images: ImageContent[] | undefined): void {
    const controller = new AbortController();
    let finish!: () => void;
    const settled = new Promise<void>((resolve) => (finish = resolve));
    this.#run = { controller, settled };
    setImmediate(() => {
      this.#drive(opening, prompt, images, controller.signal)
        .catch((error: unknown) => this.#k.log.error(`agent run failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}`))
        .finally(() => {
          this.#run = undefined;
          finish();
        });
    });
  }

  async #drive(opening: Opening, prompt: string, images: ImageContent[] | undefined, signal: AbortSignal): Promise<void> {
    this.#callIndex = 0;
    this.#systemPrompt = await this.#buildSystemPrompt(prompt, images);
    // A continuation (retry, overflow compaction) opens with no new message of its own.
    let initial: Opening = opening;
    for (;;) {
      await notify(this.#k, "agent_start", {});
      let produced: AgentMessage[] = [];
      try {
        produced = await runTurns(this.#host(), initial, signal);
      } finally {
        // Even a bug inside the loop closes the run: a client never waits for an agent_end.
        await notify(this.#k, "agent_end", { messages: produced });
      }
      initial = { messages: [], fromQueue: false };
      if (signal.aborted) return;
      const verdict = await this.#k.hooks.run_end.promise({ messages: produced, lastAssistant: lastAssistant(produced), signal });
      if (!verdict?.continue || signal.aborted) return;
    }
  }

  async #buildSystemPrompt(prompt: string, images: ImageContent[] | undefined): Promise<string> {
    const hooks = this.#k.hooks;
    const base = await hooks.system_prompt.promise("", { cwd: this.#k.config.cwd, tools: this.#k.tools.specs(), model: this.#model });
    if (!hooks.before_agent_start.isUsed()) return base;
    const result = await hooks.before_agent_start.promise({ prompt, ...(images ? { images } : {}), systemPrompt: base });
    return result.systemPrompt;
  }

  #host(): RunHost {
    const agent = this;
    const k = this.#k;
    return {
      hooks: k.hooks,
      events: k.events,
      tools: k.tools,
      cwd: k.config.cwd,
      messages: this.#messages,
      model: () => agent.#model,
      thinkingLevel: () => agent.#thinkingLevel,
      sessionId: () => agent.#sessionId,
      systemPrompt: () => agent.#systemPrompt,
      toolSpecs: () => k.tools.specs(),
      nextCallIndex: () => ++agent.#callIndex,
      takeSteering: () => agent.#queues.takeSteering(),
      takeFollowUp: () => agent.#queues.takeFollowUp(),
      emitQueueUpdate: () => agent.#emitQueueUpdate(),
    };
  }
}
