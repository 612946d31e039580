// The web page of `atomic serve --web` (docs/server.md): ES modules, no build step. It speaks the
// server's protocol over one WebSocket, lists the agents, opens one, streams its events and answers
// its dialogs. After a dropped connection it reconnects and resumes from the last `seq` it saw
// (`attach {after, epoch}`); on `gap: true` it reloads the conversation with get_messages.
// Everything the server sends is shown as text, never as HTML.
//
// This module only wires the page together; each part is a module of its own:
//   page-state.js     the state the modules share (the token, the socket, the agent shown, its seq)
//   connection.js     the protocol client: the socket, requests and responses, reconnecting
//   agent-session.js  the agent shown: attach, resume, reload, switch, open
//   agent-list.js     the side panel: the agents and the menu button
//   conversation.js   the agent's events and messages applied to the transcript
//   transcript.js     the transcript's DOM: messages, notes, tool cards
//   dialogs.js        the extensions' dialogs and other UI requests
//   composer.js       the prompt box, Send and Abort, the run's state
//   dom.js            the $ look-up they all use

import { toggleMenu } from "./agent-list.js";
import { choose, onAgentRecord, openAgent, resumeAfterHello } from "./agent-session.js";
import { abortRun, setControls, submitPrompt } from "./composer.js";
import { startConnection } from "./connection.js";
import { $ } from "./dom.js";

$("menu").addEventListener("click", toggleMenu);
// One listener for the list: its buttons are made anew whenever it is drawn.
$("agents").addEventListener("click", (event) => {
  const button = event.target.closest("button[data-agent]");
  if (button) void choose(button.dataset.agent);
});
$("open-form").addEventListener("submit", (event) => void openAgent(event));
$("prompt-form").addEventListener("submit", (event) => void submitPrompt(event));
$("prompt").addEventListener("keydown", (event) => {
  if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) $("prompt-form").requestSubmit();
});
$("abort").addEventListener("click", () => void abortRun());

startConnection({ onHello: resumeAfterHello, onRecord: onAgentRecord, onLost: setControls });
