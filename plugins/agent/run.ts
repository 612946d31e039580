/**
 * One accepted prompt, as one object: system prompt -> run_start (the context edit allowed
 * before the first LLM call) -> agent_start -> turns -> agent_end -> run_end (a tap may edit the
 * context and ask for a continuation: retry, overflow compaction) -> messages deferred during
 * the run are stored -> agent_settled. Even a bug inside the loop closes the run with agent_end.
 *
 * The run owns what lives and dies with it (its abort controller, its system prompt, its LLM
 * call count); what outlives it (the conversation, the queues, the model) it borrows from the
 * agent through `RunDeps`.
 */
import { announce, type EventBus, type Logger, type ToolRegistryView } from "../../kernel/index.js";
import type { AgentMessage, AssistantMessage, CustomMessage, ImageContent, Model, ThinkingLevel } from "../../lib/llm/index.js";
import type { AgentHooks, AnnounceTarget } from "./hooks.js";
import type { QueuedMessage } from "./queue.js";
import { lastAssistant, runTurns, type Opening } from "./run-loop.js";

/** What the agent lends each run. */
export interface RunDeps {
  hooks: AgentHooks;
  events: EventBus;
  log: Logger;
  tools: ToolRegistryView;
  cwd: string;
  /** The live conversation (the run appends to it; edits from run_start/run_end replace it in place). */
  messages: AgentMessage[];
  model(): Model | null;
  thinkingLevel(): ThinkingLevel;
  sessionId(): string | undefined;
  systemPromptBase(): Promise<string>;
  /** Takes the steering messages due at this delivery point (per steering mode). */
  takeSteering(): QueuedMessage[];
  takeFollowUp(): QueuedMessage[];
  emitQueueUpdate(): void;
  /** The most characters one assistant message may hold (settings `assistantMessageMaxChars`; message-cap.ts). */
  maxMessageChars?(): number | undefined;
  /** Stores the messages deferred while the run streamed (user bash results, next-turn notes). */
  flushDeferred(): Promise<void>;
  /** The error for a model whose API no provider streams (stream-hooks.ts). */
  noProvider(model: Model): string;
}

/** What a prompt hands its run. */
export interface RunRequest {
  opening: Opening;
  prompt: string;
  images: ImageContent[] | undefined;
  /** Arrival number of the prompt (undefined: started by a plugin). */
  seq: number | undefined;
  /** Start already aborted (an `abort` was read after the prompt but before its run began). */
  aborted: boolean;
}

export class Run implements AnnounceTarget {
  readonly deps: RunDeps;
  readonly hooks: AgentHooks;
  readonly events: EventBus;
  readonly messages: AgentMessage[];
  readonly seq: number | undefined;
  readonly #controller = new AbortController();
  readonly #request: RunRequest;
  #systemPrompt = "";
  #callIndex = 0;
  /** The failed answer the next LLM call retries (set by a run_end verdict, taken by that call). */
  #retrying: AssistantMessage | undefined;

  constructor(deps: RunDeps, request: RunRequest) {
    this.deps = deps;
    this.hooks = deps.hooks;
    this.events = deps.events;
    this.messages = deps.messages;
    this.seq = request.seq;
    this.#request = request;
    if (request.aborted) this.#controller.abort();
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The system prompt fixed for this run (after before_agent_start). */
  get systemPrompt(): string {
    return this.#systemPrompt;
  }

  abort(): void {
    this.#controller.abort();
  }

  /** The LLM call number within this run (replay cassettes count calls per run). */
  nextCallIndex(): number {
    return ++this.#callIndex;
  }

  /** The failed answer the coming LLM call retries, once: the calls after it are continuations. */
  takeRetrying(): AssistantMessage | undefined {
    const retrying = this.#retrying;
    this.#retrying = undefined;
    return retrying;
  }

  warn(message: string): void {
    this.deps.log.warn(message);
  }

  /** Resolves once the run has ended and settled. */
  settled: Promise<void> = Promise.resolve();

  /**
   * Starts on the next tick, so the prompt's response can precede agent_start. `onEnded` runs
   * when the last agent_end is out, before the deferred messages and agent_settled.
   */
  start(onEnded: () => void): void {
    this.settled = new Promise<void>((done) => setImmediate(() => void this.#execute(onEnded).finally(done)));
  }

  async #execute(onEnded: () => void): Promise<void> {
    try {
      await this.#drive();
    } finally {
      onEnded();
      await this.#settle();
    }
  }

  async #drive(): Promise<void> {
    const { hooks, signal } = this;
    let { opening } = this.#request;
    const { prompt, images } = this.#request;
    try {
      this.#systemPrompt = await this.deps.systemPromptBase();
      if (hooks.before_agent_start.isUsed()) {
        const inject: CustomMessage[] = [];
        const result = await hooks.before_agent_start.promise({ prompt, ...(images ? { images } : {}), systemPrompt: this.#systemPrompt, inject });
        this.#systemPrompt = result.systemPrompt;
        // Extension notes travel with the prompt: stored after it, sent with it.
        if (result.inject.length > 0) opening = { ...opening, messages: [...opening.messages, ...result.inject] };
      }
      if (hooks.run_start.isUsed() && !signal.aborted) await this.#withContextEdit((edit) => hooks.run_start.promise(edit));
      for (;;) {
        await announce(this, "agent_start", {});
        let produced: AgentMessage[] = [];
        try {
          produced = await runTurns(this, opening);
        } finally {
          await announce(this, "agent_end", { messages: produced });
        }
        // A continuation opens with no new message of its own.
        opening = { messages: [], fromQueue: false };
        if (signal.aborted || !hooks.run_end.isUsed()) break;
        const verdict = await this.#withContextEdit((edit) => hooks.run_end.promise({ ...edit, produced, lastAssistant: lastAssistant(produced) }));
        if (!verdict?.continue || signal.aborted) break;
        this.#retrying = verdict.retrying;
      }
    } catch (error) {
      this.deps.log.error(`agent run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  }

  /** Deferred messages are stored, then `agent_settled` fires once (`aborted`: an abort ended the run). */
  async #settle(): Promise<void> {
    try {
      await this.deps.flushDeferred();
    } catch (error) {
      this.deps.log.error(`storing deferred messages failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    try {
      if (this.hooks.agent_settled.isUsed()) await this.hooks.agent_settled.promise({ aborted: this.signal.aborted });
    } catch (error) {
      this.deps.log.error(`agent_settled failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Runs `use` with a context edit that is valid only while it runs. */
  async #withContextEdit<T>(use: (edit: { messages: readonly AgentMessage[]; signal: AbortSignal; setContext(messages: AgentMessage[]): void }) => Promise<T>): Promise<T> {
    let open = true;
    const messages = this.messages;
    const edit = {
      messages: messages as readonly AgentMessage[],
      signal: this.signal,
      setContext(next: AgentMessage[]) {
        if (!open) throw new Error("setContext is only allowed while the run_start/run_end hook runs");
        replaceInPlace(messages, next);
      },
    };
    try {
      return await use(edit);
    } finally {
      open = false;
    }
  }
}

/** Replaces the live context in place (the run holds a reference to the array). */
export function replaceInPlace(target: AgentMessage[], messages: readonly AgentMessage[]): void {
  target.length = 0;
  for (const message of messages) target.push(message);
}
