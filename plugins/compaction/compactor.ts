/**
 * One compaction, start to commit, without events: prepare the region, let
 * `session_before_compact` taps cancel or supply the text, else plan and rebuild the lines, then
 * check the file, back it up and append the compaction entry. Failures throw before anything is
 * written: `Nothing to compact (session too small)`, `Compaction cancelled`, or a
 * `CompactionFailure` the caller words for its trigger.
 */
import { ErrorCode, KernelError } from "../../kernel/index.js";
import type { CompactionEntry } from "../session/api.js";
import type { CompactionParameters, CompactionReason, CompactionResult, CompactionSettings, CompactionStats } from "./api.js";
import type { AgentApi } from "../agent/api.js";
import { estimateMessageTokens, VERBATIM_STRATEGY, type SessionApi } from "../session/api.js";
import { SessionBackup } from "./backup.js";
import type { CompactionHooks } from "./hooks.js";
import { frozenPreparation, readVerdict, type TapDecision } from "./hook-payload.js";
import { planDeletions, type PlannerDeps } from "./planner.js";
import { cancelled, CompactionFailure, contextTokens, hasTaps, NOTHING_TO_COMPACT } from "./outcome.js";
import { PROMPT_VERSION } from "./prompt.js";
import { reconstruct } from "./reconstruct.js";
import { fitsInRecentBudget, MIN_REGION_LINES, prepareRegion, type Region } from "./region.js";
import type { PlannerRetrySettings } from "./settings.js";

export { CompactionFailure, contextTokens, hasTaps, NOTHING_TO_COMPACT } from "./outcome.js";

export interface CompactorDeps {
  agent: AgentApi;
  session: SessionApi;
  hooks: Pick<CompactionHooks, "session_before_compact">;
  settings: CompactionSettings;
  retry: PlannerRetrySettings;
  emit: PlannerDeps["emit"];
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

export async function runCompaction(deps: CompactorDeps, request: CompactionRequest): Promise<Committed> {
  const { agent, session } = deps;
  const { signal } = request;
  const path = session.branch();
  const region = prepareRegion(path, request.preserveRecent, request.query);
  if (region.lines.length < (request.loadBearing ? 1 : MIN_REGION_LINES)) throw new KernelError(ErrorCode.CONFLICT, NOTHING_TO_COMPACT);
  const budget = deps.settings.keepRecentTokens;
  if (!request.loadBearing && budget !== undefined && fitsInRecentBudget(region, budget)) throw new KernelError(ErrorCode.CONFLICT, NOTHING_TO_COMPACT);
  request.onReady?.();
  if (!agent.getModel()) throw new CompactionFailure("No model selected.");
  const tokensBefore = contextTokens(session.context().messages);
  const parameters: CompactionParameters = { compression_ratio: request.compressionRatio, preserve_recent: request.preserveRecent, query: region.query };

  const file = session.sessionFile();
  const backup = file === undefined ? undefined : await guardFile(() => SessionBackup.start(file, session, request.reason));
  let committed: Committed | undefined;
  try {
    let decision: TapDecision = { kind: "none" };
    const hook = deps.hooks.session_before_compact;
    if (hasTaps(hook)) {
      const { preparation, branchEntries } = frozenPreparation(region, tokensBefore, deps.settings, path);
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
    if (decision.kind === "invalid") throw new CompactionFailure(decision.reason, true);

    const produced = decision.kind === "text" ? supplied(decision, region) : await planned(deps, request, region);
    if (signal.aborted) throw cancelled();
    const { text, firstKeptEntryId } = produced;
    const L = region.lines.length;
    const tokensAfter = Math.ceil(text.length / 4) + (firstKeptEntryId === null ? 0 : produced.tailTokens);
    const stats: CompactionStats = {
      linesBefore: L,
      linesDeleted: produced.linesDeleted,
      linesKept: L - produced.linesDeleted,
      rangeCount: produced.rangeCount,
      tokensBefore,
      tokensAfter,
      percentReduction: tokensBefore > 0 ? Math.round((1 - tokensAfter / tokensBefore) * 1000) / 10 : 0,
    };
    const result: CompactionResult = { compactedText: text, firstKeptEntryId, tokensBefore, promptVersion: PROMPT_VERSION, parameters, rung: produced.rung, stats };
    const details: Record<string, unknown> = { strategy: VERBATIM_STRATEGY, promptVersion: PROMPT_VERSION, parameters, stats, rung: produced.rung };
    if (backup) result.backupPath = details.backupPath = await guardFile(() => backup.confirm());
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
    committed = { result, entry, fromExtension };
    await session.flush();
    return committed;
  } finally {
    if (!committed) await backup?.discard();
  }
}

interface Produced {
  text: string;
  rung: string;
  linesDeleted: number;
  rangeCount: number;
  firstKeptEntryId: string | null;
  tailTokens: number;
}

/** A tap's own text (rung "extension"): it counts as keeping its own lines. */
function supplied(decision: Extract<TapDecision, { kind: "text" }>, region: Region): Produced {
  return {
    text: decision.text,
    rung: "extension",
    linesDeleted: Math.max(0, region.lines.length - decision.text.split("\n").length),
    rangeCount: 0,
    firstKeptEntryId: decision.firstKeptEntryId,
    tailTokens: decision.tail.reduce((sum, item) => sum + estimateMessageTokens(item.message), 0),
  };
}

/** The planner's deletions applied; load-bearing and no usable plan: the whole region goes (rung "fresh"). */
async function planned(deps: CompactorDeps, request: CompactionRequest, region: Region): Promise<Produced> {
  const { agent } = deps;
  const planner: PlannerDeps = {
    complete: (r) => agent.complete(r),
    model: agent.getModel()!,
    thinkingLevel: agent.getThinkingLevel(),
    retry: deps.retry,
    reason: request.reason,
    emit: deps.emit,
  };
  const outcome = await planDeletions(planner, { lines: region.lines, compressionRatio: request.compressionRatio, query: region.query, signal: request.signal });
  if (!outcome.ok && !request.loadBearing) throw new CompactionFailure(outcome.error);
  const rebuilt = reconstruct(region.lines, outcome.ok ? outcome.ranges : [{ start: 1, end: region.lines.length }]);
  return {
    text: rebuilt.text,
    rung: outcome.ok ? "planned" : "fresh",
    linesDeleted: rebuilt.linesDeleted,
    rangeCount: rebuilt.rangeCount,
    firstKeptEntryId: region.firstKeptEntryId,
    tailTokens: region.tailTokens,
  };
}

/** File trouble (read-only, gone) as a compaction failure with its readable message. */
async function guardFile<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    throw new CompactionFailure(error instanceof Error ? error.message : String(error));
  }
}
