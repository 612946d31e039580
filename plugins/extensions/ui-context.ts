/**
 * `ctx.ui`: over RPC, dialogs and notices go through the UI bridge; without a client that can
 * answer (another transport) dialogs resolve with their defaults at once and notices are dropped.
 * Terminal-only methods behave as pi's RPC mode degrades them (docs/extensions.md) says.
 */
import type { ExtensionUIContext, ExtensionUIDialogOptions, Theme } from "./types/context.js";
import { readConfirm, readSelect, readText, type UiBridge } from "./ui-bridge.js";

const plain = (_style: string, text: string) => text;
const same = (text: string) => text;

/** Styling is for terminals: in a headless agent every style returns the text unchanged. */
export const PLAIN_THEME: Theme = Object.freeze({ fg: plain, bg: plain, bold: same, italic: same, underline: same, strikethrough: same, inverse: same, dim: same });

/**
 * A UI context. `bridge` undefined: no client can answer. `dismiss`: aborted when the handler
 * that owns this context is released (an abort), which dismisses its open dialogs.
 */
export function createUiContext(bridge: UiBridge | undefined, dismiss?: AbortSignal): ExtensionUIContext {
  let toolsExpanded = false;
  const dialog = <T>(request: Parameters<UiBridge["dialog"]>[0], read: Parameters<UiBridge["dialog"]>[1], fallback: T, options?: ExtensionUIDialogOptions): Promise<T> =>
    bridge ? (bridge.dialog(request, read as never, fallback, options, dismiss) as Promise<T>) : Promise.resolve(fallback);
  const ui: ExtensionUIContext = {
    select: (title, options, opts) => dialog({ method: "select", title: String(title), options: [...options].map(String) }, readSelect(options.map(String)), undefined, opts),
    confirm: (title, message, opts) => dialog({ method: "confirm", title: String(title), message: String(message ?? "") }, readConfirm, false, opts),
    input: (title, placeholder, opts) => dialog({ method: "input", title: String(title), ...(placeholder !== undefined ? { placeholder: String(placeholder) } : {}) }, readText, undefined, opts),
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
    custom: async () => undefined,
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
    theme: PLAIN_THEME,
    getAllThemes: () => [],
    getTheme: () => undefined,
    setTheme: () => ({ success: false, error: "Themes are not available in a headless agent (no terminal)" }),
  };
  return ui;
}
