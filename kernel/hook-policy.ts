/**
 * What happens when a tap fails, declared per hook and implemented once, by a tapable `register`
 * interceptor that wraps every tap. Guards fail closed (the error counts as a veto), transforms
 * and notifications isolate the tap (the value passes through, the error is reported), internal
 * hooks propagate. Boot taps run under the same timeout and labelling as a plugin's apply().
 */
import { HookMap } from "tapable";
import { ErrorCode, isKernelError, KernelError, toKernelError } from "./errors.js";
import type { HookName, Hooks } from "./hooks.js";

export type HookPolicy = "guard" | "transform" | "notify" | "internal";

export interface PluginErrorEvent {
  /** Tap name: a plugin name or an extension path. */
  source: string;
  hook: string;
  error: string;
}

/** Every hook's policy; `satisfies` makes a hook without one a compile error. */
export const HOOK_POLICY = Object.freeze({
  boot: "internal",
  closing: "notify",
  shutdown: "notify",
  plugin_error: "internal",
  abort: "notify",
  ui_response: "notify",
  project_trust: "guard",
  resources_discover: "transform",
  session_start: "notify",
  session_before_switch: "guard",
  session_before_fork: "guard",
  session_before_compact: "guard",
  session_compact: "notify",
  session_shutdown: "notify",
  session_info_changed: "notify",
  input: "transform",
  prompt_preflight: "internal",
  system_prompt: "transform",
  before_agent_start: "transform",
  context: "transform",
  run_start: "internal",
  agent_start: "notify",
  agent_end: "notify",
  run_end: "internal",
  agent_settled: "notify",
  turn_start: "notify",
  turn_end: "notify",
  message_start: "notify",
  message_update: "notify",
  message_end: "transform",
  tool_call: "guard",
  tool_result: "transform",
  tool_execution_start: "notify",
  tool_execution_update: "notify",
  tool_execution_end: "notify",
  user_bash: "guard",
  model_select: "notify",
  thinking_level_select: "notify",
  before_provider_headers: "notify",
  before_provider_request: "transform",
  after_provider_response: "notify",
  stream: "internal",
} as const satisfies Record<HookName, HookPolicy>);

export type GuardHookName = { [K in HookName]: (typeof HOOK_POLICY)[K] extends "guard" ? K : never }[HookName];

type BailResult<K extends HookName> = Hooks[K] extends { promise(...args: any[]): Promise<infer R> } ? Exclude<R, undefined | void> : never;

/** What a guard's failure turns into: a veto its caller already understands. One entry per guard, by type. */
export const GUARD_VETO: { readonly [K in GuardHookName]: (message: string) => BailResult<K> } = Object.freeze({
  tool_call: (message: string) => ({ block: true as const, reason: `Tool call blocked: ${message}` }),
  user_bash: (message: string) => ({ block: true as const, reason: `Command blocked: ${message}` }),
  session_before_switch: () => ({ cancel: true as const }),
  session_before_fork: () => ({ cancel: true as const }),
  session_before_compact: () => ({ cancel: true }),
  project_trust: () => ({ trusted: "no" as const }),
});

interface MutableTap {
  name: string;
  type: "sync" | "async" | "promise";
  fn: Function;
}

/** Wraps every tap's fn once, at registration, so the policy lives in one place. */
function policyInterceptor(hookName: HookName, policy: HookPolicy, report: (event: PluginErrorEvent) => void) {
  const recover = (tapName: string, error: unknown, args: unknown[]): unknown => {
    const message = error instanceof Error ? error.message : String(error);
    report({ source: tapName, hook: hookName, error: message });
    if (policy === "transform") return args[0];
    if (policy === "guard") return (GUARD_VETO as Record<string, (m: string) => unknown>)[hookName]!(message);
    return undefined;
  };
  return { register: (tap: MutableTap) => wrapTap(tap, (error, args) => recover(tap.name, error, args)) };
}

/** Boot taps: a hung or failing tap fails boot with a coded error naming its plugin and the hook. */
function bootInterceptor(timeoutMs: number) {
  const label = (plugin: string, error: unknown): KernelError => {
    // A usage error (a flag's bad value found at boot) is for the user, unlabelled.
    if (isKernelError(error) && (error.plugin || error.code === ErrorCode.USAGE)) return error;
    const coded = toKernelError(error);
    const code = coded.code === ErrorCode.INTERNAL ? ErrorCode.HOOK_FAILED : coded.code;
    return new KernelError(code, `[plugin ${plugin}] boot failed: ${coded.message}`, { plugin, hook: "boot", cause: error });
  };
  return {
    register(tap: MutableTap) {
      const original = tap.fn;
      const run = async (): Promise<void> => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new KernelError(ErrorCode.PLUGIN_BOOT_TIMEOUT, `Plugin "${tap.name}" did not finish its boot hook within ${timeoutMs} ms`, { plugin: tap.name, hook: "boot" })),
            timeoutMs,
          );
          timer.unref();
        });
        const work = tap.type === "async" ? new Promise<void>((resolve, reject) => original((error: unknown) => (error ? reject(error) : resolve()))) : Promise.resolve().then(() => original());
        try {
          await Promise.race([work, timeout]);
        } catch (error) {
          throw label(tap.name, error);
        } finally {
          clearTimeout(timer);
        }
      };
      tap.type = "promise";
      tap.fn = run;
      return tap;
    },
  };
}

function wrapTap(tap: MutableTap, recover: (error: unknown, args: unknown[]) => unknown): MutableTap {
  const original = tap.fn;
  if (tap.type === "promise") {
    tap.fn = (...args: unknown[]) => {
      try {
        return Promise.resolve(original(...args)).catch((error: unknown) => recover(error, args));
      } catch (error) {
        return Promise.resolve(recover(error, args));
      }
    };
  } else if (tap.type === "async") {
    tap.fn = (...args: unknown[]) => {
      const callback = args[args.length - 1] as (error: unknown, result?: unknown) => void;
      const rest = args.slice(0, -1);
      try {
        original(...rest, (error: unknown, result?: unknown) => (error ? callback(null, recover(error, rest)) : callback(null, result)));
      } catch (error) {
        callback(null, recover(error, rest));
      }
    };
  } else {
    tap.fn = (...args: unknown[]) => {
      try {
        const result = original(...args);
        if (result && typeof (result as Promise<unknown>).then === "function") {
          return (result as Promise<unknown>).catch((error: unknown) => recover(error, args));
        }
        return result;
      } catch (error) {
        return recover(error, args);
      }
    };
  }
  return tap;
}

/** Installs each hook's policy interceptor (and the boot guard) on a fresh catalogue. */
export function installPolicies(hooks: Hooks, report: (event: PluginErrorEvent) => void, bootTimeoutMs: number): void {
  for (const name of Object.keys(hooks) as HookName[]) {
    const hook = hooks[name];
    if (hook instanceof HookMap || (HOOK_POLICY[name] === "internal" && name !== "boot")) continue;
    const interceptor = name === "boot" ? bootInterceptor(bootTimeoutMs) : policyInterceptor(name, HOOK_POLICY[name], report);
    const intercepted = hook as unknown as { intercept(i: unknown): void; isUsed(): boolean; taps: unknown[] };
    intercepted.intercept(interceptor);
    // tapable counts interceptors as use: the policy interceptor would make every hook look
    // tapped, and owners would build payloads and await taps nobody registered (per delta).
    intercepted.isUsed = () => intercepted.taps.length > 0;
  }
}
