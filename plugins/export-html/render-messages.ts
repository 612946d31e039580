/**
 * HTML for the entries of the exported branch. Every piece of session content goes through
 * `escapeHtml`, the safe markdown renderer or highlight.js (which escapes) — never raw.
 */
import type { AgentMessage, AssistantMessage, BashExecutionMessage, ImageContent, TextContent, ToolCall, ToolResultMessage } from "../../lib/llm/index.js";
import type { SessionEntry } from "../session/api.js";
import { escapeHtml, highlightJson } from "./escape.js";

export type Markdown = (text: string) => string;

/** What rendering one entry needs to know about the others; shared by all slices of a branch. */
export interface RenderState {
  /** Results by tool call id, so each call is shown with its result. */
  results: Map<string, ToolResultMessage>;
  /** Results already shown next to their call. */
  shown: Set<string>;
}

export function createRenderState(branch: readonly SessionEntry[]): RenderState {
  const state: RenderState = { results: new Map(), shown: new Set() };
  for (const entry of branch) {
    if (entry.type === "message" && entry.message.role === "toolResult") state.results.set(entry.message.toolCallId, entry.message);
  }
  return state;
}

/** The branch, root -> leaf, as a sequence of HTML blocks. */
export function renderBranch(branch: readonly SessionEntry[], markdown: Markdown): string {
  return renderEntries(branch, createRenderState(branch), markdown);
}

/** Consecutive entries of a branch (in order; `state` from the whole branch) as HTML blocks. */
export function renderEntries(entries: readonly SessionEntry[], state: RenderState, markdown: Markdown): string {
  const parts: string[] = [];
  for (const entry of entries) {
    switch (entry.type) {
      case "message":
        parts.push(renderMessage(entry.message, state, markdown));
        break;
      case "compaction":
        parts.push(
          `<details class="compaction"><summary>Compacted from ${escapeHtml(String(entry.tokensBefore))} tokens</summary>` + `<pre>${escapeHtml(entry.summary)}</pre></details>`,
        );
        break;
      case "model_change":
        parts.push(note(`Model: ${entry.provider}/${entry.modelId}`));
        break;
      case "thinking_level_change":
        parts.push(note(`Thinking level: ${entry.thinkingLevel}`));
        break;
      case "session_info":
        parts.push(note(`Session name: ${entry.name}`));
        break;
      default:
        break; // labels and plugin data are not conversation
    }
  }
  return parts.filter((part) => part !== "").join("\n");
}

function renderMessage(message: AgentMessage, state: RenderState, markdown: Markdown): string {
  switch (message.role) {
    case "user":
      return card("user", "User", message.timestamp, renderContent(message.content, markdown));
    case "assistant":
      return renderAssistant(message, state, markdown);
    case "toolResult":
      // Shown with its call; only a result whose call is not on the branch stands alone.
      return state.shown.has(message.toolCallId) ? "" : card("tool", `Tool result: ${message.toolName}`, message.timestamp, renderResult(message));
    case "bashExecution":
      return renderBash(message);
    case "custom":
      if (!message.display) return "";
      return card("custom", message.customType, message.timestamp, renderContent(message.content, markdown));
    default:
      return "";
  }
}

function renderAssistant(message: AssistantMessage, state: RenderState, markdown: Markdown): string {
  const body: string[] = [];
  for (const block of message.content ?? []) {
    if (block.type === "text") body.push(`<div class="markdown">${markdown(block.text)}</div>`);
    else if (block.type === "thinking") {
      body.push(`<details class="thinking"><summary>Thinking</summary><pre>${escapeHtml(block.thinking)}</pre></details>`);
    } else if (block.type === "toolCall") body.push(renderToolCall(block, state));
  }
  if (message.stopReason === "error") body.push(`<div class="error">Error: ${escapeHtml(message.errorMessage ?? "unknown error")}</div>`);
  if (message.stopReason === "aborted") body.push(`<div class="note">Aborted</div>`);
  const title = `Assistant <span class="meta">${escapeHtml(`${message.provider}/${message.model}`)}</span>`;
  return card("assistant", title, message.timestamp, body.join("\n"), true);
}

function renderToolCall(call: ToolCall, state: RenderState): string {
  const args = JSON.stringify(call.arguments ?? {}, null, 2);
  const result = state.results.get(call.id);
  let html = `<div class="tool-call"><div class="tool-name">${escapeHtml(call.name)}</div>` + `<pre><code class="hljs language-json">${highlightJson(args)}</code></pre>`;
  if (result) {
    state.shown.add(call.id);
    html += `<div class="tool-result${result.isError ? " is-error" : ""}">${renderResult(result)}</div>`;
  }
  return html + "</div>";
}

function renderResult(result: ToolResultMessage): string {
  const parts = (result.content ?? []).map((block) => (block.type === "text" ? `<pre>${escapeHtml(block.text)}</pre>` : renderImage(block)));
  return parts.join("\n") || `<div class="note">(no output)</div>`;
}

function renderBash(message: BashExecutionMessage): string {
  const notes: string[] = [];
  if (message.cancelled) notes.push("cancelled");
  else if (message.exitCode !== undefined && message.exitCode !== 0) notes.push(`exit code ${message.exitCode}`);
  if (message.truncated) notes.push("output truncated");
  const body =
    `<pre class="command">$ ${escapeHtml(message.command)}</pre>` +
    `<pre>${escapeHtml(message.output || "(no output)")}</pre>` +
    (notes.length ? `<div class="note">${escapeHtml(notes.join(", "))}</div>` : "");
  return card("bash", "Bash", message.timestamp, body);
}

function renderContent(content: string | (TextContent | ImageContent)[], markdown: Markdown): string {
  if (typeof content === "string") return `<div class="markdown">${markdown(content)}</div>`;
  return content.map((block) => (block.type === "text" ? `<div class="markdown">${markdown(block.text)}</div>` : renderImage(block))).join("\n");
}

const SAFE_IMAGE_TYPE = /^image\/(png|jpeg|gif|webp)$/;
const BASE64 = /^[A-Za-z0-9+/=\r\n]*$/;

/** Inline data URI (no network); anything that is not a plain base64 raster image is a placeholder. */
function renderImage(image: ImageContent): string {
  if (!SAFE_IMAGE_TYPE.test(image.mimeType) || !BASE64.test(image.data)) return `<div class="note">[image]</div>`;
  return `<img class="inline-image" alt="image" src="data:${image.mimeType};base64,${image.data}">`;
}

function card(kind: string, title: string, timestamp: number, body: string, titleIsHtml = false): string {
  const heading = titleIsHtml ? title : escapeHtml(title);
  const time = Number.isFinite(timestamp) && timestamp > 0 ? `<time>${escapeHtml(new Date(timestamp).toISOString())}</time>` : "";
  return `<section class="message ${kind}"><header>${heading}${time}</header>${body}</section>`;
}

function note(text: string): string {
  return `<div class="note">${escapeHtml(text)}</div>`;
}
