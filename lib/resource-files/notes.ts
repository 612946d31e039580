/**
 * Diagnostics for resource discovery, each said once: discovery re-runs on every listing and
 * `/word`, and a broken file must not repeat its complaint on every prompt. A file that loads
 * cleanly again forgets its notes, so a later breakage is reported afresh.
 */
import type { Logger } from "../../kernel/index.js";

export class OnceNotes {
  readonly #said = new Map<string, Set<string>>();

  constructor(private readonly log: Pick<Logger, "warn">) {}

  /** Writes `message` to stderr unless it was already said about `subject`. */
  note(subject: string, message: string): void {
    let said = this.#said.get(subject);
    if (!said) this.#said.set(subject, (said = new Set()));
    if (said.has(message)) return;
    said.add(message);
    this.log.warn(message);
  }

  /** `subject` is fine now: its next problem is reported again. */
  clear(subject: string): void {
    this.#said.delete(subject);
  }
}
