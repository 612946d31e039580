/**
 * pi's run boundaries. `agent_before_settle` is the last point where extensions may add to a run
 * that is about to settle: after `agent_end`, when no retry, compaction or queued message
 * continues it (Atomic's `run_end`, tapped last), never after an abort. Its handlers run in load
 * order, each seeing the proposal so far (`entries`, `continue`); the whole proposal is checked,
 * then applied: `custom` entries are appended to the session, `custom_message` entries become
 * custom messages (sent with the continuation when one is asked for, else stored as the run
 * ends), and `continue: true` asks for one more provider request. `turn_end` carries the same
 * fields for reading.
 */
import type { AgentMessage, AssistantMessage } from "../../lib/llm/index.js";
import { toLlmMessages } from "../agent/api.js";
import type { RunEndEvent } from "../agent/api.js";
import { announceStored, toCustomMessage } from "./actions.js";
import { answered, type Call } from "./event-site.js";
import type { ExtensionHost } from "./host.js";
import type { BoundaryState, SessionBoundaryDraft } from "./types/events.js";

type Outcome = BoundaryState["outcome"];

export function outcomeOf(message: AgentMessage | undefined): Outcome {
  const stop = (message as AssistantMessage | undefined)?.stopReason;
  return stop === "aborted" ? "aborted" : stop === "error" ? "error" : "completed";
}

/** The boundary fields of an event; `context` is built when read (turn_end fires every turn). */
export function boundaryState(host: ExtensionHost, outcome: Outcome, entries: SessionBoundaryDraft[] = [], proceed = false): BoundaryState {
  const state = { entries, continue: proceed, outcome } as BoundaryState;
  let context: BoundaryState["context"] | undefined;
  Object.defineProperty(state, "context", {
    enumerable: true,
    get: () =>
      (context ??= {
        contextEntries: [...(host.session?.branch() ?? [])],
        contextMessages: [...host.agent.getMessages()],
        llmMessages: toLlmMessages(host.agent.getMessages()),
        pendingMessages: [],
        canContinue: outcome === "completed",
      }),
  });
  return state;
}

/** The agent_before_settle handlers, run by one tap of the plugin's own (they chain one proposal). */
export class SettleBoundary {
  readonly #host: ExtensionHost;
  readonly #handlers: { path: string; call: Call }[] = [];

  constructor(host: ExtensionHost) {
    this.#host = host;
  }

  add(path: string, call: Call): void {
    if (this.#handlers.length === 0) {
      // Last, after retry and compaction: only a run nothing else continues settles.
      this.#host.k.hooks.run_end.tapPromise({ name: this.#host.k.name, order: "post" }, (event) => this.#run(event));
    }
    this.#handlers.push({ path, call });
  }

  async #run(event: RunEndEvent): Promise<{ continue: true } | undefined> {
    if (event.signal.aborted) return undefined;
    const host = this.#host;
    const outcome = outcomeOf(event.lastAssistant);
    let entries: SessionBoundaryDraft[] = [];
    let proceed = false;
    let proposer = "";
    for (const { path, call } of this.#handlers) {
      const result: { entries?: unknown; continue?: unknown } | undefined = answered(
        await call({ type: "agent_before_settle", ...boundaryState(host, outcome, [...entries], proceed) }),
      );
      if (!result) continue;
      if (result.entries !== undefined) {
        entries = Array.isArray(result.entries) ? (result.entries as SessionBoundaryDraft[]) : entries;
        proposer = path;
      }
      if (typeof result.continue === "boolean") proceed = result.continue;
    }
    const problem = entries.map(checkDraft).find((error) => error !== undefined);
    if (problem) {
      // The proposal is refused whole: neither its entries nor its continuation.
      host.report(proposer, "agent_before_settle", `${problem}; the proposal was not applied`);
      return undefined;
    }
    // An abort while the handlers ran keeps their entries but not the continuation; so does a failed run.
    const continuing = proceed && outcome === "completed" && !event.signal.aborted;
    for (const draft of entries) this.#apply(draft, continuing, proposer);
    return continuing ? { continue: true } : undefined;
  }

  #apply(draft: SessionBoundaryDraft, continuing: boolean, path: string): void {
    const host = this.#host;
    if (draft.type === "custom") {
      host.session?.append({ type: "custom", customType: draft.customType, ...(draft.data !== undefined ? { data: draft.data } : {}) });
      return;
    }
    if (draft.type !== "custom_message") return;
    const message = toCustomMessage(draft);
    if (continuing) host.agent.queueMessage("steer", message);
    else
      void host.agent.appendAfterRun(message).then(
        () => announceStored(host, message),
        (error: unknown) => host.report(path, "agent_before_settle", error),
      );
  }
}

/** Why a draft cannot be appended, or undefined. */
function checkDraft(draft: SessionBoundaryDraft, index: number): string | undefined {
  const at = `entries[${index}]`;
  if (typeof draft !== "object" || draft === null) return `${at} must be an entry object`;
  if (draft.type === "context_edit" || draft.type === "compaction") return `${at}: "${draft.type}" entries are not supported by Atomic (only "custom" and "custom_message")`;
  if (draft.type !== "custom" && draft.type !== "custom_message") return `${at}: unknown entry type ${JSON.stringify((draft as { type?: unknown }).type)}`;
  if (typeof draft.customType !== "string" || draft.customType === "") return `${at}.customType must be a non-empty string`;
  if (draft.type === "custom_message" && typeof draft.content !== "string" && !Array.isArray(draft.content)) return `${at}.content must be a string or content blocks`;
  return undefined;
}
