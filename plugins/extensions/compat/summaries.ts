/**
 * pi's LLM summaries for extensions: a conversation summary (or an update of an earlier one), a
 * compaction from the `session_before_compact` preparation, and the summary of an abandoned
 * branch. Each is one call through the running agent's providers (`complete`, bound by the
 * loader), or through the `streamFn` an extension passes. Atomic's own compaction keeps text
 * verbatim; these exist for extensions that write summaries themselves. The prompts are Atomic's.
 */
import { type AssistantMessage, type LlmMessage, type Model, sumUsage, type ThinkingLevel, type Usage } from "../../../lib/llm/index.js";
import { toLlmMessages } from "../../agent/api.js";
import type { Context, SimpleStreamOptions } from "../types/llm.js";
import type { StreamFn } from "./agent-types.js";
import { type FileOperations, fileListBlocks, fileLists, prepareBranchEntries } from "./branch-entries.js";
import type { ContextMessage, SessionEntry } from "./session-context.js";
import { serializeConversation } from "./helpers.js";

export type Complete = (model: Model, context: Context, options?: SimpleStreamOptions) => Promise<AssistantMessage>;

const SYSTEM_PROMPT =
  "You write summaries of conversations between a user and a coding assistant. Read the conversation you are given and write only the summary, in the format asked for. Do not continue the conversation, answer its questions or call tools.";

const SECTIONS = `## Goal
What the user is trying to achieve (several goals: a short list).

## Constraints & Preferences
- Requirements and preferences the user stated, or "(none)".

## Progress
### Done
- [x] Finished work
### In Progress
- [ ] Work started and not finished
### Blocked
- Problems in the way, if any

## Key Decisions
- **Decision**: why it was taken

## Next Steps
1. What comes next, in order

## Critical Context
- Data, references or findings needed to carry on, or "(none)".

Be brief in every section. Keep file paths, function names and error messages exactly as written.`;

const NEW_SUMMARY = `Summarise the conversation above so that another assistant can carry on the work from it, in this format:\n\n${SECTIONS}`;
const UPDATED_SUMMARY = `The messages above are new since the summary in <previous-summary>. Rewrite that summary to include them: keep what still holds, move finished items to Done, add new decisions and context, and update the next steps. Use this format:\n\n${SECTIONS}`;
const TURN_PREFIX = `The conversation above is the first part of a turn that is too long to keep whole; its end is kept verbatim. Summarise this part so the kept end makes sense:

## Original Request
What the user asked for in this turn.

## Early Progress
- Decisions and work done in this part.

## Context for Suffix
- What is needed to understand the kept end.

Be brief.`;
const BRANCH_SUMMARY = `Summarise this conversation branch, which the user left, so the work can be picked up from it later, in this format:\n\n${SECTIONS}`;
const BRANCH_PREAMBLE = "The user left the conversation for a while on another branch. What happened there:\n\n";

/** pi's positional options of the summary calls (`headers`, `env` and `apiKey` are not used: Atomic's providers bring their own credentials). */
interface CallOptions {
  signal?: AbortSignal;
  thinkingLevel?: ThinkingLevel;
  streamFn?: StreamFn;
  sessionId?: string;
}

/** Summary messages (branch, compaction) as user text, then the rest as the model would see it. */
function conversationText(messages: readonly ContextMessage[]): string {
  const asText = messages.map((message) =>
    message.role === "branchSummary" || message.role === "compactionSummary"
      ? {
          role: "user",
          content: [{ type: "text", text: `[${message.role === "branchSummary" ? "Branch summary" : "Summary of earlier conversation"}]\n${message.summary}` }],
          timestamp: message.timestamp,
        }
      : message,
  );
  return serializeConversation(toLlmMessages(asText as unknown as Parameters<typeof toLlmMessages>[0]));
}

