/**
 * Whether a session file fits in this process's heap, and how to start Atomic so it does.
 * Node sets the heap from `--max-old-space-size=<MB>` or, taking precedence, from
 * `--max-old-space-size-percentage=<1-100>` of the available memory (Node 22.20+ and 24; Node
 * itself rejects a bad value before Atomic runs), given as node flags or in NODE_OPTIONS.
 */
import { createRequire } from "node:module";
import { ErrorCode, KernelError } from "../../kernel/index.js";
import { formatSize } from "../../lib/truncate/index.js";

/**
 * Parsed entries take about as much heap as their JSON text (measured: 0.95x). A file is not
 * loaded when it could not fit in what the heap has left, and loading stops if the heap fills.
 */
const HEAP_SHARE = 0.85;

export interface OldSpaceFlags {
  /** `--max-old-space-size`, in bytes, when that is what sizes the heap. */
  bytes?: number;
  /** `--max-old-space-size-percentage`: then `heap_size_limit` already reflects it. */
  percentage?: number;
}

/** The heap flags among node's arguments and NODE_OPTIONS (the last of each wins, as in node). */
export function readOldSpaceFlags(flags: readonly string[]): OldSpaceFlags {
  let megabytes: number | undefined;
  let percentage: number | undefined;
  for (let i = 0; i < flags.length; i++) {
    const match = /^--max[-_]old[-_]space[-_]size(-percentage)?(?:=(.+))?$/.exec(flags[i]!);
    if (!match) continue;
    const value = Number(match[2] ?? flags[i + 1]);
    if (match[1]) percentage = value;
    else megabytes = value;
  }
  if (percentage !== undefined && Number.isFinite(percentage) && percentage > 0) return { percentage };
  return megabytes !== undefined && Number.isFinite(megabytes) && megabytes > 0 ? { bytes: megabytes * 1024 * 1024 } : {};
}

/** What to start Atomic with to hold `neededBytes` of heap, given the flags in use. */
export function heapAdvice(flags: OldSpaceFlags, neededBytes: number, totalMemory: number): string {
  const neededMb = Math.ceil(neededBytes / HEAP_SHARE / (1024 * 1024) / 256) * 256;
  if (flags.percentage === undefined) return `Start Atomic with NODE_OPTIONS=--max-old-space-size=${neededMb} to open it.`;
  const percent = Math.ceil((neededMb * 1024 * 1024 * 100) / totalMemory);
  if (percent > 100) return `It needs about ${neededMb} MB of heap, more than this machine's memory.`;
  return `Start Atomic with NODE_OPTIONS=--max-old-space-size-percentage=${Math.max(percent, Math.ceil(flags.percentage) + 1)} (now ${flags.percentage}) to open it.`;
}

let flagsInUse: OldSpaceFlags | undefined;
/** node:v8 and node:os, required on first use: most starts never read a session. */
let v8: typeof import("node:v8") | undefined;

/** Fails the load, saying why, when the rest of the file (`size` bytes, `read` of them in) would not fit. */
export function checkRoom(path: string, size: number, read: number): void {
  const require = createRequire(import.meta.url);
  v8 ??= require("node:v8") as typeof import("node:v8");
  const { heap_size_limit: heapLimit, used_heap_size: used } = v8.getHeapStatistics();
  flagsInUse ??= readOldSpaceFlags([...process.execArgv, ...(process.env.NODE_OPTIONS ?? "").split(/\s+/)]);
  // heap_size_limit adds the young generation, which Node 24 made 192 MB: with a small old space
  // that is most of the figure, and a file "fitting" it would still run out of memory.
  const limit = Math.min(heapLimit, flagsInUse.bytes ?? heapLimit);
  if (used + (size - read) <= limit * HEAP_SHARE) return;
  const totalMemory = (require("node:os") as typeof import("node:os")).totalmem();
  throw new KernelError(
    ErrorCode.UNAVAILABLE,
    `Cannot load session file ${path}: it is ${formatSize(size)}, more than this process can hold in memory ` +
      `(${formatSize(limit)} heap, ${formatSize(used)} in use). ${heapAdvice(flagsInUse, used + size, totalMemory)}`,
  );
}
