/**
 * pi's message actions. `sendMessage` adds a custom message: queued as steering (default) or a
 * follow-up while the agent streams, stored for the next turn (`nextTurn`), starting a run of its
 * own when idle with `triggerTurn`, else stored at once. `sendUserMessage` is a real user prompt
 * (its `input` event says `source: "extension"`); while streaming it needs `deliverAs`.
 */
import type { CustomMessage, ImageContent, TextContent } from "../../lib/llm/index.js";
import type { InputEvent } from "../agent/api.js";
import type { ExtensionHost } from "./host.js";
import type { ExtensionRecord } from "./record.js";
import type { ExtensionAPI } from "./types/api.js";

const STREAMING_WITHOUT_DELIVERY = "Agent is already processing. Pass deliverAs ('steer' or 'followUp') to queue the message.";

export function sendMessage(
  host: ExtensionHost,
  record: ExtensionRecord,
  input: Parameters<ExtensionAPI["sendMessage"]>[0],
  options: Parameters<ExtensionAPI["sendMessage"]>[1] = {},
): void {
  const message = toCustomMessage(input);
  const agent = host.agent;
  const fail = (error: unknown) => host.report(record.path, "sendMessage", error);
  if (options.deliverAs === "nextTurn") {
    storeAfterRun(host, message, fail);
  } else if (agent.isStreaming()) {
    agent.queueMessage(options.deliverAs === "followUp" ? "followUp" : "steer", message);
  } else if (options.triggerTurn) {
    // before_agent_start tells this run apart (messageType "custom"); its prompt is the message's text.
    const text = typeof message.content === "string" ? message.content : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");
    host.triggerNext(message, text);
    void agent.promptMessage(message).catch((error: unknown) => {
      host.triggerNext(undefined);
      fail(error);
    });
  } else {
    storeAfterRun(host, message, fail);
  }
}

/** Stored now when idle, in order with the extensions' other writes; while a run streams, when it ends. */
function storeAfterRun(host: ExtensionHost, message: CustomMessage, fail: (error: unknown) => void): void {
  const store = () => host.agent.appendAfterRun(message).then(() => announceStored(host, message));
  if (host.agent.isStreaming()) void store().catch(fail);
  else void host.stores.store(store).catch(fail);
}

/** A message stored outside a run reaches the client as it would inside one. */
export function announceStored(host: ExtensionHost, message: CustomMessage): void {
  host.k.events.emit("message_start", { message });
  host.k.events.emit("message_end", { message });
}

export function sendUserMessage(
  host: ExtensionHost,
  record: ExtensionRecord,
  content: string | (TextContent | ImageContent)[],
  options: Parameters<ExtensionAPI["sendUserMessage"]>[1] = {},
): void {
  const agent = host.agent;
  if (agent.isStreaming() && !options.deliverAs) throw new Error(STREAMING_WITHOUT_DELIVERY);
  const parts = typeof content === "string" ? [{ type: "text" as const, text: content }] : Array.isArray(content) ? content : [];
  const text = parts
    .filter((part): part is TextContent => part?.type === "text")
    .map((part) => part.text)
    .join("\n");
  const images = parts.filter((part): part is ImageContent => part?.type === "image");
  const input: InputEvent = {
    text,
    ...(images.length > 0 ? { images } : {}),
    source: "extension" as const,
    via: "prompt" as const,
    ...(options.deliverAs ? { streamingBehavior: options.deliverAs } : {}),
  };
  const send = async () => {
    // Commands and templates expand only when asked (pi): an extension's own text is sent as written.
    const expanded = options.expandPromptTemplates ? await host.slash.expand(input) : input;
    // A refusal (`/skill:` naming no skill) is the extension's error to see, not a message lost in silence.
    if (expanded.rejected !== undefined) throw new Error(expanded.rejected);
    if (expanded.handled) return;
    await agent.prompt({
      text: expanded.text,
      ...(expanded.images ? { images: expanded.images } : {}),
      source: "extension",
      ...(expanded.streamingBehavior ? { streamingBehavior: expanded.streamingBehavior } : {}),
    });
  };
  void send().catch((error: unknown) => host.report(record.path, "sendUserMessage", error));
}

export function toCustomMessage(input: { customType: string; content: CustomMessage["content"]; display?: boolean; details?: unknown }): CustomMessage {
  if (typeof input?.customType !== "string" || input.customType === "") throw new TypeError("A custom message needs a customType string");
  const content = typeof input.content === "string" || Array.isArray(input.content) ? input.content : String(input.content ?? "");
  return {
    role: "custom",
    customType: input.customType,
    content,
    display: input.display !== false,
    ...(input.details !== undefined ? { details: input.details } : {}),
    timestamp: Date.now(),
  };
}
