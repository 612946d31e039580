// The shown agent's conversation: its events applied to the transcript as they stream in
// (messages, deltas, tool calls and their output, dialogs, retries), and the messages of
// get_messages drawn after a (re)load. transcript.js makes the DOM.

import { setRunning } from "./composer.js";
import { closeDialog, onUiRequest } from "./dialogs.js";
import { $ } from "./dom.js";
import { saveCursor, state } from "./page-state.js";
import { cards, messageItem, note, scrollDown, span, toolCard } from "./transcript.js";

let current; // the assistant message being streamed: { item, blocks: Map<contentIndex, element> }

/** Before another agent's conversation, or a reload of this one. */
export function resetTranscript() {
  $("transcript").replaceChildren();
  cards.clear();
  current = undefined;
}

/** One event of the shown agent; its seq is where a reconnect resumes. */
export function applyEvent(record) {
  if (typeof record.seq === "number") {
    state.seq = record.seq;
    saveCursor();
  }
  switch (record.type) {
    case "agent_start":
      return setRunning(true);
    case "agent_end":
    case "agent_settled":
      current = undefined;
      return setRunning(false);
    case "message_start":
      if (record.message?.role === "assistant") current = { item: messageItem("assistant"), blocks: new Map() };
      else if (record.message) renderMessage(record.message);
      return;
    case "message_update":
      return streamUpdate(record.assistantMessageEvent);
    case "message_end":
      if (record.message?.role === "assistant" && current) finishAssistant(record.message);
      current = undefined;
      return;
    case "tool_execution_start":
      return toolCard(record.toolCallId, record.toolName, record.args).setState("running");
    case "tool_execution_update":
      return toolCard(record.toolCallId, record.toolName).setOutput(resultText(record.partialResult));
    case "tool_execution_end": {
      const card = toolCard(record.toolCallId, record.toolName);
      card.setOutput(resultText(record.result));
      return card.setState(record.isError ? "error" : "done");
    }
    case "extension_ui_request":
      return onUiRequest(record);
    case "extension_ui_resolved":
      return closeDialog(record.id);
    case "auto_retry_start":
      return note(`Retrying after an error (attempt ${record.attempt}): ${record.errorMessage ?? ""}`);
    case "extension_error":
      return note(`Extension error: ${record.error}`, "error");
  }
}

function streamUpdate(update) {
  if (!update) return;
  current ??= { item: messageItem("assistant"), blocks: new Map() };
  const index = update.contentIndex ?? 0;
  if (update.type === "text_delta" || update.type === "thinking_delta") {
    let block = current.blocks.get(index);
    if (!block) {
      block = span("", update.type === "thinking_delta" ? "thinking" : "text");
      current.blocks.set(index, block);
      current.item.append(block);
    }
    block.textContent += update.delta;
  } else if (update.type === "toolcall_start") {
    // The call's id and name come with toolcall_end (delta updates carry no snapshot).
    current.blocks.set(index, toolCard(`streaming-${state.nextId++}`, "tool"));
  } else if (update.type === "toolcall_delta") {
    current.blocks.get(index)?.appendArgs?.(update.delta);
  } else if (update.type === "toolcall_end" && update.toolCall) {
    const card = current.blocks.get(index);
    card?.identify?.(update.toolCall.id, update.toolCall.name);
    card?.setArgs?.(update.toolCall.arguments);
  } else if (update.type === "error") {
    note(update.error?.errorMessage || "The model failed", "error");
  }
  scrollDown();
}

function finishAssistant(message) {
  if (message.stopReason === "error" && message.errorMessage) note(message.errorMessage, "error");
  if (message.stopReason === "aborted") note("Aborted.");
  if (current && current.item.childElementCount === 0 && current.item.textContent === "") current.item.remove();
}

/** A message of the conversation as get_messages gives it. */
export function renderMessage(message) {
  if (message.role === "user") return void messageItem("user").append(contentText(message.content));
  if (message.role === "assistant") {
    const item = messageItem("assistant");
    for (const part of Array.isArray(message.content) ? message.content : []) {
      if (part.type === "text") item.append(span(part.text, "text"));
      else if (part.type === "thinking") item.append(span(part.thinking, "thinking"));
      else if (part.type === "toolCall") toolCard(part.id, part.name, part.arguments);
    }
    if (item.textContent === "") item.remove();
    return finishAssistant(message);
  }
  if (message.role === "toolResult") {
    const card = toolCard(message.toolCallId, message.toolName);
    card.setOutput(contentText(message.content));
    card.setState(message.isError ? "error" : "done");
  }
}

function contentText(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => (part.type === "text" ? part.text : part.type === "image" ? "[image]" : "")).join("");
}

function resultText(result) {
  return result ? contentText(result.content) : "";
}
