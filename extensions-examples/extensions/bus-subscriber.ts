/**
 * Example extension pair, part 2 (with bus-publisher.ts): subscribes to the publisher's
 * channels. Announcements are shown to the user (`notify`) and kept in the session
 * (`appendEntry`); finished runs are counted in the status line. A bus handler gets no `ctx`,
 * so the latest one from an event is kept.
 *
 * Install: copy both files into ~/.atomic/agent/extensions/.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
  let ctx: ExtensionContext | undefined;
  let finished = 0;
  pi.on("session_start", (_event, context) => void (ctx = context));
  pi.on("agent_start", (_event, context) => void (ctx = context));

  pi.events.on("demo:announce", (data) => {
    const { text } = data as { text: string };
    pi.appendEntry("announcement", { text });
    ctx?.ui.notify(`Announcement: ${text}`, "info");
  });
  pi.events.on("demo:run-finished", (data) => {
    finished++;
    ctx?.ui.setStatus("bus-subscriber", `${finished} run(s) finished, last with ${(data as { messages: number }).messages} messages`);
  });
}
