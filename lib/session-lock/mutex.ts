/**
 * The short mutex under which a dead owner's record is removed, so two processes that both find
 * it dead cannot both take the file (one would remove the other's fresh record). A folder made
 * with mkdir (atomic everywhere); one left by a crash inside the few milliseconds it is held is
 * stale after 10 s. Not proper-lockfile: loading it installs signal-exit's handlers, which turn
 * signals Node ignores (SIGXFSZ: a write past `ulimit -f`, as on a full disk) into death.
 */
import { mkdir, rm, stat } from "node:fs/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { ErrorCode, KernelError } from "../../kernel/index.js";

export const MUTEX_STALE_MS = 10_000;
const MUTEX_WAIT_MS = 15_000;

export async function withMutex<T>(path: string, task: () => Promise<T>): Promise<T> {
  const dir = `${path}.mutex`;
  for (let waited = 0; ; ) {
    try {
      await mkdir(dir, { mode: 0o700 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const since = await stat(dir).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (since > MUTEX_STALE_MS) {
      await rm(dir, { recursive: true, force: true });
      continue;
    }
    if (waited >= MUTEX_WAIT_MS)
      throw new KernelError(ErrorCode.CONFLICT, `Cannot take ${dir}: another process holds it (it is stale ${MUTEX_STALE_MS / 1000} s after it was made)`);
    await sleep(25);
    waited += 25;
  }
  try {
    return await task();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
