/**
 * What a client of one agent can do, whatever carries it: pi 1.6's RpcClient methods (a pi
 * integrator changes the import), typed from the protocol schema, and the waiting that needs
 * `agent_settled`. `RpcClient` (a process of its own) and `AgentHandle` (one agent of `atomic
 * serve`) supply the wire. Convenience methods throw on a failed command; `send` never does.
 */
import type { Command, CommandType, CompactCommand, DataOf, Event, ExtraCommand, ImageContent, Response, ResponseOf, ThinkingLevel } from "../lib/protocol-types/index.js";

import type { Record_ } from "./connection.js";
import { SettleWaits, stderrDetail } from "./settle-waits.js";

export type { Record_ };

/** Every event of the built-in plugins (a user plugin's own events arrive too). */
export type AgentEvent = Event;
export type RpcEventListener = (event: AgentEvent) => void;
type DistributiveOmit<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;
/** A command as `send` takes it: the client sets the id (a string `id` given is used as is). */
export type CommandBody = DistributiveOmit<Command, "id"> & { id?: string };
export type CompactOptions = Omit<CompactCommand, "type" | "id">;

export abstract class AgentMethods {
  readonly #listeners = new Set<RpcEventListener>();
  /** A prompt was accepted and its agent_settled has not come yet. */
  #busy = false;
  readonly #waits = new SettleWaits();

  /** Writes one command (with a fresh id, or its own string id) and resolves with its response. */
  protected abstract request(command: Record<string, unknown>): Promise<Record_>;
  /** Writes a record that gets no response (`extension_ui_response`). */
  protected abstract write(record: Record<string, unknown>): void;
  /** What the agent wrote on stderr, for errors (empty where it has none of its own). */
  abstract getStderr(): string;

