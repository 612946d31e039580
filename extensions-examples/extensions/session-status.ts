/**
 * Example extension: name the session and keep a status line. `/session-name <name>` names the
 * session (a session_info entry; `get_state` then reports `sessionName`), `/session-name` alone
 * shows it. The status (`setStatus`) counts finished runs; every run's tool calls are remembered
 * in the session as a custom entry (`appendEntry`: stored, never sent to the model).
 *
 * Install: copy into ~/.atomic/agent/extensions/.
 */
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  let runs = 0;

  pi.registerCommand("session-name", {
    description: "Set or show the session name (usage: /session-name [name])",
    handler: async (args, ctx) => {
      const name = args.trim();
      if (name) pi.setSessionName(name);
      ctx.ui.notify(name ? `Session named "${name}"` : `Session name: ${pi.getSessionName() ?? "(none)"}`, "info");
    },
  });

  pi.on("agent_end", (event, ctx) => {
    runs++;
    const tools = event.messages.filter((message) => message.role === "toolResult").map((message) => (message as { toolName: string }).toolName);
    pi.appendEntry("run-summary", { run: runs, tools });
    ctx.ui.setStatus("session-status", `${pi.getSessionName() ?? "unnamed"}: ${runs} run${runs === 1 ? "" : "s"}`);
  });
}
