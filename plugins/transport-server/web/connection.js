// The page's client of the server's protocol: one WebSocket (the token as the subprotocol
// atomic.bearer.<token>), requests matched to their responses by id, and reconnection with backoff
// after a drop. What the records mean for the page is not decided here: the server's hello and the
// agents' events go to the handlers startConnection is given (app.js wires them).

import { $ } from "./dom.js";
import { state, takeToken } from "./page-state.js";
import { note, notice } from "./transcript.js";

// A network that drops silently (Wi-Fi gone, laptop asleep) closes no socket until TCP gives up,
// and a browser cannot see the server's pings: a cheap request every 20 s that gets no answer in
// 10 s gives the socket up and reconnects (resuming after the last seq).
const PROBE_EVERY_MS = 20_000;
const PROBE_TIMEOUT_MS = 10_000;

/** Why a server stopped, from its server_shutting_down record. */
const STOP_REASONS = { request: "a client asked it to", signal: "it was sent a signal", eof: "its standard input ended" };

/** { onHello(hello), onRecord(record), onLost() }: set once by startConnection, used by every reconnect. */
let handlers;

/** Connects now, and again whenever the connection drops or the browser comes back online. */
export function startConnection(pageHandlers) {
  handlers = pageHandlers;
  window.addEventListener("online", () => {
    if (!state.socket && !state.refused) connect();
  });
  // The printed URL opened again in this tab (a new token, after the old one was refused).
  window.addEventListener("hashchange", () => {
    const token = takeToken();
    if (token === state.token) return;
    state.token = token;
    state.refused = false;
    state.socket?.close();
    if (!state.socket) connect();
  });
  setInterval(probe, PROBE_EVERY_MS);
  connect();
}

export function setConnection(label, kind) {
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
  let opened = false;
  socket.addEventListener("open", () => (opened = true));
  socket.addEventListener("message", (event) => onRecord(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => onClosed(socket, event, opened));
}

function onClosed(socket, event, opened) {
  if (state.socket !== socket) return;
  state.socket = undefined;
  for (const { reject } of state.pending.values()) reject(new Error("connection lost"));
  state.pending.clear();
  handlers.onLost();
  // Refused before it opened: the server may be down (retry), or this token is not its own (retrying never helps).
  if (opened) retry(event);
  else void tokenRefused(state.token).then((refused) => (refused ? refuse() : retry(event)));
}

/** True only when the server answers that this token is wrong; a server out of reach says nothing. */
async function tokenRefused(token) {
  try {
    return (await fetch("/auth", { headers: { Authorization: `Bearer ${token}` }, cache: "no-store" })).status === 401;
  } catch {
    return false;
  }
}

function refuse() {
  if (state.socket) return;
  state.refused = true;
  setConnection("token refused", "refused");
  notice(
    "The server refused this page's token: it is not the one in <agent dir>/serve/token (a token is replaced when that file is deleted and the server restarts). Open the URL `atomic serve --web` printed.",
  );
}

function retry(event) {
  const delay = state.retryMs;
  state.retryMs = Math.min(state.retryMs * 2, 5000);
  // A server that stopped (rather than a connection that dropped) may never come back: the label keeps saying so.
  if (state.serverStopped) setConnection("server stopped, reconnecting", "stopped");
  else setConnection(`reconnecting (${event.code || "no answer"})`, "reconnecting");
  state.retryTimer = setTimeout(connect, delay);
}

/** The silent drop's check (above). */
function probe() {
  const socket = state.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return;
  const timer = setTimeout(() => {
    if (state.socket !== socket) return;
    socket.close();
    onClosed(socket, { code: "no answer" }, true);
  }, PROBE_TIMEOUT_MS);
  ok({ type: "server_info" })
    .catch(() => undefined)
    .finally(() => clearTimeout(timer));
}

/** The response to `command`; `id` only when the caller must find the reply among held events (a reload). */
export function request(command, id = `w${state.nextId++}`) {
  const socket = state.socket;
  if (!socket || socket.readyState !== WebSocket.OPEN) return Promise.reject(new Error("not connected"));
  socket.send(JSON.stringify({ ...command, id }));
  return new Promise((resolve, reject) => state.pending.set(id, { resolve, reject }));
}

/** The data of a successful response; a failed one throws its error. */
export async function ok(command, id) {
  const response = await request(command, id);
  if (!response.success) throw new Error(response.error || `${command.type} failed`);
  return response.data;
}

/** A record that waits for no reply (an answer to an extension's dialog). */
export function send(record) {
  state.socket?.send(JSON.stringify(record));
}

function onHello(hello) {
  state.epoch = hello.epoch;
  state.retryMs = 500;
  state.serverStopped = false;
  setConnection("connected", "connected");
  notice("");
  void handlers.onHello(hello);
}

function onRecord(record) {
  if (record.type === "server_hello") return onHello(record);
  if (record.type === "response" && record.id !== undefined && state.pending.has(record.id)) {
    // Where a reply falls among the events held during a reload: the events before it are in what it answered.
    state.resyncing?.push({ answered: record.id });
    const { resolve } = state.pending.get(record.id);
    state.pending.delete(record.id);
    return resolve(record);
  }
  if (record.type === "response") return record.success ? undefined : note(record.error, "error");
  if (record.type === "server_shutting_down") return onServerStopping(record);
  if (record.type === "connection_closing") return note(`The server closed this connection (${record.reason}); reconnecting.`);
  handlers.onRecord(record);
}

/** The server is shutting down: nothing says it will start again, so the page says it stopped and what it does meanwhile. */
function onServerStopping(record) {
  state.serverStopped = true;
  setConnection("server stopped", "stopped");
  notice(
    `The server stopped (${STOP_REASONS[record.reason] ?? record.reason}). This page keeps trying to reconnect, and resumes where it was once the server is started again at this address.`,
  );
}
