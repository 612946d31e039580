/**
 * `ctx.ui`: over RPC, dialogs and notices go through the UI bridge; without a client that can
 * answer (another transport) dialogs resolve with their defaults at once and notices are dropped.
 * Terminal-only methods behave as pi's RPC mode degrades them (docs/extensions.md) says.
 */
import { Theme as PiTheme } from "./compat/theme.js";
import type { ExtensionUIContext, ExtensionUIDialogOptions, Theme } from "./types/context.js";
import { readConfirm, readSelect, readText, type UiBridge } from "./ui-bridge.js";
import type { UiPrompts } from "./ui-prompts.js";

/**
 * pi's theme as pi 1.6 has it without a terminal to ask: ANSI colours from the terminal's own
 * palette (compat/theme.ts), so what an extension renders is the same bytes as under pi. A fresh,
 * ordinary instance per context (as pi's is an ordinary instance): an extension may wrap it in a
 * Proxy or patch a method without reaching another extension.
 */
export function contextTheme(): Theme {
  return new PiTheme();
}

/**
 * A UI context. `bridge` undefined: no client can answer. `dismiss`: aborted when the handler
 * that owns this context is released (an abort), which dismisses its open dialogs. `prompts`:
 * announces the spans in which a dialog waits (ui_prompt_start / ui_prompt_end).
 */
export function createUiContext(bridge: UiBridge | undefined, dismiss?: AbortSignal, prompts?: UiPrompts): ExtensionUIContext {
  let toolsExpanded = false;
  const dialog = <T>(request: Parameters<UiBridge["dialog"]>[0], read: Parameters<UiBridge["dialog"]>[1], fallback: T, options?: ExtensionUIDialogOptions): Promise<T> => {
    if (!bridge) return Promise.resolve(fallback);
    const open = () => bridge.dialog(request, read as never, fallback, options, dismiss) as Promise<T>;
    return prompts ? prompts.wrap(request.method, "title" in request ? request.title : undefined, open) : open();
  };
  const ui: ExtensionUIContext = {
    select: (title, options, opts) => dialog({ method: "select", title: String(title), options: [...options].map(String) }, readSelect(options.map(String)), undefined, opts),
    confirm: (title, message, opts) => dialog({ method: "confirm", title: String(title), message: String(message ?? "") }, readConfirm, false, opts),
    input: (title, placeholder, opts) =>
      dialog({ method: "input", title: String(title), ...(placeholder !== undefined ? { placeholder: String(placeholder) } : {}) }, readText, undefined, opts),
    editor: (title, prefill, opts) => dialog({ method: "editor", title: String(title), ...(prefill !== undefined ? { prefill: String(prefill) } : {}) }, readText, undefined, opts),
    notify: (message, type) => bridge?.notice({ method: "notify", message: String(message), notifyType: type === "warning" || type === "error" ? type : "info" }),
    setStatus: (key, text) => bridge?.notice({ method: "setStatus", statusKey: String(key), ...(text !== undefined ? { statusText: String(text) } : {}) }),
    setWidget: (key, content, options) => {
      // Only string lines cross the protocol; a component factory (TUI) is ignored.
      if (content !== undefined && !Array.isArray(content)) return;
      bridge?.notice({
        method: "setWidget",
        widgetKey: String(key),
        ...(content !== undefined ? { widgetLines: content.map(String) } : {}),
        ...(options?.placement ? { widgetPlacement: options.placement } : {}),
      });
    },
    setTitle: (title) => bridge?.notice({ method: "setTitle", title: String(title) }),
    setEditorText: (text) => bridge?.notice({ method: "set_editor_text", text: text === undefined || text === null ? "" : String(text) }),
    pasteToEditor: (text) => ui.setEditorText(text),
    getEditorText: () => "",
    custom: () => (bridge && prompts ? prompts.wrap("custom", undefined, async () => undefined) : Promise.resolve(undefined)),
    setWorkingMessage: () => {},
    setWorkingVisible: () => {},
    setWorkingIndicator: () => {},
    setHiddenThinkingLabel: () => {},
    setFooter: () => {},
    setHeader: () => {},
    setEditorComponent: () => {},
    getEditorComponent: () => undefined,
    addAutocompleteProvider: () => {},
    onTerminalInput: () => () => {},
    getToolsExpanded: () => toolsExpanded,
    setToolsExpanded: (expanded) => {
      toolsExpanded = expanded === true;
    },
    getChatRenderSettings: () => ({ toolOutputExpanded: toolsExpanded }),
    theme: contextTheme(),
    getAllThemes: () => [],
    getTheme: () => undefined,
    setTheme: () => ({ success: false, error: "Themes are not available in a headless agent (no terminal)" }),
  };
  return ui;
}
