/**
 * One run of the agent: turns of "deliver pending user messages -> stream the assistant ->
 * execute its tool calls", until the model stops and no steering or follow-up is waiting.
 * Provider-agnostic: the model is reached through `hooks.stream`, tools through the registry.
 */
import type {
  AgentMessage,
  AssistantMessage,
  EventBus,
  Hooks,
  ToolCall,
  ToolRegistry,
  ToolResultMessage,
  UserMessage,
} from "../../kernel/index.js";
import type { QueuedMessage } from "./queue.js";
import { notify } from "./notify.js";
import { streamAssistant, type StreamHost } from "./stream-turn.js";
import { executeToolCalls } from "./tool-execution.js";

export interface RunHost extends StreamHost {
  hooks: Hooks;
  events: EventBus;
  tools: ToolRegistry;
  cwd: string;
  messages: AgentMessage[];
  /** Takes the steering messages due at this delivery point (per steering mode). */
  takeSteering(): QueuedMessage[];
  takeFollowUp(): QueuedMessage[];
  emitQueueUpdate(): void;
}

export function queuedToUserMessage(queued: QueuedMessage): UserMessage {
  return toUserMessage(queued.text, queued.images);
}

export function toUserMessage(text: string, images?: QueuedMessage["images"]): UserMessage {
  const timestamp = Date.now();
  if (!images || images.length === 0) return { role: "user", content: text, timestamp };
  return { role: "user", content: [{ type: "text", text }, ...images], timestamp };
}

/**
 * Runs turns until the agent would stop. `initial` are the user messages that open the run
 * (empty for a continuation). Returns the messages this run produced, for agent_end.
 */
export async function runTurns(host: RunHost, initial: AgentMessage[], signal: AbortSignal): Promise<AgentMessage[]> {
  const produced: AgentMessage[] = [];
  let pending = initial;
  let pendingFromQueue = false;
  for (let turnIndex = 0; ; turnIndex++) {
    await notify(host, "turn_start", {}, { turnIndex });
    if (pendingFromQueue) host.emitQueueUpdate();
    for (const message of pending) {
      host.messages.push(message);
      produced.push(message);
      await notify(host, "message_start", { message });
      await notify(host, "message_end", { message });
    }

    const assistant = await streamAssistant(host, signal);
    produced.push(assistant);

    if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
      await notify(host, "turn_end", { message: assistant, toolResults: [] }, { turnIndex });
      return produced;
    }

    const calls = assistant.content.filter((block): block is ToolCall => block.type === "toolCall");
    const toolResults: ToolResultMessage[] = calls.length > 0 ? await executeToolCalls(host, calls, signal) : [];
    produced.push(...toolResults);
    await notify(host, "turn_end", { message: assistant, toolResults }, { turnIndex });
    if (signal.aborted) return produced;

    const steering = host.takeSteering();
    if (calls.length > 0 || steering.length > 0) {
      pending = steering.map(queuedToUserMessage);
      pendingFromQueue = steering.length > 0;
      continue;
    }
    const followUps = host.takeFollowUp();
    if (followUps.length === 0) return produced;
    pending = followUps.map(queuedToUserMessage);
    pendingFromQueue = true;
  }
}

export function lastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === "assistant") return message;
  }
  return undefined;
}
