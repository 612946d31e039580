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
  const realWrite = stdout.write.bind(stdout) as (chunk: string, cb?: (error?: Error | null) => void) => boolean;
  const stderrWrite = process.stderr.write.bind(process.stderr);
  (stdout as unknown as { write: unknown }).write = (chunk: unknown, ...rest: unknown[]) =>
    (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
  // Records written before the event loop turns leave together in one writev (a streamed
  // answer emits thousands of small records in bursts: a syscall each cost more than producing
  // them). `write` still returns false past the buffer limit, so producers wait for the drain
  // that follows the flush, and memory stays bounded as before.
  let batching = false;
  const endBatch = () => {
    batching = false;
    stdout.uncork();
  };
  const batched = () => {
    if (batching) return;
    batching = true;
    stdout.cork();
    setImmediate(endBatch);
  };
  const claimed: ClaimedStdout = {
    write: (text) => {
      batched();
      return realWrite(text);
    },
    writeParts: (parts) => {
      batched();
      let accepted = true;
      for (const part of parts) accepted = (realWrite as (chunk: string | Buffer) => boolean)(part) && accepted;
      return accepted;
    },
    onceDrain: (callback) => stdout.once("drain", callback),
    flush: () =>
      new Promise<void>((resolve) => {
        if (stdout.destroyed || stdout.writableEnded) return resolve();
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
