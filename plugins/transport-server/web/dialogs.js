// The extensions' UI requests (extension_ui_request): the dialogs the agent waits on (select,
// confirm, input, editor) shown one at a time, and the requests that wait on nothing (notify, a
// title, text for the prompt box). Answers go back as extension_ui_response.

import { send } from "./connection.js";
import { $ } from "./dom.js";
import { state } from "./page-state.js";
import { note } from "./transcript.js";

const DIALOGS = new Set(["select", "confirm", "input", "editor"]);

export function onUiRequest(request) {
  if (DIALOGS.has(request.method)) return showDialog(request);
  if (request.method === "notify") return note(request.message, request.notifyType === "error" ? "error" : "note");
  if (request.method === "setTitle" && request.title) document.title = `${request.title} · Atomic`;
  if (request.method === "set_editor_text" && typeof request.text === "string") $("prompt").value = request.text;
}

export function showDialog(request) {
  state.dialogs.set(request.id, request);
  renderDialog();
}

/** Answered here, or gone (extension_ui_resolved: another client answered it, it timed out, or its run stopped). */
export function closeDialog(id) {
  state.dialogs.delete(id);
  renderDialog();
}

export function clearDialogs() {
  state.dialogs.clear();
  renderDialog();
}

function answerDialog(request, answer) {
  send({ type: "extension_ui_response", agent: state.agent, id: request.id, ...answer });
  closeDialog(request.id);
}

/** The oldest open dialog; the others wait their turn. */
function renderDialog() {
  const box = $("dialog");
  const [request] = state.dialogs.values();
  box.hidden = !request;
  if (!request) return;
  box.dataset.method = request.method;
  box.dataset.id = request.id;
  $("dialog-title").textContent = request.title ?? "";
  $("dialog-message").textContent = request.message ?? "";
  const body = $("dialog-body");
  const actions = $("dialog-actions");
  body.replaceChildren();
  actions.replaceChildren();
  const button = (label, onClick, className) => {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = label;
    if (className) element.className = className;
    element.addEventListener("click", onClick);
    actions.append(element);
    return element;
  };
  const cancel = () => button("Cancel", () => answerDialog(request, { cancelled: true }), "secondary");
  if (request.method === "confirm") {
    button("No", () => answerDialog(request, { confirmed: false }), "secondary").dataset.answer = "no";
    button("Yes", () => answerDialog(request, { confirmed: true })).dataset.answer = "yes";
  } else if (request.method === "select") {
    cancel();
    for (const option of request.options ?? []) button(option, () => answerDialog(request, { value: option })).dataset.answer = option;
  } else {
    const field = document.createElement(request.method === "editor" ? "textarea" : "input");
    field.id = "dialog-field";
    if (request.method === "editor") field.rows = 8;
    field.value = request.prefill ?? "";
    field.placeholder = request.placeholder ?? "";
    body.append(field);
    cancel();
    button("OK", () => answerDialog(request, { value: field.value })).dataset.answer = "ok";
    field.focus();
  }
}
