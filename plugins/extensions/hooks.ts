/** The hooks the extensions plugin declares and calls. */
import { AsyncSeriesBailHook } from "tapable";
import { guard, notify, type DeclaredHooks } from "../../kernel/index.js";

/** A client's answer to an extension_ui_request dialog. */
export interface UiResponse {
  id: string;
  value?: unknown;
  confirmed?: unknown;
  cancelled?: unknown;
}

export function extensionsHookDeclarations() {
  return {
    project_trust: guard(
      new AsyncSeriesBailHook<[{ cwd: string }], { trusted: "yes" | "no" } | undefined>(["event"]),
      () => ({ trusted: "no" as const }),
      "An untrusted project has extensions to load: a user or -e extension may answer whether to trust it.",
    ),
    ui_response: notify(new AsyncSeriesBailHook<[UiResponse], true | undefined>(["reply"]), "A client answered a dialog (extension_ui_response): the dialog's owner answers true."),
  };
}

export type ExtensionsHooks = DeclaredHooks<ReturnType<typeof extensionsHookDeclarations>>;
