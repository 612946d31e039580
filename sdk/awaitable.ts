/**
 * The SDK's awaitable helpers (`await agent.prompt(...)`, as pi's `await session.prompt()`), built
 * on `send` and the event stream alone: each waits for the `agent_settled` event, so a listener
 * given to `subscribe` still sees every event, in order, whether or not a helper is waiting.
 */
import type { AgentMessage, AssistantMessage, ErrorResponse, Event, ImageContent, Response } from "../lib/protocol-types/index.js";

export interface PromptOptions {
  images?: ImageContent[];
  /** While a run streams (required then): queue the prompt as a steering or a follow-up message. */
  streamingBehavior?: "steer" | "followUp";
}

/** What one `prompt` came to, once the agent settled. */
export interface PromptResult {
  /** `"started"`: it ran; `"queued"`: it joined the run already streaming; `"handled"`: an extension command consumed it. */
  disposition: "started" | "queued" | "handled";
  /** An abort (`agent.abort()`, or `send({ type: "abort" })`) ended the run. */
  aborted: boolean;
  /** Every message completed from the prompt's response to the settle (the prompt, replies, tool results), in order. */
  messages: AgentMessage[];
  /** Every event in that span, in order (`agent_settled` itself left out). */
  events: Event[];
  /** The text of the last assistant reply in `messages`, `null` when there is none. */
  text: string | null;
}

/** A command the agent refused (`success: false`): its error text, and the response. */
export class AgentCommandError extends Error {
  override readonly name = "AgentCommandError";
  constructor(readonly response: ErrorResponse) {
    super(response.error);
  }
}

/** A run that ended in an error (the provider's, after any retries): its message, and what the run produced. */
export class AgentRunError extends Error {
  override readonly name = "AgentRunError";
  constructor(
    message: string,
    readonly result: PromptResult,
  ) {
    super(message);
  }
}

export interface AwaitableHelpers {
  /**
   * Sends a prompt and resolves once the agent has settled (retries, compaction and queued
   * messages included) with what it came to; at once for a prompt an extension command handled
   * without a run. Rejects with `AgentCommandError` when the prompt is refused (no model, a
   * streaming agent without `streamingBehavior`, ...), with `AgentRunError` when the run fails,
   * and when the agent is disposed before it settles. An aborted run resolves (`aborted: true`).
   */
  prompt(text: string, options?: PromptOptions): Promise<PromptResult>;
  /** Queues a message for the next delivery point of the current run; `"handled"` when an input handler consumed it. */
  steer(text: string, images?: ImageContent[]): Promise<"queued" | "handled">;
  /** Queues a message for when the agent would otherwise stop. */
  followUp(text: string, images?: ImageContent[]): Promise<"queued" | "handled">;
  /** Aborts the run and resolves once the agent has settled. */
  abort(): Promise<void>;
  /** Resolves once the agent has settled; at once when it is idle. */
  waitForIdle(): Promise<void>;
  /** The conversation (the live context), oldest first. */
  getMessages(): Promise<AgentMessage[]>;
  /** The text of the last assistant message, `null` when there is none. */
  getLastAssistantText(): Promise<string | null>;
}

type SuccessResponse = Exclude<Response, ErrorResponse>;
type Send = (command: Record<string, unknown>) => Promise<Response | undefined>;
type Subscribe = (listener: (event: Event) => void) => () => void;

interface Waiter {
  events: Event[];
  settle(aborted: boolean): void;
  fail(error: Error): void;
}

const DISPOSED = "The agent was disposed before the run settled";

/**
 * The helpers over one agent's `send`/`subscribe`. `observe` must see every response `send`
 * resolves to (the agent's own `send` included): a prompt started by hand makes the agent busy,
 * and `set_event_options` may turn `agent_settled` off, which the helpers need.
 */
