/**
 * The hook registry: who declared each hook (its owner, the one plugin that calls it), its
 * policy and purpose. Every plugin gets a tap-only view of it (tapable's `withOptions` facade:
 * tap, intercept, isUsed, no call); the owner keeps the callable hooks `declareHooks` returned.
 */
import { HookMap } from "tapable";
import { ErrorCode, KernelError, kernelErrors } from "./errors.js";
import type { EventBus, EventMap, EventName } from "./events.js";
import type { DeclaredHooks, HookCatalog, HookDeclaration, HookDeclarations, HookName, HookPayload, HookPolicy, PluginErrorEvent, TapOrder } from "./hooks.js";
import { installPolicy, type BootWatch } from "./hook-policy.js";

type CallSide = "call" | "callAsync" | "promise";
type TapMethod = "tap" | "tapAsync" | "tapPromise";

/** A tap's name and, optionally, its place among the other taps (never a stage number). */
export type TapSpec = string | ({ name: string } & TapOrder);

type TapFn<H, M extends TapMethod> = H extends { [P in M]: (options: any, fn: infer F) => void } ? F : never;
type BailValue<H> = H extends { promise(...args: any[]): Promise<infer R> } ? Exclude<R, undefined | void> : never;
export type TapOnlyHook<H> = Omit<H, CallSide | TapMethod | "withOptions"> & {
  [M in TapMethod]: (options: TapSpec, fn: TapFn<H, M>) => void;
} & {
  /** A guard's declared veto: what a tap returns to refuse, as its owner understands it. */
  readonly veto?: (message: string) => BailValue<H>;
};
export type TapOnlyHookMap<I> = { for(key: string): TapOnlyHook<I>; intercept: HookMap<I>["intercept"] };

/** A catalogue minus the caller side: what plugins and extensions are handed. */
export type TapOnly<H> = { readonly [K in keyof H]: H[K] extends HookMap<infer I> ? TapOnlyHookMap<I> : TapOnlyHook<H[K]> };

/** What the registry knows of one hook (the lifecycle docs are generated from it). */
export interface HookInfo {
  name: string;
  owner: string;
  policy: HookPolicy;
  description: string;
}

interface Entry extends HookInfo {
  hook: unknown;
  view: unknown;
}

export class HookRegistry {
  readonly #entries = new Map<string, Entry>();
  readonly #report: (event: PluginErrorEvent) => void;
  readonly #bootWatch: BootWatch;
  #frozen = false;

  constructor(report: (event: PluginErrorEvent) => void, bootWatch: BootWatch) {
    this.#report = report;
    this.#bootWatch = bootWatch;
  }

  /** Declares hooks owned by `owner`; returns the callable hooks. A name has one owner. */
  declare<D extends HookDeclarations>(owner: string, declarations: D): DeclaredHooks<D> {
    if (this.#frozen) throw kernelErrors.frozen(`declare hooks (${Object.keys(declarations).join(", ")})`);
    const callable: Record<string, unknown> = {};
    for (const [name, declaration] of Object.entries(declarations) as [string, HookDeclaration][]) {
      const existing = this.#entries.get(name);
      if (existing)
        throw new KernelError(ErrorCode.DUPLICATE, `Hook "${name}" is declared by plugin "${existing.owner}"; plugin "${owner}" cannot declare it too`, {
          plugin: owner,
          hook: name,
        });
      if (declaration.policy === "guard" && !declaration.veto)
        throw new KernelError(ErrorCode.PLUGIN_INVALID, `Guard hook "${name}" of plugin "${owner}" needs a veto`, { plugin: owner, hook: name });
      const hook = declaration.hook as { name?: string };
      hook.name ??= name;
      installPolicy(name, declaration, this.#report, this.#bootWatch);
      this.#entries.set(name, { name, owner, policy: declaration.policy, description: declaration.description, hook, view: tapOnly(hook, declaration.veto) });
      callable[name] = hook;
    }
    return Object.freeze(callable) as DeclaredHooks<D>;
  }

  freeze(): void {
    this.#frozen = true;
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** Every declared hook, in declaration order. */
  list(): HookInfo[] {
    return [...this.#entries.values()].map(({ name, owner, policy, description }) => ({ name, owner, policy, description }));
  }

  /** The callable hook (for the kernel and tests); plugins use their view. */
  callable<K extends HookName>(name: K): HookCatalog[K] {
    return this.#entry(name, "the kernel").hook as HookCatalog[K];
  }

  /** The tap-only view `plugin` is handed: a hook not declared (yet) fails naming what to do. */
  viewFor(plugin: string): TapOnly<HookCatalog> {
    return new Proxy({} as TapOnly<HookCatalog>, {
      get: (_, name) => (typeof name === "string" ? this.#entry(name, plugin).view : undefined),
      has: (_, name) => typeof name === "string" && this.#entries.has(name),
      ownKeys: () => [...this.#entries.keys()],
      getOwnPropertyDescriptor: (_, name) =>
        typeof name === "string" && this.#entries.has(name) ? { enumerable: true, configurable: true, value: this.#entries.get(name)!.view } : undefined,
      set: () => false,
      defineProperty: () => false,
      deleteProperty: () => false,
    });
  }

  #entry(name: string, asker: string): Entry {
    const entry = this.#entries.get(name);
    if (!entry) {
      throw new KernelError(
        ErrorCode.NOT_FOUND,
        `Hook "${name}" is not declared: the plugin that owns it is not loaded, or "${asker}" is applied before it (list the owner in dependsOn or after)`,
        { plugin: asker, hook: name },
      );
    }
    return entry;
  }
}

function tapOnly(hook: unknown, veto: HookDeclaration["veto"]): unknown {
  if (hook instanceof HookMap) {
    const map = hook as unknown as HookMap<{ withOptions(options: object): unknown }>;
    return Object.freeze({ for: (key: string) => map.for(key).withOptions({}), intercept: (interceptor: never) => map.intercept(interceptor) });
  }
  const view = (hook as { withOptions(options: object): object }).withOptions({});
  return Object.freeze(veto ? Object.assign(view, { veto }) : view);
}

/** Hooks that mirror an outward event and only notify: announced with `announce`. */
export type AnnouncedName = EventName & HookName;

/**
 * The one way an owner announces something: the outward event first (so a transport writes it
 * before any tap can delay it), then the hook's taps, awaited only when there are any.
 * `extras` are fields only taps see (e.g. `turnIndex`), kept off the wire.
 */
export async function announce<K extends AnnouncedName>(
  target: { events: EventBus; hooks: Pick<HookCatalog, K> },
  name: K,
  payload: EventMap[K],
  ...extras: Exclude<keyof HookPayload<K>, keyof EventMap[K]> extends never ? [] : [Omit<HookPayload<K>, keyof EventMap[K]>]
): Promise<void> {
  target.events.dispatch({ type: name, ...payload } as never);
  const hook = target.hooks[name] as unknown as { isUsed(): boolean; promise(arg: unknown): Promise<unknown> };
  if (hook.isUsed()) await hook.promise(extras[0] ? { ...payload, ...extras[0] } : payload);
}
