/**
 * The events the extensions plugin adds to the protocol: `extension_ui_request` (every method of
 * the extension UI sub-protocol, docs/protocol-guide.md), `extension_ui_resolved` (a dialog that
 * ended without a reply) and `extension_error`.
 */
import { z } from "zod";

const id = () => z.string().meta({ description: "Unique per request; a dialog's extension_ui_response carries it back." });
const timeout = () =>
  z.number().optional().meta({ description: "Milliseconds; the agent resolves the dialog with its default by itself when it passes (later replies are ignored)." });

const dialog = <M extends string, S extends z.ZodRawShape>(method: M, description: string, shape: S, example: Record<string, unknown>) =>
  z
    .object({ id: id(), method: z.literal(method), ...shape, timeout: timeout() })
    .meta({ description: `Dialog (waits for an extension_ui_response): ${description}`, examples: [{ id: "ui-1", method, ...example }] });
const notice = <M extends string, S extends z.ZodRawShape>(method: M, description: string, shape: S, example: Record<string, unknown>) =>
  z
    .object({ id: id(), method: z.literal(method), ...shape })
    .meta({ description: `Fire-and-forget (no reply expected): ${description}`, examples: [{ id: "ui-2", method, ...example }] });
const title = () => z.string().describe("What the dialog asks.");

/** The requests, fields in the protocol's order; one `method` each. */
export const ExtensionUiRequestSchema = () =>
  z
    .discriminatedUnion("method", [
      dialog(
        "select",
        "choose one of `options`; reply `value` (one of them) or `cancelled: true`.",
        { title: title(), options: z.array(z.string()).describe("The choices, in order.") },
        { title: "Allow this command?", options: ["Allow", "Block"], timeout: 10000 },
      ),
      dialog(
        "confirm",
        "yes or no; reply `confirmed: true/false` or `cancelled: true`.",
        { title: title(), message: z.string().describe("More detail under the title.") },
        { title: "Clear the session?", message: "All messages will be lost." },
      ),
      dialog(
        "input",
        "one line of text; reply `value` or `cancelled: true`.",
        { title: title(), placeholder: z.string().optional().describe("A hint shown in the empty field.") },
        { title: "Branch name", placeholder: "feature/..." },
      ),
      dialog(
        "editor",
        "multi-line text, optionally prefilled; reply `value` or `cancelled: true`.",
        { title: title(), prefill: z.string().optional().describe("The text the editor starts with.") },
        { title: "Edit the commit message", prefill: "Fix the parser\n\nDetails..." },
      ),
      notice(
        "notify",
        "show a notification.",
        { message: z.string().describe("The notification."), notifyType: z.enum(["info", "warning", "error"]).describe("How prominent it is.") },
        { message: "Formatted 3 files", notifyType: "info" },
      ),
      notice(
        "setStatus",
        "set (or, without `statusText`, clear) the status entry `statusKey`.",
        { statusKey: z.string().describe("Which status entry (an extension may keep several)."), statusText: z.string().optional().describe("Its text; absent: remove it.") },
        { statusKey: "lint", statusText: "lint: 2 warnings" },
      ),
      notice(
        "setWidget",
        "set (or, without `widgetLines`, clear) the block of lines `widgetKey`.",
        {
          widgetKey: z.string().describe("Which block (an extension may keep several)."),
          widgetLines: z.array(z.string()).optional().describe("Its lines; absent: remove it."),
          widgetPlacement: z.enum(["aboveEditor", "belowEditor"]).optional().meta({ description: 'Default "aboveEditor".' }),
        },
        { widgetKey: "todo", widgetLines: ["[x] parser", "[ ] docs"] },
      ),
      notice("setTitle", "set the window or tab title.", { title: z.string().describe("The title.") }, { title: "atomic: parser refactor" }),
      notice("set_editor_text", "put text in the client's input editor.", { text: z.string().describe("The text.") }, { text: "/review src/parser.ts" }),
    ])
    .meta({ description: "An extension asks the client for a dialog (select, confirm, input, editor) or shows something (the other methods)." });

export type UiRequest = z.output<ReturnType<typeof ExtensionUiRequestSchema>>;

/** A plugin's or extension's handler threw (the kernel's `plugin_error`, turned outward). */
export const ExtensionErrorSchema = () =>
  z
    .object({
      extensionPath: z.string().meta({ description: "The extension's path, or the plugin's name." }),
      event: z.string().describe("The event or hook whose handler threw."),
      error: z.string().describe("The error's message."),
    })
    .meta({
      description: "A plugin's or extension's handler threw; the agent kept running.",
      examples: [{ extensionPath: "/home/ada/.atomic/agent/extensions/guard.ts", event: "tool_call", error: "Cannot read properties of undefined (reading 'command')" }],
    });

/** A dialog ended without a reply: a client still showing it can close it. */
export const ExtensionUiResolvedSchema = () =>
  z
    .object({
      id: z.string().meta({ description: "The dialog's `extension_ui_request` id." }),
      reason: z.enum(["answered", "timeout", "aborted"]).meta({
        description:
          '"timeout": its `timeout` passed (resolved with its default); "aborted": the run or the agent that waited for it stopped; "answered": another client answered it first (`atomic serve` only).',
      }),
    })
    .meta({
      description:
        "A dialog is gone: a reply to it is now ignored. The agent writes it when a dialog times out or is aborted; `atomic serve` also writes it to the clients that did not answer.",
      examples: [{ id: "ui-1", reason: "timeout" }],
    });

declare module "../../kernel/events.js" {
  interface EventMap {
    extension_ui_resolved: z.output<ReturnType<typeof ExtensionUiResolvedSchema>>;
    extension_ui_request: UiRequest;
    extension_error: z.output<ReturnType<typeof ExtensionErrorSchema>>;
  }
}