  /** One of this agent's events: to every listener. */
  protected dispatch(event: Record_): void {
    if (event.type === "agent_settled") this.#busy = false;
    for (const listener of this.#listeners) listener(event as AgentEvent);
  }

  /** Nothing more will settle (the agent is gone): every pending wait rejects with `error`, and every later one. */
  protected forgetRun(error: Error): void {
    this.#busy = false;
    this.#waits.end(error);
  }

  /** A new agent behind the same client (started again): waits wait again. */
  protected revive(): void {
    this.#waits.reopen();
  }

  onEvent(listener: RpcEventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Any command, typed by its `type`; resolves with its response (`success: false` included). */
  async send<C extends CommandBody>(command: C): Promise<ResponseOf<C["type"]>>;
  async send<T extends string>(command: ExtraCommand<T>): Promise<Response | undefined>;
  async send(command: Record<string, unknown>): Promise<unknown> {
    if (command.type === "extension_ui_response") {
      this.write(command);
      return undefined;
    }
    const response = await this.request(command);
    // A handled prompt starts no run of its own (pi 1.x: no agent_settled follows it).
    if (response.command === "prompt" && response.success === true && (response.data as { disposition?: unknown } | undefined)?.disposition !== "handled") this.#busy = true;
    return response;
  }

  /** The response's data; a failed command throws its error text. */
  async #data<T extends CommandType>(command: CommandBody & { type: T }): Promise<DataOf<T>> {
    const response = (await this.send(command as CommandBody)) as Record_ | undefined;
    if (!response) return undefined as DataOf<T>;
    if (response.success !== true) throw new Error(String(response.error));
    return response.data as DataOf<T>;
  }

  // ---- prompting (pi's methods)
  /** What became of the prompt: "started" (wait for it), "queued", or "handled" (an extension command; no run). */
  async prompt(message: string, images?: ImageContent[], streamingBehavior?: "steer" | "followUp"): Promise<DataOf<"prompt">["disposition"]> {
    return (await this.#data({ type: "prompt", message, ...(images ? { images } : {}), ...(streamingBehavior ? { streamingBehavior } : {}) })).disposition;
  }
  async steer(message: string, images?: ImageContent[]): Promise<DataOf<"steer">["disposition"]> {
    return (await this.#data({ type: "steer", message, ...(images ? { images } : {}) })).disposition;
  }
  async followUp(message: string, images?: ImageContent[]): Promise<DataOf<"follow_up">["disposition"]> {
    return (await this.#data({ type: "follow_up", message, ...(images ? { images } : {}) })).disposition;
  }
  async abort(): Promise<void> {
    await this.#data({ type: "abort" });
  }
  /** Removes every queued steering and follow-up message; returns their texts (to restore to an editor before `abort`). */
  clearQueue(): Promise<DataOf<"clear_queue">> {
    return this.#data({ type: "clear_queue" });
  }
  newSession(parentSession?: string): Promise<DataOf<"new_session">> {
    return this.#data({ type: "new_session", ...(parentSession ? { parentSession } : {}) });
  }

  // ---- state and models
  getState(): Promise<DataOf<"get_state">> {
    return this.#data({ type: "get_state" });
  }
  setModel(provider: string, modelId: string): Promise<DataOf<"set_model">> {
    return this.#data({ type: "set_model", provider, modelId });
  }
  cycleModel(): Promise<DataOf<"cycle_model">> {
    return this.#data({ type: "cycle_model" });
  }
  /** Full Model objects (a superset of pi's ModelInfo: provider, id, contextWindow, reasoning, compat). */
  async getAvailableModels(): Promise<DataOf<"get_available_models">["models"]> {
    return (await this.#data({ type: "get_available_models" })).models;
  }
  async setThinkingLevel(level: ThinkingLevel): Promise<void> {
    await this.#data({ type: "set_thinking_level", level });
  }
  cycleThinkingLevel(): Promise<DataOf<"cycle_thinking_level">> {
    return this.#data({ type: "cycle_thinking_level" });
  }
  async getAvailableThinkingLevels(): Promise<ThinkingLevel[]> {
    return (await this.#data({ type: "get_available_thinking_levels" })).levels;
  }
  async setSteeringMode(mode: "all" | "one-at-a-time"): Promise<void> {
    await this.#data({ type: "set_steering_mode", mode });
  }
  async setFollowUpMode(mode: "all" | "one-at-a-time"): Promise<void> {
    await this.#data({ type: "set_follow_up_mode", mode });
  }

  // ---- compaction, retry, bash
  /** pi's `compact(customInstructions?)`, or Atomic's options (`preserve_recent`, `compression_ratio`, `query`). */
  compact(options?: string | CompactOptions): Promise<DataOf<"compact">> {
    return this.#data({ type: "compact", ...(typeof options === "string" ? { customInstructions: options } : options) });
  }
  async setAutoCompaction(enabled: boolean): Promise<void> {
    await this.#data({ type: "set_auto_compaction", enabled });
  }
  async setAutoRetry(enabled: boolean): Promise<void> {
    await this.#data({ type: "set_auto_retry", enabled });
  }
  async abortRetry(): Promise<void> {
    await this.#data({ type: "abort_retry" });
  }
  /** `requestId`: the request's id (its `bash_execution_update` events carry it; `abortBash(requestId)` cancels it). */
  bash(command: string, options: { requestId?: string; excludeFromContext?: boolean } = {}): Promise<DataOf<"bash">> {
    return this.#data({
      type: "bash",
      command,
      ...(options.requestId ? { id: options.requestId } : {}),
      ...(options.excludeFromContext !== undefined ? { excludeFromContext: options.excludeFromContext } : {}),
    });
  }
  /** Cancels every running bash command, or only those sent with `requestId`. */
  async abortBash(requestId?: string): Promise<void> {
    await this.#data({ type: "abort_bash", ...(requestId !== undefined ? { requestId } : {}) });
  }

  // ---- sessions
  getSessionStats(): Promise<DataOf<"get_session_stats">> {
    return this.#data({ type: "get_session_stats" });
  }
  exportHtml(outputPath?: string): Promise<DataOf<"export_html">> {
    return this.#data({ type: "export_html", ...(outputPath ? { outputPath } : {}) });
  }
  switchSession(sessionPath: string): Promise<DataOf<"switch_session">> {
    return this.#data({ type: "switch_session", sessionPath });
  }
  fork(entryId: string): Promise<DataOf<"fork">> {
    return this.#data({ type: "fork", entryId });
  }
  clone(): Promise<DataOf<"clone">> {
    return this.#data({ type: "clone" });
  }
  async getForkMessages(): Promise<DataOf<"get_fork_messages">["messages"]> {
    return (await this.#data({ type: "get_fork_messages" })).messages;
  }
  async getLastAssistantText(): Promise<string | null> {
    return (await this.#data({ type: "get_last_assistant_text" })).text;
  }
  async setSessionName(name: string): Promise<void> {
    await this.#data({ type: "set_session_name", name });
  }
  async getMessages(): Promise<DataOf<"get_messages">["messages"]> {
    return (await this.#data({ type: "get_messages" })).messages;
  }
  async getCommands(): Promise<DataOf<"get_commands">["commands"]> {
    return (await this.#data({ type: "get_commands" })).commands;
  }
  getEntries(since?: string): Promise<DataOf<"get_entries">> {
    return this.#data({ type: "get_entries", ...(since !== undefined ? { since } : {}) });
  }
  getTree(): Promise<DataOf<"get_tree">> {
    return this.#data({ type: "get_tree" });
  }
  importSession(inputPath: string): Promise<DataOf<"import_session">> {
    return this.#data({ type: "import_session", inputPath });
  }
  /** The stored sessions of this folder (or of every folder with `all`), newest first. */
  async listSessions(all = false): Promise<DataOf<"list_sessions">["sessions"]> {
    return (await this.#data({ type: "list_sessions", all })).sessions;
  }
  logoutProvider(provider: string): Promise<DataOf<"logout_provider">> {
    return this.#data({ type: "logout_provider", provider });
  }
  /** The providers with a subscription or account login, and whether auth.json holds one. */
  async getLoginProviders(): Promise<DataOf<"get_login_providers">["providers"]> {
    return (await this.#data({ type: "get_login_providers" })).providers;
  }
  /** Starts a login: resolves with the address to open or the device code to enter (`login_update` events follow). */
  login(provider: string, options: { method?: "browser" | "copy_code" | "device_code"; enterpriseDomain?: string } = {}): Promise<DataOf<"login">> {
    return this.#data({ type: "login", provider, ...options });
  }
  /** Hands a login the redirect URL (or code) pasted from a browser elsewhere; resolves when it has ended. */
  loginInput(loginId: string, input: string): Promise<DataOf<"login_input">> {
    return this.#data({ type: "login_input", loginId, input });
  }
  /** Resolves when the login has ended (the browser came back, the device code was entered). */
  loginWait(loginId: string): Promise<DataOf<"login_wait">> {
    return this.#data({ type: "login_wait", loginId });
  }
  async loginCancel(loginId: string): Promise<boolean> {
    return (await this.#data({ type: "login_cancel", loginId })).cancelled;
  }
  /** `messageUpdates: "delta"` makes long answers cost linear output; `agentSettled` is on by default (this client needs it). */
  setEventOptions(options: { messageUpdates?: "delta" | "full"; agentSettled?: boolean }): Promise<DataOf<"set_event_options">> {
    return this.#data({ type: "set_event_options", ...options });
  }
  /** Answers an `extension_ui_request` dialog (no response comes back). */
  async respondToUi(id: string, answer: { value?: string; confirmed?: boolean; cancelled?: boolean }): Promise<void> {
    await this.send({ type: "extension_ui_response", id, ...answer });
  }

  // ---- waiting
  /** Resolves once the agent has settled: the last `agent_end` of the prompt, retries and continuations included. */
  waitForIdle(timeout = 60_000): Promise<void> {
    return this.collectEvents(timeout).then(() => undefined);
  }

  /** Events until the agent settles (the `agent_settled` record itself is not included); at once when idle; rejects once the agent is gone. */
  collectEvents(timeout = 60_000): Promise<AgentEvent[]> {
    if (this.#waits.gone) return Promise.reject(this.#waits.gone);
    if (!this.#busy) return Promise.resolve([]);
    return this.#collect(timeout);
  }

  /**
   * Sends a prompt and resolves with its events once the agent has settled; at once (with the
   * events so far) when an extension command handled it without starting a run.
   */
  async promptAndWait(message: string, images?: ImageContent[], timeout = 60_000): Promise<AgentEvent[]> {
    const collector = this.#collector(timeout);
    // The agent's end may reject the wait while the prompt is still on its way: its error is the one thrown then.
    collector.events.catch(() => undefined);
    try {
      const disposition = await this.prompt(message, images);
      if (disposition === "handled" && !(await this.getState()).isStreaming) collector.finish();
    } catch (error) {
      collector.finish();
      throw error;
    }
    return collector.events;
  }

  #collect(timeout: number): Promise<AgentEvent[]> {
    return this.#collector(timeout).events;
  }

  /** Events until `agent_settled` (or `finish()`), a timeout, or the agent's end. */
  #collector(timeout: number): { events: Promise<AgentEvent[]>; finish(): void } {
    const timeoutError = () => new Error(`Timeout waiting for the agent to settle${stderrDetail(this.getStderr())}`);
    return this.#waits.collect((listener) => this.onEvent(listener), timeout, timeoutError);
  }
}
