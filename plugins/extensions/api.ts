/**
 * The extensions plugin's public surface: the `extensions` service (what loaded, from where, and
 * what each extension registered), the `extensions` setting and the `-e`/`--no-extensions` flags.
 * Types only. The extension API itself (`pi`, `ctx`) is typed in `types/` and exported to
 * extension authors as Atomic's `@mariozechner/pi-coding-agent` (`compat/`).
 */
import type { ExtensionsHooks } from "./hooks.js";
import type { ExtensionScope } from "./record.js";

export type { ExtensionScope };
export type { ExtensionsHooks, UiResponse } from "./hooks.js";
export type {} from "./events.js";

export interface ExtensionSummary {
  /** Absolute path: the name of its taps, `extensionPath` in extension_error, `path` in get_commands. */
  path: string;
  scope: ExtensionScope;
  loaded: boolean;
  /** Why it did not load. */
  error?: string;
  events: string[];
  commands: string[];
  tools: string[];
  flags: string[];
  shortcuts: string[];
  providers: string[];
  /** Package names its imports were served from Atomic's modules (never an installed pi). */
  modules: string[];
  /** Milliseconds spent importing the file and running its factory (the first one also loads jiti). */
  loadMs: number;
}

export interface ExtensionsApi {
  /** Every extension that was tried, in load order. */
  list(): ExtensionSummary[];
}

/** Asking the client (the extension UI sub-protocol), for plugins as for extensions. */
export interface DialogsApi {
  /** Whether a client can answer here (RPC, ACP, an embedder); false in print and json modes. */
  readonly available: boolean;
  /** A confirm dialog: true when the client confirmed; false when it declined, cancelled, timed out, was dismissed by `signal`, or at teardown. */
  confirm(title: string, message: string, options?: { signal?: AbortSignal; timeout?: number }): Promise<boolean>;
  /** A notice (`notify`, nothing waits for it); without a client, a line on stderr. */
  notify(message: string, type?: "info" | "warning" | "error"): void;
}

declare module "../../kernel/services.js" {
  interface Services {
    extensions: ExtensionsApi;
    dialogs: DialogsApi;
  }
}

declare module "../../kernel/hooks.js" {
  interface HookCatalog extends ExtensionsHooks {}
}

declare module "../../kernel/config.js" {
  interface Settings {
    /** Extra extension files or folders (user settings only), relative to the agent dir. */
    extensions?: string[];
    /** Seconds one extension may take to import and run its factory before it is reported and skipped (default 600). */
    extensionLoadTimeout?: number;
  }
  interface CliOptions {
    /** `-e/--extension <path>`, repeatable. */
    extension?: string[];
    /** `--no-extensions`: no discovery; `-e` paths still load. */
    noExtensions?: boolean;
  }
}

/** The hooks this plugin declares (for a stand-in plugin in tests, which must declare them too). */
export { extensionsHookDeclarations } from "./hooks.js";
