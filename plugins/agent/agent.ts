/**
 * The agent's state machine: conversation state, queues, model and thinking level, and the
 * lifecycle of runs (start, abort, settle). It performs no I/O of its own: everything it says
 * goes out through the event bus and the hooks it owns.
 */
import { uuidV7 } from "../../lib/random-ids/index.js";
import { clampThinkingLevel, publicModel, thinkingLevelsFor } from "../../lib/llm/index.js";
import type { AgentMessage, AssistantStream, CustomMessage, ImageContent, Model, ThinkingLevel } from "../../lib/llm/index.js";
import { ErrorCode, KernelError, type PluginContext } from "../../kernel/index.js";
import type { ZodRawShape, ZodType } from "zod";
import type { AgentApi, CompletionRequest, PromptDisposition, PromptInput, QueueMode, StateContributor } from "./api.js";
import type { AgentHooks } from "./hooks.js";
import { DeferredMessages, MessageQueues } from "./queue.js";
import { replaceInPlace, Run, type RunDeps, type RunRequest } from "./run.js";
import { StateContributions } from "./state-schema.js";
import { queuedToMessage, toUserMessage } from "./run-loop.js";
import { applyInputHooks, completeOnce, NO_MODEL, STREAMING_WITHOUT_BEHAVIOR } from "./prompt-input.js";
import { noProviderMessage } from "./stream-hooks.js";
import type {} from "../models/api.js";

export class Agent implements AgentApi {
  readonly #k: PluginContext;
  readonly #hooks: AgentHooks;
  readonly #messages: AgentMessage[] = [];
  readonly #deferred = new DeferredMessages();
  #model: Model | null = null;
  #thinkingLevel: ThinkingLevel;
  #sessionId: string | undefined = uuidV7();
  #run: Run | undefined;
  /** Arrival number of the latest `abort`: a prompt read before it starts aborted. */
  #abortSeq = 0;
  readonly #queues: MessageQueues;
  readonly #contributions = new StateContributions();
  /** Set once boot is over: a change of level before that is the startup choice, not news for a client. */
  #live = false;

  constructor(k: PluginContext, hooks: AgentHooks) {
    this.#k = k;
    this.#hooks = hooks;
    const settings = k.config.settings;
    this.#thinkingLevel = settings.defaultThinkingLevel ?? "medium";
    this.#queues = new MessageQueues(settings.steeringMode ?? "one-at-a-time", settings.followUpMode ?? "one-at-a-time");
  }

  getModel(): Model | null {
    return this.#model;
  }

