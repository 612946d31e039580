/** Plain text of a message, as fork points and estimates see it. */
import type { AgentMessage } from "../../lib/llm/index.js";

/** Text blocks joined with "" (a string content is returned as is); other roles: "". */
export function messageText(message: AgentMessage): string {
  if (message.role !== "user" && message.role !== "custom") return "";
  const { content } = message;
  if (typeof content === "string") return content;
  let text = "";
  for (const block of content) if (block.type === "text") text += block.text;
  return text;
}
