/**
 * Example extension: rewrite what the user sends and what the model sees.
 *
 * - `input` (a transform): `:q <question>` becomes "Answer in one sentence: <question>"; `:stop`
 *   is handled here and never reaches the model. Messages extensions send are left alone.
 * - `context` (before each LLM call): anything that looks like an API key (`sk-...`) is replaced
 *   with `[redacted]` in the copy sent to the model; the session keeps what was typed.
 *
 * Install: copy into ~/.atomic/agent/extensions/.
 */
import type { AgentMessage, ExtensionAPI } from "@earendil-works/pi-coding-agent";

const SECRET = /\bsk-[A-Za-z0-9_-]{8,}\b/g;

function redact(message: AgentMessage): AgentMessage {
  if (message.role !== "user") return message;
  if (typeof message.content === "string") return { ...message, content: message.content.replace(SECRET, "[redacted]") };
  return { ...message, content: message.content.map((part) => (part.type === "text" ? { ...part, text: part.text.replace(SECRET, "[redacted]") } : part)) };
}

export default function (pi: ExtensionAPI) {
  pi.on("input", (event, ctx) => {
    if (event.source === "extension") return { action: "continue" };
    if (event.text.trim() === ":stop") {
      ctx.ui.notify("Nothing sent.", "info");
      return { action: "handled" };
    }
    const question = /^:q\s+([\s\S]+)$/.exec(event.text);
    return question ? { action: "transform", text: `Answer in one sentence: ${question[1]}` } : { action: "continue" };
  });

  pi.on("context", (event) => ({ messages: event.messages.map(redact) }));
}
