/**
 * The life of one accepted prompt: system prompt -> run_start (the context edit allowed before
 * the first LLM call) -> agent_start -> turns -> agent_end -> run_end (a tap may edit the context
 * and ask for a continuation: retry, overflow compaction) -> messages deferred during the run are
 * stored -> agent_settled. Even a bug inside the loop closes the run with agent_end.
 */
import { announce, type Logger } from "../../kernel/index.js";
import type { AgentMessage, CustomMessage, ImageContent } from "../../lib/llm/index.js";
import type { AgentHooks, AnnounceTarget } from "./hooks.js";
import { lastAssistant, runTurns, type Opening, type RunHost } from "./run-loop.js";

export interface DriverHost extends AnnounceTarget {
  hooks: AgentHooks;
  log: Logger;
  messages: AgentMessage[];
  /** The RunHost for one pass of turns (its system prompt fixed for the run). */
  runHost(systemPrompt: string): RunHost;
  systemPromptBase(): Promise<string>;
  /** Stores the messages deferred while the run streamed (user bash results, next-turn notes). */
  flushDeferred(): Promise<void>;
}

/** Replaces the live context in place (the run holds a reference to the array). */
export function replaceInPlace(target: AgentMessage[], messages: readonly AgentMessage[]): void {
  target.length = 0;
  for (const message of messages) target.push(message);
}

/** A context edit usable only while its hook runs. */
function edgeEdit(host: DriverHost, signal: AbortSignal) {
  let open = true;
  const event = {
    messages: host.messages as readonly AgentMessage[],
    signal,
    setContext(messages: AgentMessage[]) {
      if (!open) throw new Error("setContext is only allowed while the run_start/run_end hook runs");
      replaceInPlace(host.messages, messages);
    },
  };
  return { event, close: () => (open = false) };
}

export async function driveRun(host: DriverHost, opening: Opening, prompt: string, images: ImageContent[] | undefined, signal: AbortSignal): Promise<void> {
  const hooks = host.hooks;
  try {
    let systemPrompt = await host.systemPromptBase();
    if (hooks.before_agent_start.isUsed()) {
      const inject: CustomMessage[] = [];
      const result = await hooks.before_agent_start.promise({ prompt, ...(images ? { images } : {}), systemPrompt, inject });
      systemPrompt = result.systemPrompt;
      // Extension notes travel with the prompt: stored after it, sent with it.
      if (result.inject.length > 0) opening = { ...opening, messages: [...opening.messages, ...result.inject] };
    }
    if (hooks.run_start.isUsed() && !signal.aborted) {
      const edit = edgeEdit(host, signal);
      try {
        await hooks.run_start.promise(edit.event);
      } finally {
        edit.close();
      }
    }
    let initial: Opening = opening;
    for (;;) {
      await announce(host, "agent_start", {});
      let produced: AgentMessage[] = [];
      try {
        produced = await runTurns(host.runHost(systemPrompt), initial, signal);
      } finally {
        await announce(host, "agent_end", { messages: produced });
      }
      // A continuation opens with no new message of its own.
      initial = { messages: [], fromQueue: false };
      if (signal.aborted || !hooks.run_end.isUsed()) break;
      const edit = edgeEdit(host, signal);
      let verdict;
      try {
        verdict = await hooks.run_end.promise({ ...edit.event, produced, lastAssistant: lastAssistant(produced) });
      } finally {
        edit.close();
      }
      if (!verdict?.continue || signal.aborted) break;
    }
  } catch (error) {
    host.log.error(`agent run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
}

/** After the run: deferred messages are stored, then `agent_settled` fires once (`aborted`: an abort ended the run). */
export async function settleRun(host: DriverHost, aborted: boolean): Promise<void> {
  try {
    await host.flushDeferred();
  } catch (error) {
    host.log.error(`storing deferred messages failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (host.hooks.agent_settled.isUsed()) await host.hooks.agent_settled.promise({ aborted });
}
