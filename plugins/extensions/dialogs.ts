/**
 * The one UI bridge of a host, made when the plugin applies (not only when an extension loads):
 * extensions' `ctx.ui` and other plugins (the sandbox's escalation) ask the client through it, so
 * every dialog takes the same path to the client (RPC's extension_ui_request, ACP's
 * session/request_permission, every controller of a server). Without a transport whose client
 * answers dialogs (print and json modes) there is no bridge and nothing can be asked.
 */
import type { PluginContext } from "../../kernel/index.js";
import type { DialogsApi } from "./api.js";
import { readConfirm, UiBridge } from "./ui-bridge.js";

/** Transports whose client can answer a dialog. */
const DIALOG_MODES: ReadonlySet<string> = new Set(["rpc", "acp"]);

export function createBridge(k: PluginContext): UiBridge | undefined {
  const mode = k.config.cli.mode || k.config.settings.mode || "rpc";
  if (!DIALOG_MODES.has(mode)) return undefined;
  const bridge = new UiBridge((request) => k.events.emit("extension_ui_request", request), k.log);
  k.hooks.ui_response.tap(k.name, (reply) => bridge.answer(reply));
  k.hooks.closing.tap(k.name, () => bridge.cancelAll());
  return bridge;
}

export function dialogsApi(bridge: UiBridge | undefined): DialogsApi {
  return {
    available: bridge !== undefined,
    confirm: (title, message, options = {}) => (bridge ? bridge.dialog({ method: "confirm", title, message }, readConfirm, false, options) : Promise.resolve(false)),
  };
}