async function callModel(complete: Complete, model: Model, prompt: string, label: string, options: CallOptions): Promise<AssistantMessage> {
  const user: LlmMessage = { role: "user", content: [{ type: "text", text: prompt }], timestamp: Date.now() };
  const context: Context = { systemPrompt: SYSTEM_PROMPT, messages: [user] };
  const request: SimpleStreamOptions = {
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
    ...(model.reasoning && options.thinkingLevel && options.thinkingLevel !== "off" ? { reasoning: options.thinkingLevel } : {}),
  };
  const response = options.streamFn ? await finalOf(options.streamFn, model, context, request) : await complete(model, context, request);
  if (response.stopReason === "aborted") throw Object.assign(new Error(`${label} was aborted`), { name: "AbortError" });
  if (response.stopReason === "error") throw new Error(`${label} failed: ${response.errorMessage || "the provider gave no reason"}`);
  if (response.stopReason === "length") throw new Error(`${label} failed: the model reached its output limit before the summary was complete`);
  if (response.content.some((block) => block.type === "toolCall")) throw new Error(`${label} failed: the model called a tool instead of writing a summary`);
  return response;
}

async function finalOf(streamFn: StreamFn, model: Model, context: Context, options: SimpleStreamOptions): Promise<AssistantMessage> {
  const stream = await streamFn(model, context, options);
  const withResult = stream as { result?: () => Promise<AssistantMessage> };
  if (typeof withResult.result === "function") return withResult.result();
  let final: AssistantMessage | undefined;
  for await (const event of stream) if (event.type === "done" || event.type === "error") final = event.type === "done" ? event.message : event.error;
  if (!final) throw new Error(`The stream for ${model.provider}/${model.id} ended without a final message`);
  return final;
}

const textOf = (message: AssistantMessage) =>
  message.content
    .filter((block) => block.type === "text")
    .map((block) => (block as { text: string }).text)
    .join("");

