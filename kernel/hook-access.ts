/**
 * Who may call a hook. Every plugin gets a tap-only view of the catalogue (tapable's
 * `withOptions` facade: tap, intercept, isUsed, no call); a plugin that owns a hook claims it
 * once and gets the callable hook. Two claims of one hook fail naming both plugins.
 */
import { HookMap } from "tapable";
import { ErrorCode, KernelError } from "./errors.js";
import type { EventBus, EventMap, EventName } from "./events.js";
import type { HookName, HookPayload, Hooks } from "./hooks.js";
import type { HOOK_POLICY } from "./hook-policy.js";

type CallSide = "call" | "callAsync" | "promise";

export type TapOnlyHookMap<I> = { for(key: string): Omit<I, CallSide>; intercept: HookMap<I>["intercept"] };

/** The catalogue minus the caller side: what plugins and extensions are handed. */
export type TapOnly<H> = { readonly [K in keyof H]: H[K] extends HookMap<infer I> ? TapOnlyHookMap<I> : Omit<H[K], CallSide> };

/** One shared, frozen tap-only view of a catalogue (facades hold no state of their own). */
export function tapOnlyView(hooks: Hooks): TapOnly<Hooks> {
  const view: Record<string, unknown> = {};
  for (const [name, hook] of Object.entries(hooks)) {
    if (hook instanceof HookMap) {
      const map = hook as unknown as HookMap<{ withOptions(options: object): unknown }>;
      view[name] = Object.freeze({ for: (key: string) => map.for(key).withOptions({}), intercept: (interceptor: never) => map.intercept(interceptor) });
    } else {
      view[name] = (hook as { withOptions(options: object): unknown }).withOptions({});
    }
  }
  return Object.freeze(view) as TapOnly<Hooks>;
}

/** Records which plugin owns (calls) each hook. */
export class HookOwnership {
  readonly #owners = new Map<HookName, string>();

  constructor(readonly hooks: Hooks) {}

  claim<K extends HookName>(plugin: string, names: readonly K[]): Pick<Hooks, K> {
    const picked: Partial<Hooks> = {};
    for (const name of names) {
      if (!(name in this.hooks)) throw new KernelError(ErrorCode.NOT_FOUND, `Plugin "${plugin}" claims unknown hook "${name}"`, { plugin });
      const owner = this.#owners.get(name);
      if (owner !== undefined && owner !== plugin) {
        throw new KernelError(ErrorCode.DUPLICATE, `Hook "${name}" is owned by plugin "${owner}"; plugin "${plugin}" cannot claim it too`, { plugin, hook: name });
      }
      this.#owners.set(name, plugin);
      (picked as Record<string, unknown>)[name] = this.hooks[name];
    }
    return Object.freeze(picked) as Pick<Hooks, K>;
  }

  ownerOf(name: HookName): string | undefined {
    return this.#owners.get(name);
  }
}

/** Hooks that mirror an outward event and only notify: announced with `announce`. */
export type AnnouncedName = { [K in EventName & HookName]: (typeof HOOK_POLICY)[K] extends "notify" ? K : never }[EventName & HookName];

/**
 * The one way an owner announces something: the outward event first (so a transport writes it
 * before any tap can delay it), then the hook's taps, awaited only when there are any.
 * `extras` are fields only taps see (e.g. `turnIndex`), kept off the wire.
 */
export async function announce<K extends AnnouncedName>(
  target: { events: EventBus; hooks: Pick<Hooks, K> },
  name: K,
  payload: EventMap[K],
  ...extras: Exclude<keyof HookPayload<K>, keyof EventMap[K]> extends never ? [] : [Omit<HookPayload<K>, keyof EventMap[K]>]
): Promise<void> {
  target.events.dispatch({ type: name, ...payload } as never);
  const hook = target.hooks[name] as unknown as { isUsed(): boolean; promise(arg: unknown): Promise<unknown> };
  if (hook.isUsed()) await hook.promise(extras[0] ? { ...payload, ...extras[0] } : payload);
}
