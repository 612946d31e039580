/**
 * Stdout belongs to one owner (the transport). The first claim captures the real writer and
 * redirects every other stdout write in the process (a stray console.log, an extension) to
 * stderr, so protocol records are never interleaved with noise.
 */
export interface ClaimedStdout {
  write(text: string): boolean;
  /** Writes several pieces (with the other writes before the event loop turns: one writev). */
  writeParts(parts: (string | Buffer)[]): boolean;
  onceDrain(callback: () => void): void;
  /** Resolves once everything written so far has been handed to the OS. */
  flush(): Promise<void>;
}

const CLAIM = Symbol.for("atomic.stdout.claim");

export function claimStdout(): ClaimedStdout {
  const holder = process as unknown as { [CLAIM]?: ClaimedStdout };
  const existing = holder[CLAIM];
  if (existing) return existing;
  const stdout = process.stdout;
  makeAsyncPipe(stdout);
  const realWrite = stdout.write.bind(stdout) as (chunk: string | Buffer, cb?: (error?: Error | null) => void) => boolean;
  const stderrWrite = process.stderr.write.bind(process.stderr);
  (stdout as unknown as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) => (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
  // Records written before the event loop turns leave together (a streamed answer emits
  // thousands of small records in bursts: a syscall each cost more than producing them). Text
  // is joined into one string per batch (up to COALESCE_CHARS): a writev of hundreds of small
  // strings encodes and tracks each one. `write` still reports a congested pipe (the stream's
  // own need-drain flag), so producers wait for the drain and memory stays bounded as before.
  let batching = false;
  let pendingText = "";
  const writePending = (): boolean => {
    if (pendingText === "") return !stdout.writableNeedDrain;
    const text = pendingText;
    pendingText = "";
    return realWrite(text);
  };
  const endBatch = () => {
    batching = false;
    writePending();
    stdout.uncork();
  };
  const batched = () => {
    if (batching) return;
    batching = true;
    stdout.cork();
    setImmediate(endBatch);
  };
  const queueText = (text: string): boolean => {
    pendingText += text;
    return pendingText.length < COALESCE_CHARS ? !stdout.writableNeedDrain : writePending();
  };
  const claimed: ClaimedStdout = {
    write: (text) => {
      batched();
      return queueText(text);
    },
    writeParts: (parts) => {
      batched();
      let accepted = true;
      for (const part of parts) {
        if (typeof part === "string") accepted = queueText(part) && accepted;
        else {
          writePending();
          accepted = realWrite(part) && accepted;
        }
      }
      return accepted;
    },
    onceDrain: (callback) => stdout.once("drain", callback),
    flush: () =>
      new Promise<void>((resolve) => {
        if (stdout.destroyed || stdout.writableEnded) return resolve();
        writePending();
        realWrite("", () => resolve());
      }),
  };
  holder[CLAIM] = claimed;
  return claimed;
}

/**
 * On Linux, Node writes to a stdout pipe synchronously: the process stalls inside write() until
 * the client has read the data. Non-blocking writes with a bounded buffer let the agent produce
 * the next records while the client is still parsing the previous ones; the buffer limit keeps
 * memory flat (producers wait on `drain` past it).
 */
function makeAsyncPipe(stdout: NodeJS.WriteStream): void {
  const handle = (stdout as unknown as { _handle?: { setBlocking?: (blocking: boolean) => number } })._handle;
  if (!stdout.isTTY && typeof handle?.setBlocking === "function") {
    handle.setBlocking(false);
    const state = (stdout as unknown as { _writableState?: { highWaterMark: number } })._writableState;
    if (state) state.highWaterMark = PIPE_BUFFER_BYTES;
  }
}

const PIPE_BUFFER_BYTES = 1024 * 1024;
/** Text joined per batch before it is handed to the stream (characters). */
const COALESCE_CHARS = 64 * 1024;
