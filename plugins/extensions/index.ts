/**
 * Plugin `extensions`: user extensions with pi's extension API. It finds extension files (`-e`,
 * the `extensions` setting, `<agent dir>/extensions/`, and `.atomic/extensions/` for a trusted
 * project), loads them with jiti at boot, and gives each a `pi` object that is an adapter over
 * the kernel: events are hook taps, tools go through an open layer, commands through the
 * slash-command registry, dialogs through the extension UI sub-protocol.
 */
import { z } from "zod";
import { definePlugin, defineSetting } from "../../kernel/index.js";
import type {} from "../slash-commands/api.js";
import type { ExtensionsApi } from "./api.js";
import { bootExtensions } from "./boot.js";
import { bridgeIfAnswered, createBridge, dialogsApi } from "./dialogs.js";
import { ExtensionErrorSchema, ExtensionUiRequestSchema, ExtensionUiResolvedSchema } from "./events.js";
import { extensionsHookDeclarations } from "./hooks.js";
import type { ExtensionHost } from "./host.js";
import { uiReplyCommand } from "./ui-reply.js";

export type * from "./api.js";

export default definePlugin({
  name: "extensions",
  description: "User extensions (pi's extension API), loaded from -e paths, settings, ~/.atomic/agent/extensions and trusted projects.",
  dependsOn: ["slash-commands"],
  requires: ["agent", "models", "slashCommands"],
  after: ["session"],
  provides: ["extensions", "dialogs"],
  settings: {
    extensions: defineSetting(() => z.array(z.string()), {
      scope: "user",
      description: "Extra extension files or folders to load (user settings only), relative to the agent dir.",
    }),
    extensionLoadTimeout: defineSetting(() => z.number().positive(), {
      description:
        "Seconds one extension may take to import and run its factory before it is reported as hung and skipped (default 600). A slow load is never cut short before that: it only prints progress on stderr.",
    }),
  },
  flags: [
    {
      name: "--extension",
      alias: "-e",
      key: "extension",
      value: "<path>",
      repeatable: true,
      description: "Load this extension file or folder (repeatable; also with --no-extensions).",
    },
    { name: "--no-extensions", key: "noExtensions", description: "Do not discover extensions (settings, agent dir, project); -e paths still load." },
  ],
  hooks: extensionsHookDeclarations,
  apply(k) {
    let host: ExtensionHost | undefined;
    const api: ExtensionsApi = {
      list: () =>
        (host?.records ?? []).map((record) => ({
          path: record.path,
          scope: record.scope,
          loaded: record.loaded,
          ...(record.error !== undefined ? { error: record.error } : {}),
          events: [...record.events],
          commands: [...record.commands.keys()],
          tools: [...record.tools],
          flags: [...record.flags.keys()],
          shortcuts: [...record.shortcuts],
          providers: [...record.providers],
          modules: [...record.served].sort(),
          loadMs: Math.round(record.loadMs * 10) / 10,
        })),
    };
    k.provide("extensions", api);
    k.registerEvent("extension_ui_request", ExtensionUiRequestSchema);
    k.registerEvent("extension_ui_resolved", ExtensionUiResolvedSchema);
    k.registerEvent("extension_error", ExtensionErrorSchema);
    // Every isolated failure (a plugin's or an extension's tap) reaches the client as extension_error.
    k.hooks.plugin_error.tap(k.name, ({ source, hook, error }) => k.events.emit("extension_error", { extensionPath: source, event: hook, error }));
    const owned = k.ownHooks(extensionsHookDeclarations);
    k.registerCommand(uiReplyCommand(owned, k.log));
    const bridge = createBridge(k);
    k.provide("dialogs", dialogsApi(k, bridge));
    // The load phase: after every plugin applied (built-in tools exist to override), before the
    // startup model is chosen (configure) and session_start (start).
    k.hooks.boot_load.tapPromise(k.name, async () => {
      host = await bootExtensions(k, owned, bridgeIfAnswered(k, bridge));
    });
  },
});
