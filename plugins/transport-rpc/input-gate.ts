/**
 * When the transport reads stdin. Reading stops while stdout is congested (the client is not
 * reading) or while too many records wait for their response, and resumes once both have
 * drained: a client that floods input or stops reading cannot grow the agent's memory without
 * bound, and no response is ever dropped.
 */
export interface GateOptions {
  pause(): void;
  resume(): void;
  /** Undefined when output keeps up, else a promise that resolves on drain. */
  congestion(): Promise<void> | undefined;
  /** Records waiting for a response before reading stops (default 1024). */
  maxInFlight?: number;
  /** Reading resumes when fewer wait than this (default 256). */
  resumeBelow?: number;
}

export class InputGate {
  readonly #options: Required<GateOptions>;
  #inFlight = 0;
  #paused = false;
  #waitingForDrain = false;
  #closed = false;

  constructor(options: GateOptions) {
    this.#options = { maxInFlight: 1024, resumeBelow: 256, ...options };
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  /** Counts a record as waiting until its `respond` runs. */
  track<R>(respond: (response: R) => void): (response: R) => void {
    this.#inFlight++;
    let answered = false;
    return (response) => {
      respond(response);
      if (!answered) {
        answered = true;
        this.#inFlight--;
      }
      this.check();
    };
  }

  /** Pauses or resumes reading for the current state. */
  check(): void {
    if (this.#closed) return;
    const congested = this.#options.congestion();
    if (congested || this.#inFlight > this.#options.maxInFlight) {
      this.#setPaused(true);
      if (congested && !this.#waitingForDrain) {
        this.#waitingForDrain = true;
        void congested.then(() => {
          this.#waitingForDrain = false;
          this.check();
        });
      }
      return;
    }
    if (this.#paused && this.#inFlight < this.#options.resumeBelow) this.#setPaused(false);
  }

  /** Input is over: the gate no longer touches the stream. */
  close(): void {
    this.#closed = true;
  }

  #setPaused(paused: boolean): void {
    if (paused === this.#paused) return;
    this.#paused = paused;
    if (paused) this.#options.pause();
    else this.#options.resume();
  }
}
