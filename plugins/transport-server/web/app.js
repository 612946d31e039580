// The web page of `atomic serve --web` (docs/server.md): ES modules, no build step. It speaks the
// server's protocol over one WebSocket (the token as the subprotocol atomic.bearer.<token>), lists
// the agents, opens one, streams its events and answers its dialogs. After a dropped connection it
// reconnects and resumes from the last `seq` it saw (`attach {after, epoch}`); on `gap: true` it
// reloads the conversation with get_messages. Everything the server sends is shown as text, never
// as HTML.

import { cards, messageItem, note, notice, scrollDown, span, toolCard } from "./transcript.js";

const $ = (id) => document.getElementById(id);
const STORE = "atomic.web";

/** The token arrives in the fragment (never sent to the server); it is kept for this tab only and taken off the address bar. */
function takeToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) {
    sessionStorage.setItem(`${STORE}.token`, fromHash);
    history.replaceState(null, "", location.pathname);
  }
  return sessionStorage.getItem(`${STORE}.token`);
}

// A page loaded afresh has shown nothing yet: it keeps the agent it showed, and loads its conversation.
const saved = JSON.parse(sessionStorage.getItem(`${STORE}.cursor`) || "null");
const state = {
  token: takeToken(),
  socket: undefined,
  epoch: undefined,
  nextId: 1,
  pending: new Map(),
  agents: [],
  /** The agent shown (kept across reloads of the page), and the last event of it this page applied. */
  agent: saved?.agent,
  cursorEpoch: undefined,
  seq: undefined,
  running: false,
  dialogs: new Map(),
  retryMs: 500,
  retryTimer: undefined,
  /** Events that arrive while the conversation is being reloaded are applied after it. */
  resyncing: undefined,
};

function saveCursor() {
  sessionStorage.setItem(`${STORE}.cursor`, JSON.stringify({ agent: state.agent, epoch: state.cursorEpoch, seq: state.seq }));
}

// ---- Connection

function setConnection(label, kind) {
  const conn = $("conn");
  conn.textContent = label;
  conn.dataset.state = kind;
}

