/**
 * Pure helpers `@mariozechner/pi-coding-agent` exports and pi extensions use: `defineTool`, the
 * event type guards, conversation serialisation for one-off LLM calls, and the TUI component
 * classes (which exist so an extension that subclasses them loads; they cannot be built headless).
 */
import type { LlmMessage } from "../../../lib/llm/index.js";
import type { ToolDefinition, ToolParametersSchema } from "../types/api.js";
import type { ToolCallEvent, ToolResultEvent } from "../types/events.js";

/** Keeps a standalone tool's parameter types (identity at run time). */
export function defineTool<S extends ToolParametersSchema, TDetails = unknown>(tool: ToolDefinition<S, TDetails>): ToolDefinition<S, TDetails> {
  return tool;
}

/** Narrows a tool_call event by tool name: `if (isToolCallEventType("bash", event)) event.input.command`. */
export function isToolCallEventType<TInput extends Record<string, unknown> = Record<string, unknown>>(toolName: string, event: ToolCallEvent): event is ToolCallEvent<TInput> {
  return event.toolName === toolName;
}

const resultOf = (name: string) => (event: ToolResultEvent) => event.toolName === name;
export const isBashToolResult = resultOf("bash");
export const isReadToolResult = resultOf("read");
export const isEditToolResult = resultOf("edit");
export const isWriteToolResult = resultOf("write");
export const isGrepToolResult = resultOf("grep");
export const isFindToolResult = resultOf("find");
export const isLsToolResult = resultOf("ls");
export const isPowerShellToolResult = resultOf("powershell");

/** Key hints name the terminal's keybindings; a headless agent has none, so they are empty (the description alone for `keyHint`). */
export const keyText = (_keybinding: string): string => "";
export const keyHint = (_keybinding: string, description: string): string => String(description ?? "");
export const rawKeyHint = (_key: string, description: string): string => String(description ?? "");

/**
 * A conversation as plain text for a one-off LLM call (a summary, a handoff): one block per
 * message, `[User]`, `[Assistant]`, `[Tool call]` and `[Tool result]` labels.
 */
export function serializeConversation(messages: readonly LlmMessage[]): string {
  const blocks: string[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const text = typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
      blocks.push(`[User]: ${text}`);
    } else if (message.role === "assistant") {
      for (const part of message.content) {
        if (part.type === "text" && part.text.trim() !== "") blocks.push(`[Assistant]: ${part.text}`);
        else if (part.type === "thinking" && part.thinking.trim() !== "") blocks.push(`[Assistant thinking]: ${part.thinking}`);
        else if (part.type === "toolCall") blocks.push(`[Tool call]: ${part.name}(${JSON.stringify(part.arguments)})`);
      }
    } else {
      const text = message.content.map((part) => (part.type === "text" ? part.text : "[image]")).join("\n");
      blocks.push(`[Tool result${message.isError ? " (error)" : ""}] ${message.toolName}: ${text}`);
    }
  }
  return blocks.join("\n\n");
}

/**
 * Base of pi's terminal UI components. A headless agent has no terminal: `ctx.ui.custom()` and
 * `setEditorComponent()` never call their factories, so these classes are never built; they
 * exist so that an extension which subclasses one at load time still loads.
 */
class TerminalComponent {
  constructor(..._args: unknown[]) {
    throw new Error(`${new.target.name}: terminal UI components are not available in Atomic (a headless agent); guard TUI code with ctx.mode === "tui"`);
  }
}

export class CustomEditor extends TerminalComponent {}
export class BorderedLoader extends TerminalComponent {}
export class DynamicBorder extends TerminalComponent {}

// pi's interactive-mode components: the same guard (headless, never built).
export class ArminComponent extends TerminalComponent {}
export class AssistantMessageComponent extends TerminalComponent {}
export class BashExecutionComponent extends TerminalComponent {}
export class BranchSummaryMessageComponent extends TerminalComponent {}
export class CompactionSummaryMessageComponent extends TerminalComponent {}
export class CustomMessageComponent extends TerminalComponent {}
export class ExtensionEditorComponent extends TerminalComponent {}
export class ExtensionInputComponent extends TerminalComponent {}
export class ExtensionSelectorComponent extends TerminalComponent {}
export class FooterComponent extends TerminalComponent {}
export class LoginDialogComponent extends TerminalComponent {}
export class ModelSelectorComponent extends TerminalComponent {}
export class OAuthSelectorComponent extends TerminalComponent {}
export class SessionSelectorComponent extends TerminalComponent {}
export class SettingsSelectorComponent extends TerminalComponent {}
export class ShowImagesSelectorComponent extends TerminalComponent {}
export class SkillInvocationMessageComponent extends TerminalComponent {}
export class ThemeSelectorComponent extends TerminalComponent {}
export class ThinkingSelectorComponent extends TerminalComponent {}
export class ToolExecutionComponent extends TerminalComponent {}
export class TreeSelectorComponent extends TerminalComponent {}
export class UserMessageComponent extends TerminalComponent {}
export class UserMessageSelectorComponent extends TerminalComponent {}
/** pi's full-screen terminal UI. */
export class InteractiveMode extends TerminalComponent {}

/** pi copies through the terminal (OSC 52) and the desktop's clipboard tools; a headless agent has neither. */
export async function copyToClipboard(_text: string): Promise<void> {
  throw new Error("copyToClipboard: there is no terminal or desktop clipboard in Atomic (a headless agent); return the text to the client instead");
}
