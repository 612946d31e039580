/**
 * pi 1.x's transcript form of a request: the system prompt and the tool declarations travel as
 * `system` messages (a leading one, later ones patching it), which `context_with_system`
 * handlers see and edit. Atomic sends one system prompt and one tool list per request, so a
 * request is turned into that form for the handlers (`toTranscript`) and read back from it
 * (`fromTranscript`): the prompt and the tools are what the system messages add up to.
 */
import type { AgentMessage, ToolSpec } from "../../../lib/llm/index.js";
import type { SystemMessage } from "../types/llm.js";

export type { SystemMessage } from "../types/llm.js";

type Listed = readonly { role: string }[];

const isSystem = (message: { role: string }): message is SystemMessage => message.role === "system";

function contentText(content: SystemMessage["content"] | undefined): string {
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part) => (part?.type === "text" ? part.text : "")).join("") : "";
}

/** The leading system message for a prompt and tool set; undefined when both are empty. */
export function createInitialSystemMessage(systemPrompt: string | undefined, tools: ToolSpec[] | undefined): SystemMessage | undefined {
  if (!systemPrompt && (!tools || tools.length === 0)) return undefined;
  return { role: "system", content: systemPrompt ?? "", ...(tools && tools.length > 0 ? { toolsAdded: tools } : {}), timestamp: Date.now() };
}

export function getInitialSystemMessage(messages: Listed): SystemMessage | undefined {
  const first = messages[0];
  return first && isSystem(first) ? first : undefined;
}

/** The tools after every system message's additions and removals, in order. */
export function getCurrentTools(messages: Listed): ToolSpec[] {
  const tools = new Map<string, ToolSpec>();
  for (const message of messages) {
    if (!isSystem(message)) continue;
    for (const tool of message.toolsRemoved ?? []) tools.delete(tool.name);
    for (const tool of message.toolsAdded ?? []) tools.set(tool.name, tool);
  }
  return [...tools.values()];
}

/** Every system message folded into one: contents joined, sections patched by name, the current tools. */
export function getCurrentSystemMessage(messages: Listed): SystemMessage | undefined {
  const content: string[] = [];
  const sections = new Map<string, string>();
  let timestamp: number | undefined;
  for (const message of messages) {
    if (!isSystem(message)) continue;
    timestamp ??= message.timestamp;
    const text = contentText(message.content);
    if (text !== "") content.push(text);
    for (const [name, value] of Object.entries(message.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, String(value));
    }
  }
  const tools = getCurrentTools(messages);
  if (timestamp === undefined && tools.length === 0) return undefined;
  return {
    role: "system",
    content: content.join("\n\n"),
    ...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.length > 0 ? { toolsAdded: tools } : {}),
    timestamp: timestamp ?? 0,
  };
}

/** The prompt text the system messages add up to: contents, then sections. */
export function getCurrentSystemPrompt(messages: Listed): string {
  const message = getCurrentSystemMessage(messages);
  if (!message) return "";
  const parts = [contentText(message.content), ...Object.values(message.sections ?? {}).filter((text): text is string => typeof text === "string")];
  return parts.filter((part) => part !== "").join("\n\n");
}

export interface RequestParts {
  systemPrompt: string;
  tools: ToolSpec[];
  messages: AgentMessage[];
}

/** The request as a transcript; it always leads with a system message, so a handler's result can be checked for one. */
export function toTranscript(parts: RequestParts): (AgentMessage | SystemMessage)[] {
  const head: SystemMessage = { role: "system", content: parts.systemPrompt, ...(parts.tools.length > 0 ? { toolsAdded: parts.tools } : {}), timestamp: Date.now() };
  return [head, ...parts.messages];
}

/** A transcript back as one request; `undefined` when it does not start with a system message (pi reports that too). */
export function fromTranscript(messages: readonly unknown[]): RequestParts | undefined {
  const listed = messages.filter(
    (message): message is { role: string } => typeof message === "object" && message !== null && typeof (message as { role?: unknown }).role === "string",
  );
  if (!listed[0] || !isSystem(listed[0])) return undefined;
  return {
    systemPrompt: getCurrentSystemPrompt(listed),
    tools: getCurrentTools(listed),
    messages: listed.filter((message) => !isSystem(message)) as AgentMessage[],
  };
}
