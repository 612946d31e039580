/**
 * Confined commands and guarded file-tool calls take turns. A file tool checks a path, then uses
 * it; a command running at that moment (codemode runs several calls at once) could swap a folder
 * of the workspace for a symlink in between and send the write outside. So either kind runs
 * alongside its own kind, never alongside the other: a command's processes all end with it (its
 * pid namespace), and a file tool waits for the running commands, or they for it. A waiting kind
 * goes next: the kind already running admits no newcomers meanwhile, so neither starves.
 */
export type TurnKind = "commands" | "files";

export class Turns {
  #kind: TurnKind | undefined;
  #running = 0;
  readonly #waiting: { kind: TurnKind; start: () => void }[] = [];

  /** Resolves once `kind` may run; call the returned function when done (once). */
  async take(kind: TurnKind): Promise<() => void> {
    if (this.#running === 0 || (this.#kind === kind && this.#waiting.length === 0)) this.#start(kind);
    else await new Promise<void>((start) => this.#waiting.push({ kind, start }));
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--this.#running === 0) this.#next();
    };
  }

  #start(kind: TurnKind): void {
    this.#kind = kind;
    this.#running++;
  }

  /** Everyone of the kind at the head of the queue goes together. */
  #next(): void {
    const head = this.#waiting[0];
    if (!head) {
      this.#kind = undefined;
      return;
    }
    while (this.#waiting[0]?.kind === head.kind) {
      const next = this.#waiting.shift()!;
      this.#start(next.kind);
      next.start();
    }
  }
}
