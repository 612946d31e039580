/** The hooks the extensions plugin declares and calls. */
import { AsyncSeriesBailHook, AsyncSeriesHook } from "tapable";
import { guard, notify, type DeclaredHooks } from "../../kernel/index.js";

/** A client's answer to an extension_ui_request dialog. */
export interface UiResponse {
  id: string;
  value?: unknown;
  confirmed?: unknown;
  cancelled?: unknown;
}

/** pi's ui_prompt_start / ui_prompt_end payload. */
export interface UiPromptEvent {
  reason: "ui_prompt";
  kind: "select" | "confirm" | "input" | "editor" | "custom";
  title?: string;
}

export function extensionsHookDeclarations() {
  return {
    project_trust: guard(
      new AsyncSeriesBailHook<[{ cwd: string }], { trusted: "yes" | "no" } | undefined>(["event"]),
      () => ({ trusted: "no" as const }),
      "An untrusted project has extensions to load: a user or -e extension may answer whether to trust it.",
    ),
    ui_prompt_start: notify(
      new AsyncSeriesHook<[UiPromptEvent]>(["event"]),
      "An extension dialog (select, confirm, input, editor, custom) began waiting for the user; overlapping dialogs make one span.",
    ),
    ui_prompt_end: notify(new AsyncSeriesHook<[UiPromptEvent]>(["event"]), "No extension dialog is waiting for the user any more."),
    ui_response: notify(new AsyncSeriesBailHook<[UiResponse], true | undefined>(["reply"]), "A client answered a dialog (extension_ui_response): the dialog's owner answers true."),
  };
}

export type ExtensionsHooks = DeclaredHooks<ReturnType<typeof extensionsHookDeclarations>>;
