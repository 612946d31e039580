/**
 * `pi.events`: a bus extensions use to talk to each other. Channels are plain strings; handlers
 * run in subscription order; a throwing or rejecting handler is reported as `extension_error`
 * against the extension that subscribed (event `events:<channel>`), and the others still run.
 */
import type { ExtensionEventBus } from "./types/api.js";

type Handler = (data: unknown) => void | Promise<void>;

export class ExtensionBus {
  readonly #channels = new Map<string, { owner: string; handler: Handler }[]>();
  readonly #report: (owner: string, event: string, error: unknown) => void;

  constructor(report: (owner: string, event: string, error: unknown) => void) {
    this.#report = report;
  }

  /** The bus as one extension sees it: its subscriptions are labelled with its path. */
  forExtension(owner: string): ExtensionEventBus {
    return {
      on: (channel, handler) => {
        if (typeof handler !== "function") throw new TypeError(`pi.events.on("${String(channel)}"): the handler must be a function`);
        const entry = { owner, handler };
        const list = this.#channels.get(channel) ?? [];
        list.push(entry);
        this.#channels.set(channel, list);
        return () => {
          const current = this.#channels.get(channel);
          const index = current?.indexOf(entry) ?? -1;
          if (index >= 0) current!.splice(index, 1);
        };
      },
      emit: (channel, data) => this.#emit(String(channel), data),
    };
  }

  #emit(channel: string, data: unknown): void {
    for (const { owner, handler } of [...(this.#channels.get(channel) ?? [])]) {
      const fail = (error: unknown) => this.#report(owner, `events:${channel}`, error);
      try {
        const result = handler(data);
        if (result && typeof (result as Promise<void>).then === "function") (result as Promise<void>).catch(fail);
      } catch (error) {
        fail(error);
      }
    }
  }
}
