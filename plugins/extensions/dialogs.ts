/**
 * The one UI bridge of a host, made when the plugin applies (not only when an extension loads):
 * extensions' `ctx.ui` and other plugins (the sandbox's escalation) ask the client through it, so
 * every dialog takes the same path to the client (RPC's extension_ui_request, ACP's
 * session/request_permission, every controller of a server), and its end without an answer
 * (timeout, dismissed) is announced as extension_ui_resolved. Whether anything can be asked is a
 * capability, not a mode name: `k.config.dialogs`, what the serving transport declares (or what
 * the opener of a sibling says), set once every plugin applied. Without it (print and json
 * modes) nothing is asked and dialogs resolve with their defaults.
 */
import type { PluginContext } from "../../kernel/index.js";
import type { DialogsApi } from "./api.js";
import { readConfirm, UiBridge } from "./ui-bridge.js";

export function createBridge(k: PluginContext): UiBridge {
  const bridge = new UiBridge(
    (request) => k.events.emit("extension_ui_request", request),
    k.log,
    (id, reason) => k.events.emit("extension_ui_resolved", { id, reason }),
  );
  k.hooks.ui_response.tap(k.name, (reply) => bridge.answer(reply));
  k.hooks.closing.tap(k.name, () => bridge.cancelAll());
  return bridge;
}

/** The bridge when this host's client answers dialogs (known from boot on), else undefined. */
export function bridgeIfAnswered(k: PluginContext, bridge: UiBridge): UiBridge | undefined {
  return k.config.dialogs === true ? bridge : undefined;
}

export function dialogsApi(k: PluginContext, bridge: UiBridge): DialogsApi {
  return {
    get available() {
      return k.config.dialogs === true;
    },
    confirm: (title, message, options = {}) =>
      k.config.dialogs === true ? bridge.dialog({ method: "confirm", title, message }, readConfirm, false, options) : Promise.resolve(false),
    notify(message, type = "info") {
      if (k.config.dialogs === true) bridge.notice({ method: "notify", message, notifyType: type });
      else k.log[type === "info" ? "info" : type === "warning" ? "warn" : "error"](message);
    },
  };
}
