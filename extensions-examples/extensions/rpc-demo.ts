/**
 * Example extension: every method of the extension UI sub-protocol, one command each, for a
 * client author to test against. Dialogs (select, confirm, input, editor) are an
 * `extension_ui_request` that waits for the matching `extension_ui_response`; the others are
 * fire-and-forget. Every dialog's outcome is echoed with `notify`.
 *
 *   /ui-select   select (with a 60 s timeout)   /ui-confirm  confirm
 *   /ui-input    input                           /ui-editor   editor (prefilled)
 *   /ui-prefill  set_editor_text                 /ui-clear    setWidget + setStatus cleared
 *   session start: setTitle, setWidget, setStatus; each turn: setStatus
 *
 * Install: `atomic --mode rpc -e ./rpc-demo.ts` and answer the requests from your client.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";

export default function rpcDemo(pi: ExtensionAPI) {
  let turns = 0;
  const report = (ctx: ExtensionContext, what: string, value: unknown) => ctx.ui.notify(`${what}: ${value === undefined ? "(cancelled)" : JSON.stringify(value)}`, "info");

  pi.on("session_start", (_event, ctx) => {
    ctx.ui.setTitle("atomic - rpc demo");
    ctx.ui.setWidget("rpc-demo", ["RPC demo loaded", "Try /ui-select"], { placement: "belowEditor" });
    ctx.ui.setStatus("rpc-demo", "ready");
  });
  pi.on("turn_start", (_event, ctx) => ctx.ui.setStatus("rpc-demo", `turn ${++turns} running`));
  pi.on("turn_end", (_event, ctx) => ctx.ui.setStatus("rpc-demo", `turn ${turns} done`));

  pi.registerCommand("ui-select", {
    description: "Pick a color (select, 60 s timeout)",
    handler: async (_args, ctx) => report(ctx, "select", await ctx.ui.select("Pick a color", ["red", "green", "blue"], { timeout: 60_000 })),
  });
  pi.registerCommand("ui-confirm", {
    description: "Yes or no (confirm)",
    handler: async (_args, ctx) => report(ctx, "confirm", await ctx.ui.confirm("Proceed?", "Nothing happens either way.")),
  });
  pi.registerCommand("ui-input", {
    description: "Type a line (input)",
    handler: async (_args, ctx) => report(ctx, "input", await ctx.ui.input("Your name", "Ada")),
  });
  pi.registerCommand("ui-editor", {
    description: "Edit some lines (editor)",
    handler: async (_args, ctx) => report(ctx, "editor", await ctx.ui.editor("Edit the list", "one\ntwo\nthree")),
  });
  pi.registerCommand("ui-prefill", {
    description: "Put text in the client's input editor (set_editor_text)",
    handler: async (args, ctx) => ctx.ui.setEditorText(args || "Prefilled by rpc-demo"),
  });
  pi.registerCommand("ui-clear", {
    description: "Clear the widget and the status",
    handler: async (_args, ctx) => {
      ctx.ui.setWidget("rpc-demo", undefined);
      ctx.ui.setStatus("rpc-demo", undefined);
    },
  });
}
