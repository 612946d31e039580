/**
 * Atomic's records as ACP `session/update` payloads, pure: streamed text and thinking become
 * message and thought chunks; a tool call becomes `tool_call` (with a kind and a title a human
 * reads) once its arguments are known, then `tool_call_update`s with status and output; stored
 * messages replay as the same updates when a session is loaded; an assistant message's stop
 * reason becomes ACP's.
 */
import { isAbsolute, resolve } from "node:path";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../../lib/llm/index.js";
import type { OutEvent } from "../../kernel/index.js";

/** The `update` of a `session/update` notification (the subset Atomic sends). */
export type Update =
  | { sessionUpdate: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk"; content: ContentBlock }
  | ({ sessionUpdate: "tool_call" } & ToolCallFields & { title: string })
  | ({ sessionUpdate: "tool_call_update" } & ToolCallFields);

type ContentBlock = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export type ToolKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "other";
export type ToolStatus = "pending" | "in_progress" | "completed" | "failed";

export interface ToolCallFields {
  toolCallId: string;
  title?: string;
  kind?: ToolKind;
  status?: ToolStatus;
  content?: { type: "content"; content: ContentBlock }[];
  locations?: { path: string; line?: number }[];
  rawInput?: unknown;
  rawOutput?: unknown;
}

const KINDS: Record<string, ToolKind> = { read: "read", write: "edit", edit: "edit", bash: "execute", grep: "search", find: "search", ls: "search" };

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? "other";
}

const clip = (text: string, max = 80) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** What an editor shows for a call: `Read src/a.ts`, `Run npm test`, `Search "TODO" in src`. */
export function toolTitle(name: string, args: unknown): string {
  const a = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  const str = (key: string) => (typeof a[key] === "string" ? (a[key] as string) : undefined);
  switch (name) {
    case "read":
      return `Read ${str("path") ?? "a file"}`;
    case "write":
      return `Write ${str("path") ?? "a file"}`;
    case "edit":
      return `Edit ${str("path") ?? "a file"}`;
    case "bash":
      return `Run ${clip(str("command")?.split("\n")[0] ?? "a command")}`;
    case "grep":
      return `Search ${JSON.stringify(clip(str("pattern") ?? "", 40))}${str("path") ? ` in ${str("path")}` : ""}`;
    case "find":
      return `Find ${str("pattern") ?? "files"}${str("path") ? ` in ${str("path")}` : ""}`;
    case "ls":
      return `List ${str("path") ?? "."}`;
    default:
      return name;
  }
}

/** Files a call touches, absolute (ACP wants absolute paths), so an editor can follow along. */
export function toolLocations(name: string, args: unknown, cwd: string): { path: string }[] | undefined {
  const path = (args as { path?: unknown } | null)?.path;
  if (!["read", "write", "edit", "ls"].includes(name) || typeof path !== "string" || path === "") return undefined;
  return [{ path: isAbsolute(path) ? path : resolve(cwd, path) }];
}

export function toolCallUpdate(id: string, name: string, args: unknown, cwd: string): Update {
  const locations = toolLocations(name, args, cwd);
  return { sessionUpdate: "tool_call", toolCallId: id, title: toolTitle(name, args), kind: toolKind(name), status: "pending", rawInput: args, ...(locations ? { locations } : {}) };
}

function outputContent(result: { content: readonly ContentBlock[] } | undefined): { type: "content"; content: ContentBlock }[] {
  return (result?.content ?? []).map((block) => ({
    type: "content" as const,
    content: block.type === "text" ? { type: "text" as const, text: block.text } : { type: "image" as const, data: block.data, mimeType: block.mimeType },
  }));
}

/** The updates one live event makes (none for most). */
export function updatesOf(event: OutEvent, cwd: string): Update[] {
  switch (event.type) {
    case "message_update": {
      const e = event.assistantMessageEvent;
      if (e.type === "text_delta" && e.delta) return [{ sessionUpdate: "agent_message_chunk", content: { type: "text", text: e.delta } }];
      if (e.type === "thinking_delta" && e.delta) return [{ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: e.delta } }];
      if (e.type === "toolcall_end") return [toolCallUpdate(e.toolCall.id, e.toolCall.name, e.toolCall.arguments, cwd)];
      return [];
    }
    case "tool_execution_start":
      return [{ sessionUpdate: "tool_call_update", toolCallId: event.toolCallId, status: "in_progress" }];
    case "tool_execution_update":
      return [{ sessionUpdate: "tool_call_update", toolCallId: event.toolCallId, content: outputContent(event.partialResult) }];
    case "tool_execution_end":
      return [
        {
          sessionUpdate: "tool_call_update",
          toolCallId: event.toolCallId,
          status: event.isError ? "failed" : "completed",
          content: outputContent(event.result),
          ...(event.result.details !== undefined ? { rawOutput: event.result.details } : {}),
        },
      ];
    default:
      return [];
  }
}

/** A stored conversation as the updates that rebuild it in an editor (`session/load`). */
export function historyUpdates(messages: readonly AgentMessage[], cwd: string): Update[] {
  const updates: Update[] = [];
  for (const message of messages) {
    if (message.role === "user") {
      const blocks = typeof message.content === "string" ? [{ type: "text" as const, text: message.content }] : message.content;
      for (const block of blocks) updates.push({ sessionUpdate: "user_message_chunk", content: block });
    } else if (message.role === "assistant") {
      for (const block of message.content) {
        if (block.type === "text" && block.text) updates.push({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: block.text } });
        else if (block.type === "thinking" && block.thinking) updates.push({ sessionUpdate: "agent_thought_chunk", content: { type: "text", text: block.thinking } });
        else if (block.type === "toolCall") updates.push(toolCallUpdate(block.id, block.name, block.arguments, cwd));
      }
    } else if (message.role === "toolResult") {
      const result = message as ToolResultMessage;
      updates.push({ sessionUpdate: "tool_call_update", toolCallId: result.toolCallId, status: result.isError ? "failed" : "completed", content: outputContent(result) });
    }
  }
  return updates;
}

export type StopReason = "end_turn" | "max_tokens" | "cancelled" | "refusal";

/** A provider's way of saying it would not answer (Anthropic's `refusal`, OpenAI's `content_filter`). */
const REFUSAL = /\brefus(?:al|ed)\b|content_filter|\bsafety\b/i;

/** ACP's stop reason for a turn's last assistant message, or the failure to report as a JSON-RPC error. */
export function stopReasonOf(message: AssistantMessage | undefined): { stopReason: StopReason } | { error: string } {
  switch (message?.stopReason) {
    case undefined:
    case "stop":
    case "toolUse":
      return { stopReason: "end_turn" };
    case "length":
      return { stopReason: "max_tokens" };
    case "aborted":
      return { stopReason: "cancelled" };
    case "error": {
      const text = message.errorMessage ?? "The request failed";
      return REFUSAL.test(text) ? { stopReason: "refusal" } : { error: text };
    }
  }
}
