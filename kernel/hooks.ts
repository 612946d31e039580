/**
 * Hooks: where plugins meet. The kernel declares only the host's own (boot phases, closing,
 * shutdown, plugin_error); every other hook is declared by the plugin that calls it, with
 * `k.declareHooks({...})`, which also names its failure policy and what it is for. The owner
 * publishes the hooks' types by augmenting `HookCatalog` in its `api.ts`, so `k.hooks.<name>` is
 * typed wherever the owner's api is compiled in:
 *
 * @example
 * // plugins/greeter/hooks.ts
 * export const greeterHooks = () => ({ greet: notify(new AsyncSeriesHook<[{ name: string }]>(["event"]), "A greeting is sent.") });
 * // plugins/greeter/api.ts
 * declare module "../../kernel/hooks.js" { interface HookCatalog extends DeclaredHooks<ReturnType<typeof greeterHooks>> {} }
 */
import { AsyncSeriesHook, SyncHook } from "tapable";

/**
 * What happens when a tap throws. guard: first answer wins, a throw counts as the owner's veto
 * (fails closed). transform: a waterfall, a throw passes the value through. notify: every tap
 * runs in order, a throw is reported and the rest run. internal: the throw reaches the owner.
 */
export type HookPolicy = "guard" | "transform" | "notify" | "internal";

/** How a plugin declares one hook: the hook, its policy, and a sentence for the lifecycle docs. */
export interface HookDeclaration<H = unknown> {
  readonly hook: H;
  readonly policy: HookPolicy;
  readonly description: string;
  /** Guards only: the veto a throwing tap turns into (its caller already understands it). */
  readonly veto?: (message: string) => unknown;
}

export type HookDeclarations = Record<string, HookDeclaration>;
/** The callable hooks a set of declarations yields. */
export type DeclaredHooks<D extends HookDeclarations> = { readonly [K in keyof D]: D[K]["hook"] };

type BailValue<H> = H extends { promise(...args: any[]): Promise<infer R> } ? Exclude<R, undefined | void> : never;

export const guard = <H>(hook: H, veto: (message: string) => BailValue<H>, description: string): HookDeclaration<H> => ({ hook, policy: "guard", veto, description });
export const transform = <H>(hook: H, description: string): HookDeclaration<H> => ({ hook, policy: "transform", description });
export const notify = <H>(hook: H, description: string): HookDeclaration<H> => ({ hook, policy: "notify", description });
export const internal = <H>(hook: H, description: string): HookDeclaration<H> => ({ hook, policy: "internal", description });

export type ShutdownReason = "eof" | "signal" | "exit";

export interface PluginErrorEvent {
  /** Tap name: a plugin name or an extension path. */
  source: string;
  hook: string;
  error: string;
  /** Where in the tap's file it was thrown (`path:line:column`), when the tap is named by one. */
  at?: string;
}

/**
 * Boot runs in named phases, each a hook of its own, in this order, after every plugin applied:
 * `load` brings code the plugins load themselves (user extensions), `configure` settles choices
 * that need every registration (default model, active tools), `start` begins the work (opens
 * what the agent works in). Registries freeze after the last phase.
 */
export const BOOT_PHASES = ["boot_load", "boot_configure", "boot_start"] as const;
export type BootPhase = (typeof BOOT_PHASES)[number];

/** The host's own hooks, declared by the kernel itself. */
export function hostHooks() {
  return {
    boot_load: internal(new AsyncSeriesHook<[]>([]), "Boot phase 1: plugins load code of their own (user extensions), registering more."),
    boot_configure: internal(new AsyncSeriesHook<[]>([]), "Boot phase 2: choices that need every registration (the startup model, the active tools)."),
    boot_start: internal(new AsyncSeriesHook<[]>([]), "Boot phase 3: the work begins; registries freeze after it."),
    closing: notify(new AsyncSeriesHook<[{ reason: ShutdownReason }]>(["event"]), "Teardown began: input is over, so whatever waits on the client gives up."),
    shutdown: notify(new AsyncSeriesHook<[{ reason: ShutdownReason }]>(["event"]), "Every record read was answered: abort work in progress, drain, flush."),
    plugin_error: internal(new SyncHook<[PluginErrorEvent]>(["event"]), "A tap of an isolating hook threw (reported, the rest ran)."),
  };
}

/**
 * Every declared hook by name. The kernel's own are here; each owner adds its hooks with
 * `interface HookCatalog extends DeclaredHooks<...> {}` in its api.ts.
 */
export interface HookCatalog extends DeclaredHooks<ReturnType<typeof hostHooks>> {}

export type HookName = keyof HookCatalog & string;

/** The single argument a hook's taps receive. */
export type HookPayload<K extends HookName> = HookCatalog[K] extends { promise(arg: infer A, ...rest: any[]): any } ? A : never;

/**
 * Where a tap sits among the others, by name rather than number: `order` puts it in the first
 * (`pre`) or last (`post`) group, `before`/`after` against named taps (plugin names, extension
 * paths). Within a group taps run in registration order.
 */
export interface TapOrder {
  order?: "pre" | "post";
  before?: string | string[];
  after?: string | string[];
}
