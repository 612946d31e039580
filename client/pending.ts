/**
 * Commands written and waiting for their responses, matched by id. Shared by the process client
 * and the server client: both time a command out after `limitMs` (0: never), except those that
 * run as long as they need (`bash`, `compact`).
 */
import type { Record_ } from "./connection.js";

const UNTIMED = new Set(["bash", "compact"]);

interface Pending {
  resolve(record: Record_): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout | undefined;
}

export class PendingRequests {
  readonly #pending = new Map<string, Pending>();

  /** Registers `id`, then writes the command; `timeoutDetail()` is appended to the timeout's message. */
  track(id: string, type: string, limitMs: number, write: () => void, timeoutDetail: () => string = () => ""): Promise<Record_> {
    return new Promise<Record_>((resolve, reject) => {
      const timer =
        limitMs > 0 && !UNTIMED.has(type)
          ? setTimeout(() => {
              this.#pending.delete(id);
              reject(new Error(`Timeout waiting for response to ${type}${timeoutDetail()}`));
            }, limitMs)
          : undefined;
      this.#pending.set(id, { resolve, reject, timer });
      write();
    });
  }

  /** Hands a response to its waiting command; false when the record is not one. */
  settle(record: Record_): boolean {
    if (record.type !== "response" || typeof record.id !== "string") return false;
    const pending = this.#pending.get(record.id);
    if (!pending) return false;
    this.#pending.delete(record.id);
    clearTimeout(pending.timer);
    pending.resolve(record);
    return true;
  }

  failAll(error: Error): void {
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(error);
    }
    this.#pending.clear();
  }
}
