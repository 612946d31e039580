/**
 * What the grep tool does (grep.ts declares it): loaded on its first call, so a start that never
 * greps does not evaluate the search, the file reader or the walk.
 */
import { stat } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import type { ToolExecutionContext, ToolResult } from "../../kernel/index.js";
import { DEFAULT_MAX_BYTES, formatSize } from "../../lib/truncate/index.js";
import { AheadReader, MAX_LINE_BYTES, streamChunks } from "./grep-read.js";
import { DEFAULT_GREP_LIMIT, MAX_LINE_CHARS } from "./grep-limits.js";
import { GrepOutput } from "./grep-output.js";
import { fsError, optionalPath, resolveToolPath, throwIfAborted } from "./paths.js";
import { LINE_DEADLINE_MS } from "./regex-protocol.js";
import { RegexLineError, type RegexWorkers } from "./regex-search.js";
import { anyDepthGlob, listFiles } from "./walk.js";
import { excludedWithin, withoutExcluded, type GuardSource } from "./sandboxed.js";

export interface GrepArgs {
  pattern: string;
  path?: string | undefined;
  glob?: string | undefined;
  ignoreCase?: boolean | undefined;
  literal?: boolean | undefined;
  context?: number | undefined;
  limit?: number | undefined;
}

/**
 * Bytes and texts sent to the worker at once: few messages for many small files, bounded memory.
 * Batches start small and double, so a search that hits its limit early reads little ahead.
 */
const FIRST_BATCH_BYTES = 64 * 1024;
const MAX_BATCH_BYTES = 1024 * 1024;
const MAX_BATCH_TEXTS = 256;

/** A piece of one file to search: the whole file, or a chunk of whole lines of a large one. */
interface Item {
  file: string;
  /** 0-based line number of the first line of `bytes` in the file. */
  firstLine: number;
  /** UTF-8 text of whole lines. */
  bytes: Buffer;
  /** Lines in `bytes` for a chunk of a streamed file; undefined for a whole file. */
  lines: number | undefined;
  /** Lines longer than MAX_LINE_BYTES that were searched only up to there. */
  cutLines: number;
}

export async function runGrep(workers: RegexWorkers, guard: GuardSource, args: GrepArgs, ctx: ToolExecutionContext): Promise<ToolResult> {
  throwIfAborted(ctx.signal);
  const regex = buildRegex(args.pattern, args.literal ?? false, args.ignoreCase ?? false);
  const limit = args.limit ?? DEFAULT_GREP_LIMIT;
  const shownPath = optionalPath(args.path);
  const target = resolveToolPath(ctx.cwd, shownPath);
  const output = new GrepOutput({ limit, context: args.context ?? 0, maxBytes: DEFAULT_MAX_BYTES });
  let cutLongLines = 0;
  // Started first: a new worker loads while the files are listed.
  const search = workers.start(regex, ctx.signal);
  let batches: AsyncGenerator<Item[]> | undefined;
  try {
    const info = await stat(target).catch((error: unknown) => {
      throw fsError(error, shownPath, `Path not found: ${shownPath}`);
    });
    const root = info.isDirectory() ? target : dirname(target);
    const files = info.isDirectory()
      ? withoutExcluded(...(await Promise.all([listFiles(root, [anyDepthGlob(args.glob ?? "**/*")], { signal: ctx.signal }), excludedWithin(guard, root)])))
      : [basename(target)];
    const fileGuard = guard();
    batches = searchBatches(root, files, fileGuard && ((path: string) => fileGuard.mayFollow(path)));
    let batch: Item[] = (await batches.next()).value ?? [];
    searching: while (batch.length > 0) {
      const current: Item[] = batch;
      // The next batch is gathered while the worker searches this one.
      const searched = search.search(current.map((item) => item.bytes)).catch((error: unknown) => {
        throw explain(error, current);
      });
      const [found, following] = await Promise.all([searched, batches.next()]);
      throwIfAborted(ctx.signal);
      for (let k = 0; k < current.length; k++) {
        const item = current[k]!;
        if (!output.wants(item.file)) break searching;
        output.add(item.file, item.firstLine, item.bytes, found[k]!, item.lines);
        cutLongLines += item.cutLines;
      }
      batch = following.value ?? [];
    }
  } finally {
    await Promise.all([search.close(), batches?.return(undefined)]);
  }

  const notices: string[] = [];
  if (output.limitReached) notices.push(`${limit} matches limit reached. Use limit=${limit * 2} for more, or refine the pattern.`);
  if (output.full) notices.push(`${formatSize(DEFAULT_MAX_BYTES)} output limit reached. Refine the pattern or path to see more.`);
  if (output.cutLines) notices.push(`Some lines were cut to ${MAX_LINE_CHARS} characters. Use the read tool to see them in full.`);
  if (cutLongLines > 0) notices.push(`Searched only the first ${formatSize(MAX_LINE_BYTES)} of ${cutLongLines} line(s) longer than that.`);
  const body = output.matches === 0 ? "No matches found" : output.text();
  const text = body + (notices.length ? `\n\n[${notices.join(" ")}]` : "");
  const details = output.matches === 0 ? { matches: 0 } : { matches: output.matches, limitReached: output.limitReached, truncated: output.full };
  return { content: [{ type: "text", text }], details };
}

