/**
 * The extension UI sub-protocol (docs/protocol-guide.md, Extension UI). Dialogs (select, confirm, input,
 * editor) write an `extension_ui_request` and wait for the `extension_ui_response` with the same
 * id; a `timeout` resolves them with their default by itself (a later reply is then unknown); a
 * reply whose value has the wrong type resolves the dialog as cancelled; teardown (the `closing`
 * hook) cancels them all. A dialog that ends without a reply (timed out, aborted) is announced
 * (`ended`), so a client still showing it can close it. Fire-and-forget methods only write the request.
 */
import { uuidV7 } from "../../lib/random-ids/index.js";
import type { Logger } from "../../kernel/index.js";
import type { UiResponse } from "./api.js";
import type { UiRequest } from "./events.js";
import type { ExtensionUIDialogOptions } from "./types/context.js";

export type { UiRequest };

type Distribute<T> = T extends unknown ? Omit<T, "id"> : never;
export type DialogRequest = Distribute<Extract<UiRequest, { method: "select" | "confirm" | "input" | "editor" }>>;
export type NoticeRequest = Distribute<Exclude<UiRequest, { method: "select" | "confirm" | "input" | "editor" }>>;

/** A reply read as the dialog's answer, or `undefined` when it does not fit the dialog (then: cancelled). */
type ReadReply<T> = (reply: UiResponse) => { value: T } | undefined;

interface Pending {
  resolve(reply: UiResponse): void;
  cancel(): void;
}

/** Why a dialog ended without a reply. */
export type DialogEnd = "timeout" | "aborted";

export class UiBridge {
  readonly #pending = new Map<string, Pending>();
  readonly #write: (request: UiRequest) => void;
  readonly #log: Logger;
  readonly #ended: (id: string, reason: DialogEnd) => void;

  constructor(write: (request: UiRequest) => void, log: Logger, ended: (id: string, reason: DialogEnd) => void = () => undefined) {
    this.#write = write;
    this.#log = log;
    this.#ended = ended;
  }

  /** Shows a dialog; resolves with the client's answer, or `fallback` when cancelled, timed out or dismissed. */
  dialog<T>(request: DialogRequest, read: ReadReply<T>, fallback: T, options: ExtensionUIDialogOptions = {}, dismiss?: AbortSignal): Promise<T> {
    const signals = [options.signal, dismiss].filter((signal): signal is AbortSignal => signal !== undefined);
    if (signals.some((signal) => signal.aborted)) return Promise.resolve(fallback);
    const id = uuidV7();
    return new Promise<T>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = (value: T) => {
        if (!this.#pending.delete(id)) return;
        clearTimeout(timer);
        for (const signal of signals) signal.removeEventListener("abort", onAbort);
        resolve(value);
      };
      const unanswered = (reason: DialogEnd) => {
        if (!this.#pending.has(id)) return;
        settle(fallback);
        this.#ended(id, reason);
      };
      const onAbort = () => unanswered("aborted");
      this.#pending.set(id, {
        resolve: (reply) => {
          if (isCancel(reply.cancelled)) return settle(fallback);
          const answer = read(reply);
          if (!answer) this.#log.warn(`extension_ui_response "${id}": the reply does not fit the ${request.method} dialog; resolved as cancelled`);
          settle(answer ? answer.value : fallback);
        },
        cancel: onAbort,
      });
      for (const signal of signals) signal.addEventListener("abort", onAbort, { once: true });
      const timeout = options.timeout;
      if (typeof timeout === "number" && Number.isFinite(timeout) && timeout > 0) {
        timer = setTimeout(() => unanswered("timeout"), timeout);
        timer.unref();
      }
      this.#write({ id, ...request, ...(timeout !== undefined && timeout > 0 ? { timeout } : {}) } as UiRequest);
    });
  }

  /** A fire-and-forget request: nothing waits for a reply. */
  notice(request: NoticeRequest): void {
    this.#write({ id: uuidV7(), ...request } as UiRequest);
  }

  /** The `ui_response` hook: true when the reply belonged to a waiting dialog. */
  answer(reply: UiResponse): true | undefined {
    const pending = this.#pending.get(reply.id);
    if (!pending) return undefined;
    pending.resolve(reply);
    return true;
  }

  /** Teardown: every waiting dialog resolves as cancelled. */
  cancelAll(): void {
    for (const pending of [...this.#pending.values()]) pending.cancel();
  }

  get waiting(): number {
    return this.#pending.size;
  }
}

/** `cancelled` set to anything but false/absent counts as a cancellation. */
function isCancel(value: unknown): boolean {
  return value !== undefined && value !== false;
}

/** How each dialog reads a reply (docs/protocol.md: value / confirmed / cancelled). */
export const readSelect =
  (options: readonly string[]): ReadReply<string | undefined> =>
  (reply) =>
    typeof reply.value === "string" && options.includes(reply.value) ? { value: reply.value } : undefined;
export const readConfirm: ReadReply<boolean> = (reply) => (typeof reply.confirmed === "boolean" ? { value: reply.confirmed } : undefined);
export const readText: ReadReply<string | undefined> = (reply) => (typeof reply.value === "string" ? { value: reply.value } : undefined);
