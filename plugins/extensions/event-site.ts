/**
 * What an event adapter works with: the kernel hooks it taps, its tap's name and place, the call
 * that runs the extension's handler (with a fresh `ctx`, released by an abort), and how a
 * handler's answer is read. Shared by the adapter tables (`event-adapters.ts`, `event-adapters-pi1.ts`).
 */
import type { HookCatalog, TapOnly } from "../../kernel/index.js";
import type { CallOptions } from "./context.js";
import type { ExtensionHost } from "./host.js";
import type { ExtensionRecord } from "./record.js";
import type { ExtensionEventName, ExtensionEvents } from "./types/events.js";

/** What a handler call resolves to when an abort released it before it answered. */
export const RELEASED: unique symbol = Symbol("released");
export type Call = (event: object, options?: CallOptions) => Promise<unknown>;

export interface Site {
  hooks: TapOnly<HookCatalog>;
  tap: { name: string; order: "pre" };
  call: Call;
  host: ExtensionHost;
  record: ExtensionRecord;
}

export type Adapter = (site: Site) => void;
export type Result<K extends ExtensionEventName> = Exclude<ExtensionEvents[K]["result"], void> | undefined;
export const answered = <T>(value: unknown): T | undefined => (value === RELEASED || value === null || typeof value !== "object" ? undefined : (value as T));

/** A notification: the handler's answer is ignored. */
export const notifyAdapter =
  <H extends keyof HookCatalog>(hook: H, toEvent: (payload: any) => object): Adapter =>
  ({ hooks, tap, call }) =>
    (hooks[hook] as any).tapPromise(tap, async (payload: unknown) => void (await call(toEvent(payload))));
