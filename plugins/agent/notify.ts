/** The one way the agent announces something: outward event first, then the hook's taps. */
import type { EventBus, Hooks } from "../../kernel/index.js";

/** Emits the outward event, then lets hook taps observe it (awaited only when tapped). */
export async function notify<K extends keyof Hooks & string>(
  host: { hooks: Hooks; events: EventBus },
  name: K,
  payload: Record<string, unknown>,
  /** Extra fields only hook taps see (e.g. turnIndex), kept off the wire. */
  hookExtras?: Record<string, unknown>,
): Promise<void> {
  host.events.dispatch({ type: name, ...payload });
  const hook = host.hooks[name] as unknown as { isUsed(): boolean; promise(arg: unknown): Promise<unknown> };
  if (hook.isUsed()) await hook.promise(hookExtras ? { ...payload, ...hookExtras } : payload);
}