export function awaitableHelpers(send: Send, subscribe: Subscribe) {
  let busy = false;
  let settledEvents = true;
  // Set before dispose aborts the run: the settle that abort brings is the dispose's, not an abort's.
  let disposing = false;
  const waiters = new Set<Waiter>();
  subscribe((event) => {
    for (const waiter of waiters) if (event.type !== "agent_settled") waiter.events.push(event);
    if (event.type !== "agent_settled") return;
    busy = false;
    for (const waiter of [...waiters]) waiter.settle(event.aborted);
  });

  const observe = (response: Response | undefined): void => {
    if (!response?.success) return;
    if (response.command === "prompt" && response.data.disposition !== "handled") busy = true;
    if (response.command === "set_event_options") settledEvents = response.data.agentSettled;
  };
  const request = async (command: Record<string, unknown>): Promise<SuccessResponse> => {
    const response = await send(command);
    if (!response) throw new Error(`No response to ${String(command.type)}`);
    observe(response);
    if (!response.success) throw new AgentCommandError(response);
    return response;
  };
  /** Collects events from now until the next `agent_settled`. */
  const waitForSettle = (): { waiter: Waiter; settled: Promise<{ aborted: boolean; disposed: boolean; events: Event[] }> } => {
    let waiter!: Waiter;
    const settled = new Promise<{ aborted: boolean; disposed: boolean; events: Event[] }>((resolve, reject) => {
      waiter = {
        events: [],
        settle: (aborted) => (waiters.delete(waiter), resolve({ aborted, disposed: disposing, events: waiter.events })),
        fail: (error) => (waiters.delete(waiter), reject(error)),
      };
    });
    waiters.add(waiter);
    return { waiter, settled };
  };
  const requireSettledEvents = (what: string): void => {
    if (!settledEvents) throw new Error(`${what} waits for the agent_settled event, which set_event_options turned off (agentSettled: false)`);
  };
  const isStreaming = async (): Promise<boolean> => {
    const state = await request({ type: "get_state" });
    return state.command === "get_state" && state.data.isStreaming;
  };
  const waitForIdle = async (): Promise<void> => {
    requireSettledEvents("waitForIdle()");
    const { waiter, settled } = waitForSettle();
    let streaming: boolean;
    try {
      streaming = busy || (await isStreaming());
    } catch (error) {
      // Refused (the agent is shutting down): the waiter goes too, or a dispose would later reject it with no one listening.
      waiter.fail(error as Error);
      settled.catch(() => undefined);
      throw error;
    }
    if (!streaming) return waiter.settle(false);
    await settled;
  };

  const helpers: AwaitableHelpers = {
    async prompt(text, options = {}) {
      requireSettledEvents("prompt()");
      const { waiter, settled } = waitForSettle();
      let disposition: PromptResult["disposition"];
      try {
        const response = await request({ type: "prompt", message: text, ...options });
        disposition = response.command === "prompt" ? response.data.disposition : "started";
        // A handled prompt starts no run of its own, unless its handler started one.
        if (disposition === "handled" && !(await isStreaming())) waiter.settle(false);
      } catch (error) {
        waiter.fail(error as Error);
        settled.catch(() => undefined);
        throw error;
      }
      const outcome = await settled.catch((error: unknown) => {
        if (disposing) return { aborted: true, disposed: true, events: waiter.events };
        throw error;
      });
      const result = promptResult(disposition, outcome.aborted, outcome.events);
      if (outcome.disposed) throw new AgentRunError(DISPOSED, result);
      const failure = outcome.aborted ? undefined : runFailure(result.messages);
      if (failure) throw new AgentRunError(failure, result);
      return result;
    },
    steer: async (text, images) => queued(await request({ type: "steer", message: text, ...(images ? { images } : {}) })),
    followUp: async (text, images) => queued(await request({ type: "follow_up", message: text, ...(images ? { images } : {}) })),
    async abort() {
      await request({ type: "abort" });
      await waitForIdle();
    },
    waitForIdle,
    getMessages: async () => {
      const response = await request({ type: "get_messages" });
      return response.command === "get_messages" ? response.data.messages : [];
    },
    getLastAssistantText: async () => {
      const response = await request({ type: "get_last_assistant_text" });
      return response.command === "get_last_assistant_text" ? response.data.text : null;
    },
  };
  return {
    helpers,
    observe,
    /** Before the dispose aborts the run: a prompt it ends rejects with `AgentRunError` rather than resolving as aborted. */
    markDisposing(): void {
      disposing = true;
    },
    /** Fails every helper still waiting (the agent was disposed before it settled). */
    failPending(): void {
      for (const waiter of [...waiters]) waiter.fail(new Error(DISPOSED));
    },
  };
}

function queued(response: SuccessResponse): "queued" | "handled" {
  return (response.command === "steer" || response.command === "follow_up") && response.data.disposition === "handled" ? "handled" : "queued";
}

function promptResult(disposition: PromptResult["disposition"], aborted: boolean, events: Event[]): PromptResult {
  // Copies: in process a message_end's message is the agent's own, which a caller may change.
  const messages = structuredClone(events.flatMap((event) => (event.type === "message_end" ? [event.message] : [])));
  const reply = lastAssistant(messages);
  const texts = reply?.content.flatMap((part) => (part.type === "text" ? [part.text] : [])) ?? [];
  return { disposition, aborted, messages, events, text: reply && texts.length > 0 ? texts.join("") : null };
}

function lastAssistant(messages: AgentMessage[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "assistant") return message;
  }
  return undefined;
}

/** The error a run ended with: its last reply failed (a retry that succeeded ends with a good reply). */
function runFailure(messages: AgentMessage[]): string | undefined {
  const reply = lastAssistant(messages);
  if (reply?.stopReason !== "error") return undefined;
  return reply.errorMessage ?? "The run failed";
}
