/**
 * What happens when a tap fails, declared per hook (`HookDeclaration.policy`) and implemented
 * once, by a tapable `register` interceptor that wraps every tap. Guards fail closed (the error
 * counts as the declared veto), transforms and notifications isolate the tap (the value passes
 * through, the error is reported), internal hooks propagate. Boot phase taps run under the same
 * watch (no fixed deadline: a notice on stderr while it runs long) and labelling as a plugin's
 * apply(). A second interceptor places each tap by its
 * named order (`TapOrder`).
 */
import { HookMap } from "tapable";
import { ErrorCode, isKernelError, KernelError, thrownAt, toKernelError } from "./errors.js";
import { BOOT_PHASES, type HookDeclaration, type PluginErrorEvent, type TapOrder } from "./hooks.js";
import { isThenable, watchSlow } from "./slow-work.js";

/** How boot work is waited on: no limit unless one is given; a notice while it runs long. */
export interface BootWatch {
  limitMs?: number | undefined;
  notice: (message: string) => void;
}

interface MutableTap extends TapOrder {
  name: string;
  type: "sync" | "async" | "promise";
  fn: Function;
  stage?: number;
}

/** Wraps every tap's fn once, at registration, so the policy lives in one place. */
function policyInterceptor(hookName: string, declaration: HookDeclaration, report: (event: PluginErrorEvent) => void) {
  const recover = (tapName: string, error: unknown, args: unknown[]): unknown => {
    const message = error instanceof Error ? error.message : String(error);
    const at = thrownAt(error, tapName);
    report({ source: tapName, hook: hookName, error: message, ...(at ? { at } : {}) });
    if (declaration.policy === "transform") return args[0];
    if (declaration.policy === "guard") return declaration.veto!(message);
    return undefined;
  };
  return { register: (tap: MutableTap) => wrapTap(tap, (error, args) => recover(tap.name, error, args)) };
}

/** Boot taps: a failing tap (or one past an explicit limit) fails boot with a coded error naming its plugin and the hook. */
function bootInterceptor(hookName: string, watch: BootWatch) {
  const label = (plugin: string, error: unknown): KernelError => {
    // A usage error (a flag's bad value found at boot) is for the user, unlabelled.
    if (isKernelError(error) && (error.plugin || error.code === ErrorCode.USAGE)) return error;
    const coded = toKernelError(error);
    const code = coded.code === ErrorCode.INTERNAL ? ErrorCode.HOOK_FAILED : coded.code;
    return new KernelError(code, `[plugin ${plugin}] boot failed: ${coded.message}`, { plugin, hook: hookName, cause: error });
  };
  return {
    register(tap: MutableTap) {
      const original = tap.fn;
      const run = async (): Promise<void> => {
        const work =
          tap.type === "async"
            ? new Promise<void>((resolve, reject) => original((error: unknown) => (error ? reject(error) : resolve())))
            : Promise.resolve().then(() => original());
        try {
          await watchSlow(work, {
            limitMs: watch.limitMs,
            notice: (seconds) => watch.notice(`Plugin "${tap.name}" is still running its ${hookName} hook (${seconds} s)`),
            onLimit: () =>
              new KernelError(ErrorCode.PLUGIN_BOOT_TIMEOUT, `Plugin "${tap.name}" did not finish its ${hookName} hook within ${watch.limitMs} ms`, {
                plugin: tap.name,
                hook: hookName,
              }),
          });
        } catch (error) {
          throw label(tap.name, error);
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
        if (isThenable(result)) return Promise.resolve(result).catch((error: unknown) => recover(error, args));
        return result;
      } catch (error) {
        return recover(error, args);
      }
    };
  }
  return tap;
}

const GROUP_STAGE = { pre: -1, post: 1 } as const;
const names = (value: string | string[] | undefined): string[] => (value === undefined ? [] : typeof value === "string" ? [value] : value);

/**
 * Places a tap by name: `order` picks its group (tapable's stage), `before` is tapable's own,
 * `after: X` is kept by making X, when it registers later, go before the taps waiting for it.
 * Numeric stages are not part of the contract: plugins say what they follow, not a number.
 */
function orderInterceptor(hookName: string, taps: () => readonly MutableTap[]) {
  return {
    register(tap: MutableTap) {
      if (tap.order) tap.stage = GROUP_STAGE[tap.order];
      const stage = tap.stage ?? 0;
      const waiting: string[] = [];
      for (const other of taps()) {
        if (!names(other.after).includes(tap.name)) continue;
        if ((other.stage ?? 0) < stage)
          throw new KernelError(ErrorCode.INVALID_INPUT, `Hook "${hookName}": "${other.name}" runs after "${tap.name}", but "${tap.name}" asks for a later group`, {
            hook: hookName,
          });
        if ((other.stage ?? 0) === stage) waiting.push(other.name);
      }
      for (const name of names(tap.after)) {
        const earlier = taps().find((other) => other.name === name);
        if (earlier && (earlier.stage ?? 0) > stage)
          throw new KernelError(ErrorCode.INVALID_INPUT, `Hook "${hookName}": "${tap.name}" runs after "${name}", which is in a later group`, { hook: hookName });
      }
      if (waiting.length > 0) tap.before = [...names(tap.before), ...waiting];
      return tap;
    },
  };
}

type Interceptable = { intercept(interceptor: unknown): void; isUsed(): boolean; taps: MutableTap[] };

/** Installs a declared hook's policy (or the boot guard) and the tap ordering. */
export function installPolicy(name: string, declaration: HookDeclaration, report: (event: PluginErrorEvent) => void, bootWatch: BootWatch): void {
  const install = (hook: Interceptable, label: string) => {
    hook.intercept(orderInterceptor(label, () => hook.taps));
    if ((BOOT_PHASES as readonly string[]).includes(name)) hook.intercept(bootInterceptor(name, bootWatch));
    else if (declaration.policy !== "internal") hook.intercept(policyInterceptor(name, declaration, report));
    // tapable counts interceptors as use: the interceptors would make every hook look tapped,
    // and owners would build payloads and await taps nobody registered (per delta).
    hook.isUsed = () => hook.taps.length > 0;
  };
  const hook = declaration.hook;
  if (hook instanceof HookMap) {
    (hook as HookMap<Interceptable>).intercept({ factory: (key: string, made: Interceptable) => (install(made, `${name}:${key}`), made) } as never);
  } else {
    install(hook as Interceptable, name);
  }
}
