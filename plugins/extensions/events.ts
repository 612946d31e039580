/**
 * The events the extensions plugin adds to the protocol: `extension_ui_request` (every method of
 * the extension UI sub-protocol, docs/protocol-guide.md) and `extension_error`.
 */
import { z } from "zod";

const id = () => z.string().meta({ description: "Unique per request; a dialog's extension_ui_response carries it back." });
const timeout = () => z.number().optional().meta({ description: "Milliseconds; the agent resolves the dialog with its default by itself when it passes (later replies are ignored)." });

const dialog = <M extends string, S extends z.ZodRawShape>(method: M, description: string, shape: S) =>
  z.object({ id: id(), method: z.literal(method), ...shape, timeout: timeout() }).meta({ description: `Dialog (waits for an extension_ui_response): ${description}` });
const notice = <M extends string, S extends z.ZodRawShape>(method: M, description: string, shape: S) =>
  z.object({ id: id(), method: z.literal(method), ...shape }).meta({ description: `Fire-and-forget (no reply expected): ${description}` });

/** The requests, fields in the protocol's order; one `method` each. */
export const ExtensionUiRequestSchema = () =>
  z
    .discriminatedUnion("method", [
      dialog("select", "choose one of `options`; reply `value` (one of them) or `cancelled: true`.", { title: z.string(), options: z.array(z.string()) }),
      dialog("confirm", "yes or no; reply `confirmed: true/false` or `cancelled: true`.", { title: z.string(), message: z.string() }),
      dialog("input", "one line of text; reply `value` or `cancelled: true`.", { title: z.string(), placeholder: z.string().optional() }),
      dialog("editor", "multi-line text, optionally prefilled; reply `value` or `cancelled: true`.", { title: z.string(), prefill: z.string().optional() }),
      notice("notify", "show a notification.", { message: z.string(), notifyType: z.enum(["info", "warning", "error"]) }),
      notice("setStatus", "set (or, without `statusText`, clear) the status entry `statusKey`.", { statusKey: z.string(), statusText: z.string().optional() }),
      notice("setWidget", "set (or, without `widgetLines`, clear) the block of lines `widgetKey`.", {
        widgetKey: z.string(),
        widgetLines: z.array(z.string()).optional(),
        widgetPlacement: z.enum(["aboveEditor", "belowEditor"]).optional().meta({ description: 'Default "aboveEditor".' }),
      }),
      notice("setTitle", "set the window or tab title.", { title: z.string() }),
      notice("set_editor_text", "put text in the client's input editor.", { text: z.string() }),
    ])
    .meta({ description: "An extension asks the client for a dialog (select, confirm, input, editor) or shows something (the other methods)." });

export type UiRequest = z.output<ReturnType<typeof ExtensionUiRequestSchema>>;

/** A plugin's or extension's handler threw (the kernel's `plugin_error`, turned outward). */
export const ExtensionErrorSchema = () =>
  z
    .object({ extensionPath: z.string().meta({ description: "The extension's path, or the plugin's name." }), event: z.string(), error: z.string() })
    .meta({ description: "A plugin's or extension's handler threw; the agent kept running." });

declare module "../../kernel/events.js" {
  interface EventMap {
    extension_ui_request: UiRequest;
    extension_error: z.output<ReturnType<typeof ExtensionErrorSchema>>;
  }
}
