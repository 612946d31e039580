// Which agent the page shows, and keeping its conversation in step with the server: attaching (or
// attaching again after a reconnect, from the last `seq` applied), reloading it with get_messages
// when events were missed (a new epoch, or `gap: true`), switching to another agent, opening a new
// one, and letting go of one that closed.

import { closeMenu, refreshAgents, renderAgents } from "./agent-list.js";
import { setControls, setRunning } from "./composer.js";
import { ok } from "./connection.js";
import { applyEvent, renderMessage, resetTranscript } from "./conversation.js";
import { clearDialogs, showDialog } from "./dialogs.js";
import { $ } from "./dom.js";
import { saveCursor, state } from "./page-state.js";
import { note, notice } from "./transcript.js";

/** After each server_hello: deltas rather than snapshots, the list, and the agent shown before (if it still exists). */
export async function resumeAfterHello() {
  try {
    await ok({ type: "set_event_options", messageUpdates: "delta" });
    await refreshAgents();
    if (state.agent && state.agents.some((agent) => agent.agent === state.agent)) await attach(state.agent, true);
    else if (state.agent) forgetAgent(`The agent this page showed (${state.agent}) is no longer open on the server. Open an agent, or choose one from the list.`);
  } catch (error) {
    notice(`Cannot resume: ${error.message}`);
  }
  setControls();
}

/** The records connection.js leaves to the page: agents closing, and the shown agent's events. */
export function onAgentRecord(record) {
  if (record.type === "agent_closed") {
    if (record.agent === state.agent) {
      const shown = state.agents.find((agent) => agent.agent === record.agent);
      // This page closes no agent: another client did, and the conversation would vanish without a word.
      forgetAgent(`The agent "${shown?.name || record.agent}" was closed by another client. Open an agent, or choose one from the list.`);
    }
    return void refreshAgents();
  }
  if (record.agent !== state.agent) return;
  if (state.resyncing) return void state.resyncing.push(record);
  applyEvent(record);
}

export async function choose(handle) {
  closeMenu();
  if (handle === state.agent) return;
  notice("");
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

/** The agent shown is gone: nothing of it stays on the page but `why`. */
function forgetAgent(why) {
  notice(why);
  state.agent = undefined;
  state.seq = undefined;
  state.cursorEpoch = undefined;
  saveCursor();
  resetTranscript();
  clearDialogs();
  setRunning(false);
}

/** The form "Open an agent": a new agent (in the folder given, or the server's) becomes the one shown. */
export async function openAgent(event) {
  event.preventDefault();
  $("open-error").textContent = "";
  const cwd = $("open-cwd").value.trim();
  const name = $("open-name").value.trim();
  try {
    if (state.agent) await ok({ type: "detach", agent: state.agent }).catch(() => undefined);
    const opened = await ok({ type: "agent_open", ...(cwd ? { cwd } : {}), ...(name ? { name } : {}) });
    notice("");
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
