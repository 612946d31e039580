/**
 * The outward event stream. Plugins emit, transports subscribe. Fan-out is synchronous so every
 * listener sees events in emit order; producers that can flood (streamed deltas) await `drain()`
 * to respect a slow consumer.
 */

/**
 * The outward events and their payloads. Closed: the plugin that emits an event declares it by
 * augmentation (its payload type derived from the event's zod schema) and registers the schema,
 * so an emitted typo does not compile. Hooks that mirror an event take their payload from here.
 *
 * @example
 * const MyEvent = () => z.object({ value: z.number() });
 * declare module "atomic-agent" { interface EventMap { my_event: z.output<ReturnType<typeof MyEvent>> } }
 * // in apply(k): k.registerEvent("my_event", MyEvent);
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface EventMap {}

export type EventName = keyof EventMap & string;

/** One outward record: its `type` first, then the payload. */
export type OutEvent<K extends EventName = EventName> = K extends EventName ? { type: K } & EventMap[K] : never;

export type EventListener = (event: OutEvent) => void;
type PressureSource = () => Promise<void> | undefined;

/** How many events emitted before the first subscriber (during boot) are kept for it. */
const EARLY_EVENT_LIMIT = 1000;

export class EventBus {
  readonly #listeners = new Set<EventListener>();
  /** Events emitted by a listener while another is being delivered: sent after it, in order. */
  readonly #pending: OutEvent[] = [];
  #delivering = false;
  readonly #pressure = new Set<PressureSource>();
  readonly #onListenerError: (error: unknown) => void;
  /**
   * Events emitted during boot (an extension that failed to load, its first notices), before the
   * transport listens: kept for the first subscriber that asks for them (the host's, which
   * transports use), so the client sees them. Undefined once handed over.
   */
  #early: OutEvent[] | undefined = [];

  constructor(onListenerError: (error: unknown) => void) {
    this.#onListenerError = onListenerError;
  }

  /** `replay`: first deliver what was emitted before (once, to the first subscriber that asks). */
  subscribe(listener: EventListener, options: { replay?: boolean } = {}): () => void {
    const early = options.replay ? this.#early : undefined;
    if (early) {
      this.#early = undefined;
      for (const event of early) {
        try {
          listener(event);
        } catch (error) {
          this.#onListenerError(error);
        }
      }
    }
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit<K extends EventName>(type: K, payload: EventMap[K]): void {
    this.dispatch({ type, ...payload } as OutEvent);
  }

  /**
   * Sends an already-shaped event object (its `type` first) without copying it. An event a
   * listener emits in reaction goes out after the one it reacts to, to every listener alike.
   */
  dispatch(event: OutEvent): void {
    if (this.#early && this.#early.length < EARLY_EVENT_LIMIT) this.#early.push(event);
    if (this.#delivering) {
      this.#pending.push(event);
      return;
    }
    this.#delivering = true;
    try {
      let next: OutEvent | undefined = event;
      while (next) {
        for (const listener of this.#listeners) {
          try {
            listener(next);
          } catch (error) {
            this.#onListenerError(error);
          }
        }
        next = this.#pending.shift();
      }
    } finally {
      this.#delivering = false;
    }
  }

  /** A consumer (e.g. stdout) reports congestion through this; returns the unregister function. */
  addPressureSource(source: PressureSource): () => void {
    this.#pressure.add(source);
    return () => this.#pressure.delete(source);
  }

  /** Undefined when nobody is congested (the common case costs no promise), else a promise to await. */
  drain(): Promise<void> | undefined {
    let waits: Promise<void>[] | undefined;
    for (const source of this.#pressure) {
      const wait = source();
      if (wait) (waits ??= []).push(wait);
    }
    if (!waits) return undefined;
    return waits.length === 1 ? waits[0] : Promise.all(waits).then(() => undefined);
  }
}
