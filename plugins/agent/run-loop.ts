/**
 * One run of the agent: turns of "deliver pending user messages -> stream the assistant ->
 * execute its tool calls", until the model stops and no steering or follow-up is waiting.
 * Provider-agnostic: the model is reached through `hooks.stream`, tools through the registry.
 */
import { announce } from "../../kernel/index.js";
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultMessage, UserMessage } from "../../lib/llm/index.js";
import { endMessage } from "./hooks.js";
import type { QueuedMessage } from "./queue.js";
import type { Run } from "./run.js";
import { streamAssistant } from "./stream-turn.js";
import { executeToolCalls } from "./tool-execution.js";

/** A queued entry as the message it delivers: the user's text, or an extension's custom message. */
export function queuedToMessage(queued: QueuedMessage): AgentMessage {
  return queued.custom ?? toUserMessage(queued.text, queued.images);
}

export function toUserMessage(text: string, images?: QueuedMessage["images"]): UserMessage {
  const timestamp = Date.now();
  if (!images || images.length === 0) return { role: "user", content: text, timestamp };
  return { role: "user", content: [{ type: "text", text }, ...images], timestamp };
}

/** The user messages that open a run; `fromQueue` when some were taken from the queues. */
export interface Opening {
  messages: AgentMessage[];
  fromQueue: boolean;
}

/**
 * Runs turns until the agent would stop. `opening` holds the messages that open the run (none
 * for a continuation). Returns the messages this run produced, for agent_end.
 */
export async function runTurns(run: Run, opening: Opening): Promise<AgentMessage[]> {
  const { signal, deps } = run;
  const produced: AgentMessage[] = [];
  let pending = opening.messages;
  let pendingFromQueue = opening.fromQueue;
  if (pending.length === 0 && !signal.aborted) {
    // A continuation's next LLM call is the "next LLM call" steering waits for.
    const steering = deps.takeSteering();
    pending = steering.map(queuedToMessage);
    pendingFromQueue = steering.length > 0;
  }
  for (let turnIndex = 0; ; turnIndex++) {
    await announce(run, "turn_start", {}, { turnIndex });
    // The queue_update for dequeued messages precedes their message_start.
    if (pendingFromQueue) deps.emitQueueUpdate();
    for (const message of pending) {
      run.messages.push(message);
      await announce(run, "message_start", { message });
      produced.push(await endMessage(run, message, run.messages));
    }

    const assistant = await streamAssistant(run);
    produced.push(assistant);

    if (assistant.stopReason === "error" || assistant.stopReason === "aborted") {
      await announce(run, "turn_end", { message: assistant, toolResults: [] }, { turnIndex });
      return produced;
    }

    const calls = assistant.content.filter((block): block is ToolCall => block.type === "toolCall");
    const batch = calls.length > 0 ? await executeToolCalls(run, calls) : { results: [] as ToolResultMessage[], terminate: false };
    const toolResults = batch.results;
    produced.push(...toolResults);
    await announce(run, "turn_end", { message: assistant, toolResults }, { turnIndex });

    if (signal.aborted) {
      // Aborted while its tools ran: the model wanted another call, so the run closes with an
      // aborted assistant turn (no provider call). A finished answer just ends the run. Queued
      // messages stay queued for the next prompt either way.
      if (calls.length === 0) return produced;
      pending = [];
      pendingFromQueue = false;
      continue;
    }
    const steering = deps.takeSteering();
    // A batch whose every result said `terminate` ends like a final answer: no further LLM call.
    if ((calls.length > 0 && !batch.terminate) || steering.length > 0) {
      pending = steering.map(queuedToMessage);
      pendingFromQueue = steering.length > 0;
      continue;
    }
    const followUps = deps.takeFollowUp();
    if (followUps.length === 0) return produced;
    pending = followUps.map(queuedToMessage);
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
