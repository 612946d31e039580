/**
 * Output truncation shared by the file tools (head: the start of a file matters) and bash
 * (tail: the end of a command's output matters). Limits: 2000 lines or 50 KiB, whichever is
 * hit first. Lines are counted by `\n` separators (a final newline adds no line) and only whole
 * lines are kept, except when a single line alone exceeds the byte limit: then that one line
 * comes back partial (its start for the head, its end for the tail) so the caller still sees
 * something.
 */

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

export interface TruncationOptions {
  maxLines?: number;
  maxBytes?: number;
}

export interface TruncationResult {
  content: string;
  truncated: boolean;
  /** Which limit cut the text; null when nothing was cut. */
  truncatedBy: "lines" | "bytes" | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  /** True when a single line larger than maxBytes was cut to fit. */
  partialLine: boolean;
  maxLines: number;
  maxBytes: number;
}

/** Splits into lines by `\n`; a trailing newline does not start an extra (empty) line. */
export function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  return lines;
}

export function countLines(text: string): number {
  if (text === "") return 0;
  let count = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) count++;
  return text.endsWith("\n") ? count : count + 1;
}

/** Human-readable size with one decimal, e.g. `50.0KB`. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)}GB`;
}

/** The first `maxBytes` bytes of `text`, never splitting a UTF-8 character. */
export function sliceUtf8Head(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Back off continuation bytes (10xxxxxx) so the cut falls on a character boundary.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString("utf8");
}

/** The last `maxBytes` bytes of `text`, never splitting a UTF-8 character. */
export function sliceUtf8Tail(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.length <= maxBytes) return text;
  let start = bytes.length - maxBytes;
  while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString("utf8");
}

/** Keeps the first lines of `text` that fit both limits. */
export function truncateHead(text: string, options: TruncationOptions = {}): TruncationResult {
  return truncate(text, options, "head");
}

/** Keeps the last lines of `text` that fit both limits. */
export function truncateTail(text: string, options: TruncationOptions = {}): TruncationResult {
  return truncate(text, options, "tail");
}

function truncate(text: string, options: TruncationOptions, side: "head" | "tail"): TruncationResult {
  const maxLines = options.maxLines ?? DEFAULT_MAX_LINES;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const totalBytes = Buffer.byteLength(text, "utf8");
  const lines = splitLines(text);
  const base = { totalLines: lines.length, totalBytes, maxLines, maxBytes };
  if (lines.length <= maxLines && totalBytes <= maxBytes) {
    return { ...base, content: text, truncated: false, truncatedBy: null, outputLines: lines.length, outputBytes: totalBytes, partialLine: false };
  }

  const kept: string[] = [];
  let keptBytes = 0;
  let truncatedBy: "lines" | "bytes" = "lines";
  for (let i = 0; i < lines.length; i++) {
    const line = lines[side === "head" ? i : lines.length - 1 - i]!;
    if (kept.length >= maxLines) {
      truncatedBy = "lines";
      break;
    }
    const lineBytes = Buffer.byteLength(line, "utf8") + (kept.length > 0 ? 1 : 0);
    if (keptBytes + lineBytes > maxBytes) {
      truncatedBy = "bytes";
      if (kept.length === 0) {
        const partial = side === "head" ? sliceUtf8Head(line, maxBytes) : sliceUtf8Tail(line, maxBytes);
        const outputBytes = Buffer.byteLength(partial, "utf8");
        return { ...base, content: partial, truncated: true, truncatedBy, outputLines: 1, outputBytes, partialLine: true };
      }
      break;
    }
    kept.push(line);
    keptBytes += lineBytes;
  }
  if (side === "tail") kept.reverse();
  const content = kept.join("\n");
  return { ...base, content, truncated: true, truncatedBy, outputLines: kept.length, outputBytes: keptBytes, partialLine: false };
}
