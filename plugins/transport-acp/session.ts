/**
 * One ACP session: its own sibling host (agent state, session file), its events turned into
 * `session/update`s, one prompt turn at a time that ends when the agent has settled (the
 * `agent_settled` event, asked for at open), cancel as `abort`, and the extension UI's confirm
 * and select dialogs asked as `session/request_permission`.
 */
import type { AssistantMessage } from "../../lib/llm/index.js";
import type { EmbeddedHost, OutEvent } from "../../kernel/index.js";
import { call } from "./call.js";
import { promptFields, type PromptBlock } from "./prompt-content.js";
import { stopReasonOf, updatesOf, type StopReason, type Update } from "./updates.js";

/** What a session needs from the connection. */
export interface SessionClient {
  /** Queues a `session/update` notification (sent in order). */
  update(sessionId: string, update: Update): void;
  /** Resolves once every queued notification has been written. */
  flush(): Promise<void>;
  requestPermission(params: PermissionRequest): Promise<{ outcome: { outcome: "cancelled" } | { outcome: "selected"; optionId: string } }>;
}

export interface PermissionRequest {
  sessionId: string;
  toolCall: { toolCallId: string; title: string; content?: { type: "content"; content: { type: "text"; text: string } }[] };
  options: { optionId: string; name: string; kind: "allow_once" | "reject_once" }[];
}

/** A failure to report as a JSON-RPC error (the connection maps `code`). */
export class TurnError extends Error {
  constructor(
    readonly code: "busy" | "invalid" | "failed",
    message: string,
  ) {
    super(message);
  }
}

/** The dialogs of the extension UI sub-protocol (docs/protocol-guide.md, Extension UI). */
type UiRequest = { type: "extension_ui_request"; id: string; method: string; title?: string; message?: string; options?: string[] };

interface Turn {
  cancelled: boolean;
  lastAssistant: AssistantMessage | undefined;
  settled: Promise<void>;
  settle(): void;
}

function newTurn(): Turn {
  let settle!: () => void;
  const settled = new Promise<void>((resolve) => (settle = resolve));
  return { cancelled: false, lastAssistant: undefined, settled, settle };
}

export class AcpSession {
  readonly id: string;
  readonly cwd: string;
  readonly host: EmbeddedHost;
  readonly #client: SessionClient;
  readonly #unsubscribe: () => void;
  #turn: Turn | undefined;
  /** The tool call being prepared or run: a dialog raised meanwhile is about it. */
  #activeTool: { id: string; title: string } | undefined;

  private constructor(id: string, cwd: string, host: EmbeddedHost, client: SessionClient) {
    this.id = id;
    this.cwd = cwd;
    this.host = host;
    this.#client = client;
    this.#unsubscribe = host.subscribe((event) => this.#onEvent(event));
  }

  /** Wraps a booted host: `agent_settled` on (the default, asked for anyway), the session id as ACP's (or the one a load asked for). */
  static async attach(host: EmbeddedHost, cwd: string, client: SessionClient, id?: string): Promise<AcpSession> {
    await call<"set_event_options">(host, { type: "set_event_options", agentSettled: true });
    const sessionId = id ?? (await call<"get_state">(host, { type: "get_state" })).sessionId;
    return new AcpSession(sessionId, cwd, host, client);
  }

  #onEvent(event: OutEvent): void {
    for (const update of updatesOf(event, this.cwd)) {
      if (update.sessionUpdate === "tool_call") this.#activeTool = { id: update.toolCallId, title: update.title };
      this.#client.update(this.id, update);
    }
    if (event.type === "tool_execution_end" && this.#activeTool?.id === event.toolCallId) this.#activeTool = undefined;
    if (event.type === "message_end" && event.message.role === "assistant" && this.#turn) this.#turn.lastAssistant = event.message;
    if ((event.type as string) === "agent_settled") this.#turn?.settle();
    if ((event.type as string) === "extension_ui_request") void this.#dialog(event as unknown as UiRequest);
  }

  /** One prompt turn: resolves with ACP's stop reason once the agent has settled. */
  async prompt(blocks: readonly PromptBlock[]): Promise<{ stopReason: StopReason }> {
    if (this.#turn) throw new TurnError("busy", "A prompt is already running in this session; cancel it or wait for it to end");
    let fields;
    try {
      fields = promptFields(blocks);
    } catch (error) {
      throw new TurnError("invalid", (error as Error).message);
    }
    const turn = (this.#turn = newTurn());
    try {
      const response = await this.host.send({ type: "prompt", ...fields }, "acp");
      if (response && !response.success) throw new TurnError("failed", response.error);
      // An extension command handled it: no agent_settled comes, unless the command started a run.
      if ((response?.data as { disposition?: unknown } | undefined)?.disposition === "handled" && !(await call<"get_state">(this.host, { type: "get_state" })).isStreaming)
        turn.settle();
      await Promise.race([turn.settled, this.host.closing]);
      // Every update of the turn reaches the client before the turn's answer.
      await this.#client.flush();
      if (turn.cancelled) return { stopReason: "cancelled" };
      const result = stopReasonOf(turn.lastAssistant);
      if ("error" in result) throw new TurnError("failed", result.error);
      return result;
    } finally {
      this.#turn = undefined;
    }
  }

  /** `session/cancel`: the running turn ends as `cancelled`; nothing to do when idle. */
  async cancel(): Promise<void> {
    if (!this.#turn) return;
    this.#turn.cancelled = true;
    await this.host.send({ type: "abort" }, "acp");
  }

  async close(): Promise<void> {
    this.#unsubscribe();
    // A turn still running when its session closes did not end on its own: the client gets `cancelled`.
    if (this.#turn) {
      this.#turn.cancelled = true;
      this.#turn.settle();
    }
    await this.host.shutdown("exit");
  }

  /** confirm and select become a permission request; other dialogs have no ACP form and are cancelled. */
  async #dialog(request: UiRequest): Promise<void> {
    const reply = async (fields: { confirmed?: boolean; value?: string; cancelled?: boolean }) => {
      await this.host.send({ type: "extension_ui_response", id: request.id, ...fields }, "acp");
    };
    if (request.method === "input" || request.method === "editor") return reply({ cancelled: true });
    if (request.method !== "confirm" && request.method !== "select") return;
    const choices = request.method === "select" ? (request.options ?? []) : [];
    const options: PermissionRequest["options"] =
      request.method === "confirm"
        ? [
            { optionId: "allow", name: "Allow", kind: "allow_once" },
            { optionId: "reject", name: "Deny", kind: "reject_once" },
          ]
        : choices.map((name, index) => ({ optionId: String(index), name, kind: "allow_once" as const }));
    const detail = request.message ? [{ type: "content" as const, content: { type: "text" as const, text: request.message } }] : undefined;
    const toolCall = {
      toolCallId: this.#activeTool?.id ?? `dialog-${request.id}`,
      title: request.title ?? this.#activeTool?.title ?? "Permission",
      ...(detail ? { content: detail } : {}),
    };
    try {
      const { outcome } = await this.#client.requestPermission({ sessionId: this.id, toolCall, options });
      if (outcome.outcome === "cancelled") return reply({ cancelled: true });
      if (request.method === "confirm") return reply({ confirmed: outcome.optionId === "allow" });
      const value = choices[Number(outcome.optionId)];
      return reply(value === undefined ? { cancelled: true } : { value });
    } catch {
      // The client could not answer (it left, or does not support permissions): the dialog is cancelled.
      return reply({ cancelled: true });
    }
  }
}
