// The prompt box and its buttons: what can be used when (connected, an agent shown, a run going),
// the run's state beside them, sending a prompt and aborting a run.

import { renderAgents } from "./agent-list.js";
import { ok } from "./connection.js";
import { $ } from "./dom.js";
import { state } from "./page-state.js";
import { note } from "./transcript.js";

/** A run started or ended: the label, the buttons, and the agent's status in the list (agent_list gave it once; the run's events keep it current). */
export function setRunning(running) {
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

export function setControls() {
  const usable = Boolean(state.socket && state.agent);
  $("prompt").disabled = !usable;
  $("send").disabled = !usable;
  $("abort").disabled = !usable || !state.running;
}

/** A prompt during a run is queued as a follow-up rather than refused. */
export async function submitPrompt(event) {
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

export function abortRun() {
  return ok({ type: "abort", agent: state.agent }).catch((error) => note(error.message, "error"));
}
