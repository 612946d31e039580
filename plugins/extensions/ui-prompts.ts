/**
 * pi's `ui_prompt_start` / `ui_prompt_end`: one span while any extension dialog waits for the
 * user (overlapping dialogs are coalesced into the outer span), announced on the extensions
 * plugin's hooks. As in pi, the announcements are not awaited: a dialog never waits for them.
 */
import type { ExtensionsHooks, UiPromptEvent } from "./hooks.js";

export class UiPrompts {
  readonly #hooks: Pick<ExtensionsHooks, "ui_prompt_start" | "ui_prompt_end">;
  readonly #onError: (error: unknown) => void;
  #depth = 0;
  #open: UiPromptEvent | undefined;

  constructor(hooks: Pick<ExtensionsHooks, "ui_prompt_start" | "ui_prompt_end">, onError: (error: unknown) => void) {
    this.#hooks = hooks;
    this.#onError = onError;
  }

  /** Runs the dialog `run` inside the waiting span. */
  wrap<T>(kind: UiPromptEvent["kind"], title: string | undefined, run: () => Promise<T>): Promise<T> {
    if (this.#depth++ === 0) {
      this.#open = { reason: "ui_prompt", kind, ...(title ? { title } : {}) };
      this.#announce("ui_prompt_start", this.#open);
    }
    const finish = () => {
      if (--this.#depth > 0) return;
      const span = this.#open ?? { reason: "ui_prompt" as const, kind };
      this.#open = undefined;
      this.#announce("ui_prompt_end", span);
    };
    let pending: Promise<T>;
    try {
      pending = run();
    } catch (error) {
      finish();
      throw error;
    }
    return pending.finally(finish);
  }

  #announce(name: "ui_prompt_start" | "ui_prompt_end", event: UiPromptEvent): void {
    const hook = this.#hooks[name];
    if (!hook.isUsed()) return;
    queueMicrotask(() => void hook.promise({ ...event }).catch(this.#onError));
  }
}
