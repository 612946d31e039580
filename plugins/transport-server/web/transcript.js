// The transcript's DOM of the web page: messages, notes and the cards of tool calls (conversation.js
// decides what goes in it).
// Everything is set as text, never as HTML.

import { $ } from "./dom.js";

export function span(text, className) {
  const element = document.createElement("span");
  element.className = className;
  element.textContent = text;
  return element;
}

export function messageItem(role) {
  const item = document.createElement("li");
  item.className = `msg ${role}`;
  $("transcript").append(item);
  scrollDown();
  return item;
}

export function note(text, kind = "note") {
  if (!text) return;
  const item = messageItem("note");
  if (kind === "error") item.classList.add("error");
  item.textContent = text;
}

export const cards = new Map();

/** The card of one tool call, made on first mention (streamed call, execution, or a loaded message). */
export function toolCard(id, name, args) {
  let card = cards.get(id);
  if (!card?.element.isConnected) {
    const element = document.createElement("li");
    element.className = "tool";
    element.dataset.toolCallId = id;
    element.dataset.tool = name ?? "tool";
    element.dataset.state = "called";
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    const title = span(name ?? "tool", "name");
    const hint = span("", "hint");
    const stateLabel = span("called", "state");
    summary.append(title, hint, stateLabel);
    const argsBlock = document.createElement("pre");
    argsBlock.className = "args";
    const output = document.createElement("pre");
    output.className = "output";
    output.hidden = true;
    details.append(summary, argsBlock, output);
    element.append(details);
    $("transcript").append(element);
    card = {
      element,
      identify(newId, newName) {
        cards.delete(element.dataset.toolCallId);
        element.dataset.toolCallId = newId;
        element.dataset.tool = newName;
        title.textContent = newName;
        cards.set(newId, card);
      },
      appendArgs(delta) {
        argsBlock.textContent += delta;
      },
      setArgs(value) {
        if (value === undefined) return;
        argsBlock.textContent = typeof value === "string" ? value : JSON.stringify(value, null, 2);
        hint.textContent = argumentHint(value);
      },
      setOutput(text) {
        output.hidden = text === "";
        output.textContent = text;
      },
      setState(value) {
        element.dataset.state = value;
        stateLabel.textContent = value;
      },
    };
    cards.set(id, card);
  }
  card.setArgs(args);
  scrollDown();
  return card;
}

/** What a call is about at a glance: its path, command or pattern. */
function argumentHint(args) {
  if (!args || typeof args !== "object") return "";
  const value = args.path ?? args.command ?? args.pattern ?? args.url;
  if (typeof value !== "string") return "";
  return value.length > 80 ? `${value.slice(0, 79)}…` : value;
}

export function scrollDown() {
  const transcript = $("transcript");
  transcript.scrollTop = transcript.scrollHeight;
}

export function notice(text) {
  $("notice").hidden = !text;
  $("notice").textContent = text;
}