/** pi's `CompactionPreparation` as `session_before_compact` hands it over (Atomic's preparation has these fields). */
export interface CompactionPreparation {
  firstKeptEntryId: string | null;
  messagesToSummarize: ContextMessage[];
  turnPrefixMessages: ContextMessage[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: FileOperations;
}

export interface CompactionResult {
  summary: string;
  /** null: nothing is kept after the summary (Atomic's preparation with `preserve_recent` 0). */
  firstKeptEntryId: string | null;
  tokensBefore: number;
  usage?: Usage;
  details: { readFiles: string[]; modifiedFiles: string[] };
}

export interface GenerateBranchSummaryOptions extends CallOptions {
  model: Model;
  signal: AbortSignal;
  apiKey?: string;
  headers?: Record<string, string>;
  env?: Record<string, string>;
  customInstructions?: string;
  /** `customInstructions` replace Atomic's prompt instead of adding to it. */
  replaceInstructions?: boolean;
  /** Tokens of the context window left out of the branch's budget (default 16,384). */
  reserveTokens?: number;
}

export interface BranchSummaryResult {
  summary?: string;
  usage?: Usage;
  readFiles?: string[];
  modifiedFiles?: string[];
  aborted?: boolean;
  error?: string;
}

/** The summary functions with their LLM call bound (`complete`: the running agent's providers). */
export function summaryFunctions(complete: Complete) {
  /** pi's positional signature: `(messages, model, reserveTokens (unused), apiKey, headers, signal, customInstructions, previousSummary, thinkingLevel, streamFn, env, retry, callbacks, sessionId)`. */
  async function generateSummaryWithUsage(
    messages: ContextMessage[],
    model: Model,
    _reserveTokens?: number,
    _apiKey?: string,
    _headers?: Record<string, string>,
    signal?: AbortSignal,
    customInstructions?: string,
    previousSummary?: string,
    thinkingLevel?: ThinkingLevel,
    streamFn?: StreamFn,
    _env?: Record<string, string>,
    _retry?: unknown,
    _callbacks?: unknown,
    sessionId?: string,
  ): Promise<{ text: string; usage: Usage }> {
    let prompt = `<conversation>\n${conversationText(messages)}\n</conversation>\n\n`;
    if (previousSummary) prompt += `<previous-summary>\n${previousSummary}\n</previous-summary>\n\n`;
    prompt += previousSummary ? UPDATED_SUMMARY : NEW_SUMMARY;
    if (customInstructions) prompt += `\n\nAlso focus on: ${customInstructions}`;
    const response = await callModel(complete, model, prompt, "Summarization", { signal, thinkingLevel, streamFn, sessionId });
    return { text: textOf(response), usage: response.usage };
  }

  async function generateSummary(...args: Parameters<typeof generateSummaryWithUsage>): Promise<string> {
    return (await generateSummaryWithUsage(...args)).text;
  }

  /** pi's positional signature: `(preparation, model, apiKey, headers, customInstructions, signal, thinkingLevel, streamFn, env, retry, callbacks, sessionId)`. */
  async function compact(
    preparation: CompactionPreparation,
    model: Model,
    apiKey?: string,
    headers?: Record<string, string>,
    customInstructions?: string,
    signal?: AbortSignal,
    thinkingLevel?: ThinkingLevel,
    streamFn?: StreamFn,
    env?: Record<string, string>,
    retry?: unknown,
    callbacks?: unknown,
    sessionId?: string,
  ): Promise<CompactionResult> {
    const { messagesToSummarize, turnPrefixMessages, isSplitTurn, previousSummary } = preparation;
    const history = (messages: ContextMessage[]) =>
      generateSummaryWithUsage(messages, model, undefined, apiKey, headers, signal, customInstructions, previousSummary, thinkingLevel, streamFn, env, retry, callbacks, sessionId);
    let summary: string;
    let usage: Usage | undefined;
    if (isSplitTurn && turnPrefixMessages.length > 0) {
      const earlier = messagesToSummarize.length > 0 ? await history(messagesToSummarize) : undefined;
      let prompt = `<conversation>\n${conversationText(turnPrefixMessages)}\n</conversation>\n\n${TURN_PREFIX}`;
      if (customInstructions) prompt += `\n\nAlso focus on: ${customInstructions}`;
      const prefix = await callModel(complete, model, prompt, "Turn prefix summarization", { signal, thinkingLevel, streamFn, sessionId });
      summary = `${earlier?.text ?? previousSummary ?? "No earlier history."}\n\n---\n\n**Turn Context (split turn):**\n\n${textOf(prefix)}`;
      usage = earlier ? sumUsage(earlier.usage, prefix.usage) : prefix.usage;
    } else {
      ({ text: summary, usage } = await history(messagesToSummarize));
    }
    const lists = fileLists(preparation.fileOps);
    return { summary: summary + fileListBlocks(lists), firstKeptEntryId: preparation.firstKeptEntryId, tokensBefore: preparation.tokensBefore, usage, details: lists };
  }

  /** An abandoned branch's summary; failures and aborts are answered (`error`, `aborted`), not thrown, as in pi. */
  async function generateBranchSummary(entries: SessionEntry[], options: GenerateBranchSummaryOptions): Promise<BranchSummaryResult> {
    const { model, customInstructions, replaceInstructions, reserveTokens = 16384 } = options;
    const { messages, fileOps } = prepareBranchEntries(entries, (model.contextWindow || 128000) - reserveTokens);
    if (messages.length === 0) return { summary: "No content to summarize" };
    const instructions =
      replaceInstructions && customInstructions ? customInstructions : customInstructions ? `${BRANCH_SUMMARY}\n\nAlso focus on: ${customInstructions}` : BRANCH_SUMMARY;
    const prompt = `<conversation>\n${conversationText(messages)}\n</conversation>\n\n${instructions}`;
    let response: AssistantMessage;
    try {
      response = await callModel(complete, model, prompt, "Branch summarization", options);
    } catch (error) {
      if (options.signal.aborted || (error as Error).name === "AbortError") return { aborted: true };
      return { error: (error as Error).message };
    }
    const lists = fileLists(fileOps);
    return { summary: BRANCH_PREAMBLE + textOf(response) + fileListBlocks(lists), usage: response.usage, ...lists };
  }

  return { generateSummary, generateSummaryWithUsage, compact, generateBranchSummary };
}
