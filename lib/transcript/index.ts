/**
 * Conversation messages as a plain-text transcript ("[User]: ...", "[Assistant]: ..."): the
 * lines the verbatim-line compactor numbers for its planner, and the kept tail a compaction
 * boundary shows the model. Pure; one grammar for both, so a compacted text and a later
 * re-compaction of it read the same.
 */
import type { AgentMessage, AssistantMessage, BashExecutionMessage, ImageContent, TextContent } from "../llm/index.js";

/**
 * `compacted`: what the planner sees (long tool output cut, images as an `[image]` line).
 * `retained`: the kept tail, byte for byte (images also collected as blocks for the model).
 */
export type RenderMode = "compacted" | "retained";

/** A longer text chunk of a tool result is cut in compacted mode (the tail keeps it whole). */
export const TOOL_RESULT_CHAR_LIMIT = 16_000;
export const IMAGE_LINE = "[image]";

/** How a user shell command and its output read to the model. */
export function bashExecutionToText(message: BashExecutionMessage): string {
  let text = `Ran \`${message.command}\`\n`;
  text += message.output ? `\`\`\`\n${message.output.replace(/\n$/, "")}\n\`\`\`` : "(no output)";
  if (message.cancelled) text += "\n\n(command cancelled)";
  else if (message.exitCode !== undefined && message.exitCode !== 0) text += `\n\nCommand exited with code ${message.exitCode}`;
  if (message.truncated && message.fullOutputPath) text += `\n\n[Output truncated. Full output: ${message.fullOutputPath}]`;
  return text;
}

/**
 * The transcript sections of one message, in order; none when the model never sees it (a failed
 * or aborted assistant turn, an excluded or blank message). In retained mode the message's
 * images are pushed to `images`.
 *
 * @example
 * messageSections({ role: "user", content: "fix it", timestamp: 0 }, "compacted"); // ["[User]: fix it"]
 */
export function messageSections(message: AgentMessage, mode: RenderMode, images?: ImageContent[]): string[] {
  switch (message.role) {
    case "user":
      return section("[User]: ", contentText(message.content, mode, false, images));
    case "custom":
      if (message.excludeFromContext) return [];
      return section("[User]: ", contentText(message.content, mode, false, images));
    case "bashExecution":
      return message.excludeFromContext ? [] : section("[User]: ", bashExecutionToText(message));
    case "toolResult":
      // Even an empty result is shown: the model saw its call answered.
      return [`[Tool result]: ${contentText(message.content, mode, true, images)}`];
    case "assistant":
      return assistantSections(message);
    default:
      return [];
  }
}

/** All sections of `messages`, joined with a blank line between sections. */
export function renderTranscript(messages: readonly AgentMessage[], mode: RenderMode, images?: ImageContent[]): string {
  const sections: string[] = [];
  for (const message of messages) for (const part of messageSections(message, mode, images)) sections.push(part);
  return sections.join("\n\n");
}

/** Whether the model sees anything of `message` (it renders at least one section). */
export function isContextVisible(message: AgentMessage): boolean {
  return messageSections(message, "compacted").length > 0;
}

function section(header: string, body: string): string[] {
  return body.trim() === "" ? [] : [header + body];
}

function assistantSections(message: AssistantMessage): string[] {
  if (message.stopReason === "error" || message.stopReason === "aborted") return [];
  const thinking: string[] = [];
  const text: string[] = [];
  const calls: string[] = [];
  for (const block of message.content ?? []) {
    if (block.type === "thinking") {
      if (!block.redacted && block.thinking.trim() !== "") thinking.push(block.thinking);
    } else if (block.type === "text") {
      if (block.text.trim() !== "") text.push(block.text);
    } else if (block.type === "toolCall") {
      calls.push(toolCallText(block.name, block.arguments));
    }
  }
  const out: string[] = [];
  if (thinking.length > 0) out.push(`[Assistant thinking]: ${thinking.join("\n")}`);
  if (text.length > 0) out.push(`[Assistant]: ${text.join("\n")}`);
  if (calls.length > 0) out.push(`[Assistant tool calls]: ${calls.join("; ")}`);
  return out;
}

/** `read(path="a.ts", limit=20)`: each argument as key=JSON value. */
function toolCallText(name: string, args: Record<string, unknown> | undefined): string {
  const parts = Object.entries(args ?? {}).map(([key, value]) => `${key}=${JSON.stringify(value) ?? "null"}`);
  return `${name}(${parts.join(", ")})`;
}

/**
 * Text blocks concatenated as they are; an image becomes its own `[image]` line. One trailing
 * newline is dropped (the section separator supplies the break).
 */
function contentText(content: string | readonly (TextContent | ImageContent)[], mode: RenderMode, toolResult: boolean, images?: ImageContent[]): string {
  if (typeof content === "string") return dropTrailingNewline(chunk(content, mode, toolResult));
  let text = "";
  for (const block of content) {
    if (block.type === "text") {
      text += chunk(block.text, mode, toolResult);
    } else if (block.type === "image") {
      if (text !== "" && !text.endsWith("\n")) text += "\n";
      text += `${IMAGE_LINE}\n`;
      if (mode === "retained") images?.push(block);
    }
  }
  return dropTrailingNewline(text);
}

function chunk(text: string, mode: RenderMode, toolResult: boolean): string {
  if (mode !== "compacted" || !toolResult || text.length <= TOOL_RESULT_CHAR_LIMIT) return text;
  return `${text.slice(0, TOOL_RESULT_CHAR_LIMIT)}\n\n[... ${text.length - TOOL_RESULT_CHAR_LIMIT} more characters truncated]`;
}

function dropTrailingNewline(text: string): string {
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}
