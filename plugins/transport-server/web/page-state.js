// The page's shared state, one object every module imports from here (no globals): what the
// connection, the agents list, the conversation and the controls each read and change.

const STORE = "atomic.web";

/**
 * The token arrives in the fragment (never sent to the server); it is kept for this tab only and
 * taken off the address bar. Also when a URL is opened in a tab already on the page, which only
 * changes the fragment (connection.js listens for that).
 */
export function takeToken() {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromHash) {
    sessionStorage.setItem(`${STORE}.token`, fromHash);
    history.replaceState(null, "", location.pathname);
  }
  return sessionStorage.getItem(`${STORE}.token`);
}

// A page loaded afresh has shown nothing yet: it keeps the agent it showed, and loads its conversation.
const saved = JSON.parse(sessionStorage.getItem(`${STORE}.cursor`) || "null");

export const state = {
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
  /** The server said this token is not its own: no more retries until another URL is opened. */
  refused: false,
  retryTimer: undefined,
  /** The server said it was shutting down (server_shutting_down): it may not come back. */
  serverStopped: false,
  /** Events that arrive while the conversation is being reloaded are applied after it. */
  resyncing: undefined,
};

/** Where the shown agent's events stand, so that a reload of the page attaches to the same agent. */
export function saveCursor() {
  sessionStorage.setItem(`${STORE}.cursor`, JSON.stringify({ agent: state.agent, epoch: state.cursorEpoch, seq: state.seq }));
}