function connect() {
  clearTimeout(state.retryTimer);
  if (!state.token) {
    setConnection("no token", "refused");
    return notice("Open the URL that `atomic serve --web` printed: it carries the token after #token=.");
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/`, [`atomic.bearer.${state.token}`]);
  state.socket = socket;
  socket.addEventListener("message", (event) => onRecord(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => onClosed(socket, event));
}

function onClosed(socket, event) {
  if (state.socket !== socket) return;
  state.socket = undefined;
  for (const { reject } of state.pending.values()) reject(new Error("connection lost"));
  state.pending.clear();
  setControls();
  const delay = state.retryMs;
  state.retryMs = Math.min(state.retryMs * 2, 5000);
  setConnection(`reconnecting (${event.code || "no answer"})`, "reconnecting");
  state.retryTimer = setTimeout(connect, delay);
}

window.addEventListener("online", () => {
  if (!state.socket) connect();
});

// A network that drops silently (Wi-Fi gone, laptop asleep) closes no socket until TCP gives up,
// and a browser cannot see the server's pings: a cheap request every 20 s that gets no answer in
// 10 s gives the socket up and reconnects (resuming after the last seq).
const PROBE_EVERY_MS = 20_000;
const PROBE_TIMEOUT_MS = 10_000;
setInterval(() => {
  const socket = state.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  const timer = setTimeout(() => {
    if (state.socket !== socket) return;
    socket.close();
    onClosed(socket, { code: "no answer" });
  }, PROBE_TIMEOUT_MS);
  ok({ type: "server_info" })
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}, PROBE_EVERY_MS);

function request(command, id = `w${state.nextId++}`) {
  const socket = state.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return Promise.reject(new Error("not connected"));
  socket.send(JSON.stringify({ ...command, id }));
  return new Promise((resolve, reject) => state.pending.set(id, { resolve, reject }));
}

async function ok(command, id) {
  const response = await request(command, id);
  if (!response.success) throw new Error(response.error || `${command.type} failed`);
  return response.data;
}

function send(record) {
  state.socket?.send(JSON.stringify(record));
}

async function onHello(hello) {
  state.epoch = hello.epoch;
  state.retryMs = 500;
  setConnection("connected", "connected");
  notice("");
  try {
    await ok({ type: "set_event_options", messageUpdates: "delta" });
    await refreshAgents();
    if (state.agent && state.agents.some((agent) => agent.agent === state.agent)) await attach(state.agent, true);
    else if (state.agent) forgetAgent();
  } catch (error) {
    notice(`Cannot resume: ${error.message}`);
  }
  setControls();
}

function onRecord(record) {
  if (record.type === "server_hello") return void onHello(record);
  if (record.type === "response" && record.id !== undefined && state.pending.has(record.id)) {
    // Where a reply falls among the events held during a reload: the events before it are in what it answered.
    state.resyncing?.push({ answered: record.id });
    const { resolve } = state.pending.get(record.id);
    state.pending.delete(record.id);
    return resolve(record);
  }
  if (record.type === "response") return record.success ? undefined : note(record.error, "error");
  if (record.type === "server_shutting_down") return setConnection("server restarting", "reconnecting");
  if (record.type === "connection_closing") return note(`The server closed this connection (${record.reason}); reconnecting.`);
  if (record.type === "agent_closed") {
    if (record.agent === state.agent) forgetAgent();
    return void refreshAgents();
  }
  if (record.agent !== state.agent) return;
  if (state.resyncing) return void state.resyncing.push(record);
  applyEvent(record);
}

// ---- Agents

async function refreshAgents() {
  const { agents } = await ok({ type: "agent_list" });
  state.agents = agents;
  renderAgents();
}

function renderAgents() {
  const list = $("agents");
  list.replaceChildren(
    ...state.agents.map((agent) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.agent = agent.agent;
      button.setAttribute("aria-current", String(agent.agent === state.agent));
      button.append(span(agent.name || agent.agent, "name"), span(agent.cwd, "cwd"), span(agent.status, "status"));
      button.addEventListener("click", () => void choose(agent.agent));
      item.append(button);
      return item;
    }),
  );
  $("no-agents").hidden = state.agents.length > 0;
  const shown = state.agents.find((agent) => agent.agent === state.agent);
  $("agent-title").textContent = shown ? `${shown.name || shown.agent} · ${shown.cwd}` : "";
}

async function choose(handle) {
  closeMenu();
  if (handle === state.agent) return;
  if (state.agent) await ok({ type: "detach", agent: state.agent }).catch(() => undefined);
  state.agent = handle;
  state.seq = undefined;
  state.cursorEpoch = undefined;
  await attach(handle, false).catch((error) => note(error.message, "error"));
  renderAgents();
}

/** Attached again after a reconnect (resuming from the last seq), or for the first time (the conversation loaded). */
async function attach(handle, resume) {
  const command = { type: "attach", agent: handle };
  if (resume && state.seq !== undefined && state.cursorEpoch) Object.assign(command, { after: state.seq, epoch: state.cursorEpoch });
  if (!command.after && command.after !== 0) state.resyncing = [];
  const attached = await ok(command);
  state.cursorEpoch = attached.epoch;
  if (command.after === undefined || attached.gap) await reload(attached.seq);
  else state.seq = attached.seq;
  saveCursor();
  for (const request of attached.pendingUi || []) showDialog(request);
  setControls();
}

/**
 * The conversation from get_messages. Events held meanwhile are applied when they came after its
 * answer (the ones before are in it); a message still streaming then goes on from there.
 */
async function reload(seq) {
  state.resyncing ??= [];
  const id = `w${state.nextId++}`;
  let held = [];
  try {
    const [{ messages }, agentState] = await Promise.all([ok({ type: "get_messages", agent: state.agent }, id), ok({ type: "get_state", agent: state.agent })]);
    resetTranscript();
    for (const message of messages) renderMessage(message);
    setRunning(agentState.isStreaming === true);
    state.seq = seq;
    held = state.resyncing.slice(state.resyncing.findIndex((record) => record.answered === id) + 1);
  } finally {
    state.resyncing = undefined;
  }
  for (const record of held) if (record.type) applyEvent(record);
}

function resetTranscript() {
  $("transcript").replaceChildren();
  cards.clear();
  current = undefined;
}

function forgetAgent() {
  state.agent = undefined;
  state.seq = undefined;
  state.cursorEpoch = undefined;
  saveCursor();
  resetTranscript();
  clearDialogs();
  setRunning(false);
}

async function openAgent(event) {
  event.preventDefault();
  $("open-error").textContent = "";
  const cwd = $("open-cwd").value.trim();
  const name = $("open-name").value.trim();
  try {
    if (state.agent) await ok({ type: "detach", agent: state.agent }).catch(() => undefined);
    const opened = await ok({ type: "agent_open", ...(cwd ? { cwd } : {}), ...(name ? { name } : {}) });
    state.agent = opened.agent;
    state.cursorEpoch = opened.epoch;
    state.seq = opened.seq;
    saveCursor();
    resetTranscript();
    clearDialogs();
    setRunning(false);
    $("open-name").value = "";
    closeMenu();
    await refreshAgents();
    setControls();
    $("prompt").focus();
  } catch (error) {
    $("open-error").textContent = error.message;
  }
}

// ---- Events

let current; // the assistant message being streamed: { item, blocks: Map<contentIndex, element> }

function applyEvent(record) {
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
function renderMessage(message) {
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

function setRunning(running) {
  state.running = running;
  const listed = state.agents.find((agent) => agent.agent === state.agent);
  if (listed && listed.status !== (running ? "running" : "idle")) {
    listed.status = running ? "running" : "idle";
    renderAgents();
  }
  $("run-state").textContent = state.agent ? (running ? "working…" : "idle") : "";
  $("run-state").dataset.state = state.agent ? (running ? "running" : "idle") : "none";
  setControls();
}

function setControls() {
  const usable = Boolean(state.socket && state.agent);
  $("prompt").disabled = !usable;
  $("send").disabled = !usable;
  $("abort").disabled = !usable || !state.running;
}

// ---- Dialogs

const DIALOGS = new Set(["select", "confirm", "input", "editor"]);

function onUiRequest(request) {
  if (DIALOGS.has(request.method)) return showDialog(request);
  if (request.method === "notify") return note(request.message, request.notifyType === "error" ? "error" : "note");
  if (request.method === "setTitle" && request.title) document.title = `${request.title} · Atomic`;
  if (request.method === "set_editor_text" && typeof request.text === "string") $("prompt").value = request.text;
}

function showDialog(request) {
  state.dialogs.set(request.id, request);
  renderDialog();
}

function closeDialog(id) {
  state.dialogs.delete(id);
  renderDialog();
}

function clearDialogs() {
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

// ---- Controls

async function submitPrompt(event) {
  event.preventDefault();
  const message = $("prompt").value.trim();
  if (!message || !state.agent) return;
  $("prompt").value = "";
  try {
    await ok({ type: "prompt", agent: state.agent, message, ...(state.running ? { streamingBehavior: "followUp" } : {}) });
  } catch (error) {
    note(error.message, "error");
  }
}

function closeMenu() {
  $("side").classList.remove("open");
  $("menu").setAttribute("aria-expanded", "false");
}

$("menu").addEventListener("click", () => {
  const open = $("side").classList.toggle("open");
  $("menu").setAttribute("aria-expanded", String(open));
});
$("open-form").addEventListener("submit", (event) => void openAgent(event));
$("prompt-form").addEventListener("submit", (event) => void submitPrompt(event));
$("prompt").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) $("prompt-form").requestSubmit();
});
$("abort").addEventListener("click", () => void ok({ type: "abort", agent: state.agent }).catch((error) => note(error.message, "error")));

connect();
