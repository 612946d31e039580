// The side panel: the server's agents (which one is shown, its folder and status) and, on a phone,
// the menu button that shows and hides the panel. Choosing an agent is agent-session.js's.

import { ok } from "./connection.js";
import { $ } from "./dom.js";
import { state } from "./page-state.js";
import { span } from "./transcript.js";

export async function refreshAgents() {
  const { agents } = await ok({ type: "agent_list" });
  state.agents = agents;
  renderAgents();
}

/** Each button carries its agent's handle (data-agent): app.js hears the clicks on the list. */
export function renderAgents() {
  const list = $("agents");
  list.replaceChildren(
    ...state.agents.map((agent) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.dataset.agent = agent.agent;
      button.setAttribute("aria-current", String(agent.agent === state.agent));
      button.append(span(agent.name || agent.agent, "name"), span(agent.cwd, "cwd"), span(agent.status, "status"));
      item.append(button);
      return item;
    }),
  );
  $("no-agents").hidden = state.agents.length > 0;
  const shown = state.agents.find((agent) => agent.agent === state.agent);
  $("agent-title").textContent = shown ? `${shown.name || shown.agent} · ${shown.cwd}` : "";
}

export function toggleMenu() {
  const open = $("side").classList.toggle("open");
  $("menu").setAttribute("aria-expanded", String(open));
}

/** On a phone the panel covers the conversation: it closes once an agent is chosen or opened. */
export function closeMenu() {
  $("side").classList.remove("open");
  $("menu").setAttribute("aria-expanded", "false");
}