/**
 * What to search, in order, in batches for the worker: small files whole (many per batch, the
 * batches growing from FIRST_BATCH_BYTES), each chunk of a large file a batch of its own.
 */
async function* searchBatches(root: string, files: readonly string[], mayFollow?: (path: string) => Promise<boolean>): AsyncGenerator<Item[]> {
  const reader = new AheadReader(
    files.map((file) => join(root, file)),
    mayFollow,
  );
  let limit = FIRST_BATCH_BYTES;
  let batch: Item[] = [];
  let bytes = 0;
  const take = () => {
    const full = batch;
    batch = [];
    bytes = 0;
    limit = Math.min(limit * 2, MAX_BATCH_BYTES);
    return full;
  };
  try {
    for (let index = 0; index < files.length; index++) {
      const file = files[index]!;
      const content = await reader.get(index);
      if (Buffer.isBuffer(content)) {
        batch.push({ file, firstLine: 0, bytes: content, lines: undefined, cutLines: 0 });
        bytes += content.length;
        if (bytes >= limit || batch.length >= MAX_BATCH_TEXTS) yield take();
      } else if (content) {
        if (batch.length > 0) yield take();
        let firstLine = 0;
        for await (const chunk of streamChunks(content.stream)) {
          yield [{ file, firstLine, bytes: chunk.bytes, lines: chunk.lines, cutLines: chunk.cutLines }];
          firstLine += chunk.lines;
        }
      }
    }
    if (batch.length > 0) yield take();
  } finally {
    reader.close();
  }
}

/** A worker failure as the model should read it: which file and line, and what to do. */
function explain(error: unknown, batch: readonly Item[]): Error {
  if (!(error instanceof RegexLineError)) return error as Error;
  const item = batch[error.text];
  const where = item ? `line ${item.firstLine + error.line + 1} of ${item.file}` : "one line";
  if (error.reason === "failed") return new Error(`The pattern failed on ${where}: ${error.message}. Simplify the pattern, or use literal: true.`);
  return new Error(
    `The pattern ran for over ${LINE_DEADLINE_MS / 1000} seconds on ${where} without finishing, so the search was stopped. ` +
      "This usually means catastrophic backtracking (a nested quantifier such as (a+)+ or (\\w*)*); simplify the pattern, " +
      "or use literal: true for a plain string.",
  );
}

function buildRegex(pattern: string, literal: boolean, ignoreCase: boolean): RegExp {
  const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pattern;
  try {
    return new RegExp(source, ignoreCase ? "iu" : "u");
  } catch {
    try {
      // Some valid non-unicode patterns (e.g. `\-`) are rejected in u-mode.
      return new RegExp(source, ignoreCase ? "i" : "");
    } catch (error) {
      throw new Error((error as Error).message); // "Invalid regular expression: /(/: Unterminated group"
    }
  }
}