  async setModel(model: Model | null, source: "set" | "cycle" | "restore" | "startup"): Promise<void> {
    const previousModel = this.#model;
    this.#model = model;
    // model_select is a hook for plugins, not a protocol event: nothing on stdout.
    const hook = this.#hooks.model_select;
    if (model && hook.isUsed()) await hook.promise({ model, ...(previousModel ? { previousModel } : {}), source });
    // A level the new model clamps is news for the client (pi 1.x), except while a session loads.
    await this.setThinkingLevel(this.#thinkingLevel, { restore: source === "restore" });
  }

  getThinkingLevel(): ThinkingLevel {
    return this.#thinkingLevel;
  }

  async setThinkingLevel(level: ThinkingLevel, options: { restore?: boolean } = {}): Promise<ThinkingLevel> {
    const previousLevel = this.#thinkingLevel;
    const next = clampThinkingLevel(level, this.availableThinkingLevels());
    this.#thinkingLevel = next;
    if (next === previousLevel) return next;
    if (this.#live && !options.restore) this.#k.events.emit("thinking_level_changed", { level: next });
    const hook = this.#hooks.thinking_level_select;
    if (hook.isUsed()) await hook.promise({ level: next, previousLevel });
    return next;
  }

  /** Boot is over: from now on a change of level is announced (`thinking_level_changed`). */
  goLive(): void {
    this.#live = true;
  }

  availableThinkingLevels(model: Model | null = this.#model): ThinkingLevel[] {
    return thinkingLevelsFor(model);
  }

  getMessages(): AgentMessage[] {
    return this.#messages;
  }

  replaceMessages(messages: AgentMessage[]): void {
    if (this.#run) throw new KernelError(ErrorCode.CONFLICT, "Cannot replace messages while the agent is running; edit the context from a run_start or run_end tap");
    replaceInPlace(this.#messages, messages);
  }

  removeMessage(message: AgentMessage): boolean {
    const index = this.#messages.lastIndexOf(message);
    if (index < 0) return false;
    this.#messages.splice(index, 1);
    return true;
  }

  async appendMessage(message: AgentMessage): Promise<void> {
    this.#messages.push(message);
    const hook = this.#hooks.message_end;
    if (hook.isUsed()) await hook.promise({ message });
  }

  appendAfterRun(message: AgentMessage): Promise<void> {
    if (!this.#run) return this.appendMessage(message);
    return this.#deferred.wait(message);
  }

  isStreaming(): boolean {
    return this.#run !== undefined;
  }

  runSignal(): AbortSignal | undefined {
    return this.#run?.signal;
  }

  async prompt(input: PromptInput): Promise<PromptDisposition> {
    // Input taps run first, even while streaming: they run extension commands (which work
    // mid-stream) and expand templates before a queued message is stored (docs/architecture.md, the input pipeline).
    const passed = await applyInputHooks(this.#hooks, input);
    // Handled without a run (an extension command): as in pi 1.x no agent_settled follows, the
    // disposition tells the client not to wait (a run the command started settles by itself).
    if (passed === "handled") return "handled";
    const { text, images } = passed;
    // steer/follow_up queue whether or not a run streams (idle: delivered with the next run).
    const queueAs = input.via === "steer" ? "steer" : input.via === "follow_up" ? "followUp" : this.#run ? input.streamingBehavior : undefined;
    if (this.#run && !queueAs) throw new KernelError(ErrorCode.CONFLICT, STREAMING_WITHOUT_BEHAVIOR);
    if (queueAs === "steer") this.steer(text, images);
    if (queueAs === "followUp") this.followUp(text, images);
    if (queueAs) return "queued";
    await this.#startAfterPreflight(text, toUserMessage(text, images), images, input.seq);
    return "started";
  }

  async promptMessage(message: CustomMessage): Promise<void> {
    if (this.#run) throw new KernelError(ErrorCode.CONFLICT, STREAMING_WITHOUT_BEHAVIOR);
    const text = typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    await this.#startAfterPreflight(text, message, undefined, undefined);
  }

  /** The preflight taps may refuse; then the run starts with the queued messages in front of `opening`. */
  async #startAfterPreflight(text: string, opening: AgentMessage, images: ImageContent[] | undefined, seq: number | undefined): Promise<void> {
    const rejection = await this.#hooks.prompt_preflight.promise({ text });
    if (rejection) throw new KernelError(ErrorCode.UNAVAILABLE, rejection);
    if (!this.#model) throw new KernelError(ErrorCode.UNAVAILABLE, NO_MODEL);
    // A run may have started while the preflight was awaited (an extension's sendMessage).
    if (this.#run) throw new KernelError(ErrorCode.CONFLICT, STREAMING_WITHOUT_BEHAVIOR);
    const queued = this.#queues.takeAll().map(queuedToMessage);
    const aborted = seq !== undefined && seq < this.#abortSeq;
    this.#startRun({ opening: { messages: [...queued, opening], fromQueue: queued.length > 0 }, prompt: text, images, aborted, seq });
  }

  complete(request: CompletionRequest): AssistantStream {
    const model = request.model ?? this.#model;
    if (!model) throw new KernelError(ErrorCode.UNAVAILABLE, NO_MODEL);
    // Inside a run it is the run's next call (replay cassettes count calls per run).
    return completeOnce(this.#hooks, model, request, this.#sessionId, this.#run ? this.#run.nextCallIndex() : 1, this.#noProvider);
  }

  /** The error for a model no provider streams: asks the models plugin where its API was set (models.json). */
  #noProvider = (model: Model): string => noProviderMessage(this.#hooks.stream, model, this.#k.maybeService("models")?.apiOrigin?.(model));

  steer(text: string, images?: ImageContent[]): void {
    this.#queues.push("steering", text, images);
    this.#emitQueueUpdate();
  }

  followUp(text: string, images?: ImageContent[]): void {
    this.#queues.push("followUp", text, images);
    this.#emitQueueUpdate();
  }

  queueMessage(kind: "steer" | "followUp", message: CustomMessage): void {
    // Not in queue_update's lists (they show the user's texts), so no event: pendingMessageCount counts it.
    this.#queues.pushCustom(kind === "steer" ? "steering" : "followUp", message);
  }

  async abort(seq?: number, earlier?: () => Promise<void>): Promise<void> {
    if (seq !== undefined) this.#abortSeq = Math.max(this.#abortSeq, seq);
    if (this.#hooks.abort.isUsed()) await this.#hooks.abort.promise({ seq: seq ?? this.#abortSeq });
    const run = this.#run;
    if (run) {
      run.abort();
      await run.settled;
    }
    if (!earlier || seq === undefined) return;
    // A prompt read just before the abort may only now start its run: it starts aborted (its
    // seq is below #abortSeq); wait for it to close so its agent_end precedes our response.
    await earlier();
    const late = this.#run;
    if (late && late.seq !== undefined && late.seq < seq) {
      late.abort();
      await late.settled;
    }
  }

  async waitForIdle(): Promise<void> {
    while (this.#run) await this.#run.settled;
  }

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

  takeQueues(): { steering: string[]; followUp: string[] } {
    const waiting = this.#queues.snapshot();
    this.#queues.takeAll();
    this.#emitQueueUpdate();
    return waiting;
  }

  setSessionId(id: string | undefined): void {
    this.#sessionId = id;
  }

  addStateContributor(contributor: StateContributor, fields: () => ZodRawShape): void {
    this.#contributions.add(contributor, fields);
  }

  /** `get_state`'s response: the agent's own fields and every contributor's. */
  stateSchema(): ZodType {
    return this.#contributions.schema();
  }

  /** The `get_state` payload: the agent's own fields, then what other plugins contribute. */
  state(): Record<string, unknown> {
    return this.#contributions.collect({
      model: this.#model && publicModel(this.#model),
      thinkingLevel: this.#thinkingLevel,
      isStreaming: this.isStreaming(),
      steeringMode: this.#queues.steeringMode,
      followUpMode: this.#queues.followUpMode,
      sessionId: this.#sessionId,
      messageCount: this.#messages.length,
      pendingMessageCount: this.#queues.size,
    });
  }

  #emitQueueUpdate(): void {
    this.#k.events.emit("queue_update", this.#queues.snapshot());
  }

  /** Marks the agent busy now (so the response can precede agent_start) and runs on the next tick. */
  #startRun(request: RunRequest): void {
    const run = new Run(this.#runDeps(), request);
    this.#run = run;
    run.start(() => {
      if (this.#run === run) this.#run = undefined;
    });
  }

  #runDeps(): RunDeps {
    const k = this.#k;
    return {
      hooks: this.#hooks,
      events: k.events,
      log: k.log,
      tools: k.tools,
      cwd: k.config.cwd,
      messages: this.#messages,
      model: () => this.#model,
      thinkingLevel: () => this.#thinkingLevel,
      sessionId: () => this.#sessionId,
      systemPromptBase: () => this.#hooks.system_prompt.promise("", { cwd: k.config.cwd, tools: k.tools.specs(), model: this.#model }),
      takeSteering: () => this.#queues.takeSteering(),
      takeFollowUp: () => this.#queues.takeFollowUp(),
      emitQueueUpdate: () => this.#emitQueueUpdate(),
      maxMessageChars: () => k.config.settings.assistantMessageMaxChars,
      flushDeferred: () => this.#deferred.flush((message) => this.appendMessage(message)),
      noProvider: this.#noProvider,
    };
  }
}
