/**
 * Reads a window of lines from a file in fixed-size chunks, so a 1 GB file with `limit: 10`
 * costs a few chunk reads instead of the whole file in memory. Lines before the window are only
 * counted; lines inside are kept up to the line/byte limits (a single oversize first line is kept
 * partial). After the window, the rest of the file is scanned to count lines only when that is
 * cheap (COUNT_AHEAD_BYTES); otherwise the total stays unknown (null).
 */
import { openRegularForRead } from "../../lib/regular-file/index.js";
import { throwIfAborted } from "./paths.js";
import { sliceUtf8Head } from "../../lib/truncate/index.js";

const CHUNK_BYTES = 64 * 1024;
/** Beyond the window, count the remaining lines only if at most this much of the file is left. */
export const COUNT_AHEAD_BYTES = 8 * 1024 * 1024;

export interface WindowRequest {
  /** 0-based index of the first line to return. */
  startIndex: number;
  /** Requested number of lines (the caller's `limit`), or Infinity. */
  limit: number;
  maxLines: number;
  maxBytes: number;
  signal?: AbortSignal;
}

export interface LineWindow {
  lines: string[];
  /** Total lines in the file, or null when counting them would have meant scanning a huge tail. */
  totalLines: number | null;
  /** Why the window ended: the caller's limit, a truncation limit, or the end of the file. */
  stoppedBy: "limit" | "lines" | "bytes" | "eof";
  /** The only line returned was larger than maxBytes on its own and comes back cut. */
  partialLine: boolean;
  /** That line's full size, when the scan reached its end (null = not measured). */
  partialLineBytes: number | null;
  /** Whether any content follows the returned window. */
  moreAfter: boolean;
  fileBytes: number;
}

export async function readLineWindow(path: string, request: WindowRequest): Promise<LineWindow> {
  const { startIndex, maxBytes, signal } = request;
  const windowLines = Math.min(request.limit, request.maxLines);
  const handle = await openRegularForRead(path);
  try {
    const fileBytes = (await handle.stat()).size;
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const lines: string[] = [];
    let windowBytes = 0;
    let stoppedBy: LineWindow["stoppedBy"] = "eof";
    let windowDone = false;
    let windowEndByte = 0; // file offset just past the last returned line (or where its scan stopped)
    let partialIndex = -1;
    let partialLineBytes: number | null = null;
    let countRest = true;

    let lineIndex = 0; // index of the line being scanned
    let lineBytes = 0; // bytes of the current line seen so far
    let parts: Buffer[] = []; // stored bytes of the current line, capped just above maxBytes
    let storedBytes = 0;
    let position = 0;

    const finishWindow = (reason: LineWindow["stoppedBy"], endByte: number) => {
      windowDone = true;
      stoppedBy = reason;
      windowEndByte = endByte;
      countRest = fileBytes - endByte <= COUNT_AHEAD_BYTES;
    };
    const inWindow = () => !windowDone && lineIndex >= startIndex;

    // The current line no longer fits: stop now rather than scanning to its end (it may be huge).
    const checkFits = (scanByte: number) => {
      if (windowBytes + (lines.length > 0 ? 1 : 0) + lineBytes <= maxBytes) return;
      if (lines.length > 0) return finishWindow("bytes", windowEndByte);
      lines.push(sliceUtf8Head(Buffer.concat(parts).toString("utf8"), maxBytes));
      partialIndex = lineIndex;
      finishWindow("bytes", scanByte);
    };

    // Called at the end of each line (at `\n`, or at EOF for an unterminated last line).
    const endLine = (endByte: number) => {
      if (lineIndex === partialIndex) {
        partialLineBytes = lineBytes;
        windowEndByte = endByte;
      } else if (inWindow()) {
        windowBytes += (lines.length > 0 ? 1 : 0) + lineBytes;
        lines.push(Buffer.concat(parts).toString("utf8"));
        windowEndByte = endByte;
        if (lines.length >= windowLines) finishWindow(request.limit <= request.maxLines ? "limit" : "lines", endByte);
      }
      lineIndex++;
      lineBytes = 0;
      parts = [];
      storedBytes = 0;
    };

    while (!(windowDone && !countRest)) {
      throwIfAborted(signal);
      const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, position);
      if (bytesRead === 0) break;
      const chunk = buffer.subarray(0, bytesRead);
      let start = 0;
      while (start < bytesRead) {
        const newline = chunk.indexOf(10, start);
        const end = newline === -1 ? bytesRead : newline;
        const collecting = inWindow();
        if (collecting && storedBytes <= maxBytes) {
          // Copy: the read buffer is reused. Cap what we store; lineBytes keeps the true size.
          const piece = Buffer.from(chunk.subarray(start, Math.min(end, start + maxBytes + 1 - storedBytes)));
          parts.push(piece);
          storedBytes += piece.length;
        }
        lineBytes += end - start;
        if (collecting) checkFits(position + end);
        if (newline === -1) break;
        endLine(position + newline + 1);
        start = newline + 1;
      }
      position += bytesRead;
    }
    const reachedEof = position >= fileBytes;
    if (reachedEof && lineBytes > 0) endLine(position);
    if (!windowDone) windowEndByte = position;

    return {
      lines,
      totalLines: reachedEof ? lineIndex : null,
      stoppedBy,
      partialLine: partialIndex !== -1,
      partialLineBytes,
      moreAfter: windowEndByte < fileBytes,
      fileBytes,
    };
  } finally {
    await handle.close();
  }
}
