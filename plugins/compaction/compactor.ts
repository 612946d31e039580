/**
 * One compaction, start to commit, without events: prepare the region, let
 * `session_before_compact` taps cancel or supply the text, else plan and rebuild the lines, then
 * check the file, back it up and append the compaction entry. Failures throw before anything is
 * written: `Nothing to compact (session too small)`, `Compaction cancelled`, or a
 * `CompactionFailure` the caller words for its trigger.
 */
import {
  ErrorCode,
  KernelError,
  type AgentMessage,
  type CompactionEntry,
  type CompactionParameters,
  type CompactionReason,
  type CompactionResult,
  type CompactionSettings,
  type CompactionStats,
  type Hooks,
} from "../../kernel/index.js";
import type { AgentApi } from "../agent/api.js";
import { estimateContextTokens, estimateMessageTokens, type SessionApi } from "../session/api.js";
import { assertWritable, BACKUP_LABEL, backupSession } from "./backup.js";
import { frozenPreparation, readVerdict } from "./hook-payload.js";
import { cancelled, planDeletions, type PlannerHost } from "./planner.js";
import { PROMPT_VERSION } from "./prompt.js";
import { reconstruct } from "./reconstruct.js";
import { MIN_REGION_LINES, prepareRegion } from "./region.js";
import type { PlannerRetrySettings } from "./settings.js";

export const NOTHING_TO_COMPACT = "Nothing to compact (session too small)";
export const STRATEGY = "verbatim-lines";

/** A compaction that could not produce a usable result; the message has no trigger prefix yet. */
export class CompactionFailure extends KernelError {
  constructor(message: string) {
    super(ErrorCode.UNAVAILABLE, message);
  }
}

export interface CompactorHost {
  agent: AgentApi;
  session: SessionApi;
  hooks: Pick<Hooks, "session_before_compact">;
  settings: CompactionSettings;
  retry: PlannerRetrySettings;
  emit: PlannerHost["emit"];
}

export interface CompactionRequest {
  reason: CompactionReason;
  preserveRecent: number;
  compressionRatio: number;
  query?: string;
  customInstructions?: string;
  signal: AbortSignal;
  /** The context no longer fits: any region is worth compacting, and a failed plan deletes the whole region (rung "fresh"). */
  loadBearing: boolean;
  /** Called once the region is big enough to compact (automatic compaction announces itself then). */
  onReady?: () => void;
}

export interface Committed {
  result: CompactionResult;
  entry: CompactionEntry;
  fromExtension: boolean;
}

/**
 * Whether anyone tapped `hook`. tapable's `isUsed()` also counts interceptors, and every hook
 * carries the kernel's policy interceptor, so it is always true; the payload here costs a deep
 * copy of the branch.
 */
export function hasTaps(hook: { taps: readonly unknown[] }): boolean {
  return hook.taps.length > 0;
}

/** Tokens the context occupies: the last usage plus what follows, or every message estimated. */
export function contextTokens(messages: readonly AgentMessage[]): number {
  return estimateContextTokens(messages) ?? messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0);
}

export async function runCompaction(host: CompactorHost, request: CompactionRequest): Promise<Committed> {
  const { agent, session } = host;
  const { signal } = request;
  const path = session.branch();
  const region = prepareRegion(path, request.preserveRecent, request.query);
  if (region.lines.length < (request.loadBearing ? 1 : MIN_REGION_LINES)) throw new KernelError(ErrorCode.CONFLICT, NOTHING_TO_COMPACT);
  request.onReady?.();
  const model = agent.getModel();
  if (!model) throw new CompactionFailure("No model selected.");
  const tokensBefore = contextTokens(session.context().messages);
  const parameters: CompactionParameters = { compression_ratio: request.compressionRatio, preserve_recent: request.preserveRecent, query: region.query };

  let decision: ReturnType<typeof readVerdict> = { kind: "none" };
  const hook = host.hooks.session_before_compact;
  if (hasTaps(hook)) {
    const { preparation, branchEntries } = frozenPreparation(region, tokensBefore, host.settings, path);
    const verdict = await hook.promise({
      reason: request.reason,
      parameters,
      preparation,
      branchEntries,
      ...(request.customInstructions !== undefined ? { customInstructions: request.customInstructions } : {}),
      signal,
    });
    decision = readVerdict(verdict, region, path);
  }
  if (decision.kind === "cancel" || signal.aborted) throw cancelled();
  if (decision.kind === "invalid") throw new CompactionFailure(decision.reason);

  const L = region.lines.length;
  let text: string;
  let rung: string;
  let linesDeleted: number;
  let rangeCount: number;
  let firstKeptEntryId = region.firstKeptEntryId;
  let tailTokens = region.tailTokens;
  if (decision.kind === "text") {
    text = decision.text;
    rung = "extension";
    linesDeleted = Math.max(0, L - text.split("\n").length);
    rangeCount = 0;
    firstKeptEntryId = decision.firstKeptEntryId;
    tailTokens = decision.tail.reduce((sum, item) => sum + estimateMessageTokens(item.message), 0);
  } else {
    const planner: PlannerHost = { complete: (r) => agent.complete(r), model, thinkingLevel: agent.getThinkingLevel(), retry: host.retry, reason: request.reason, emit: host.emit };
    const outcome = await planDeletions(planner, { lines: region.lines, compressionRatio: request.compressionRatio, query: region.query, signal });
    if (!outcome.ok && !request.loadBearing) throw new CompactionFailure(outcome.error);
    // Load-bearing and no usable plan: everything in the region goes (one marker).
    const rebuilt = reconstruct(region.lines, outcome.ok ? outcome.ranges : [{ start: 1, end: L }]);
    text = rebuilt.text;
    rung = outcome.ok ? "planned" : "fresh";
    linesDeleted = rebuilt.linesDeleted;
    rangeCount = rebuilt.rangeCount;
  }
  if (signal.aborted) throw cancelled();

  const tokensAfter = Math.ceil(text.length / 4) + (firstKeptEntryId === null ? 0 : tailTokens);
  const stats: CompactionStats = {
    linesBefore: L,
    linesDeleted,
    linesKept: L - linesDeleted,
    rangeCount,
    tokensBefore,
    tokensAfter,
    percentReduction: tokensBefore > 0 ? Math.round((1 - tokensAfter / tokensBefore) * 1000) / 10 : 0,
  };
  const result: CompactionResult = { compactedText: text, firstKeptEntryId, tokensBefore, promptVersion: PROMPT_VERSION, parameters, rung, stats };
  const backupPath = await prepareFile(session, request.reason, signal);
  if (backupPath !== undefined) result.backupPath = backupPath;

  const details: Record<string, unknown> = { strategy: STRATEGY, promptVersion: PROMPT_VERSION, parameters, stats, rung };
  if (backupPath !== undefined) details.backupPath = backupPath;
  if (decision.kind === "text" && decision.details !== undefined) details.extension = decision.details;
  const fromExtension = decision.kind === "text";
  const entry = session.append({
    type: "compaction",
    summary: text,
    firstKeptEntryId,
    tokensBefore,
    details,
    ...(fromExtension ? { fromHook: true } : {}),
  }) as CompactionEntry;
  await session.flush();
  return { result, entry, fromExtension };
}

/** A persisted session: writable, flushed, and backed up; the backup's path. In memory: nothing. */
async function prepareFile(session: SessionApi, reason: CompactionReason, signal: AbortSignal): Promise<string | undefined> {
  const file = session.sessionFile();
  if (file === undefined) return undefined;
  try {
    await session.flush();
    await assertWritable(file);
    if (signal.aborted) throw cancelled();
    return await backupSession(file, BACKUP_LABEL[reason]);
  } catch (error) {
    if (error instanceof KernelError) throw error;
    throw new CompactionFailure(error instanceof Error ? error.message : String(error));
  }
}
