/**
 * Re-scanning on demand without piling up work: concurrent callers share one scan, and a caller
 * that arrives while a scan is running gets the next one (which starts after it), so a file
 * added before the call is always seen. Parsed files are cached by path and stat identity, so a
 * re-scan of an unchanged tree reads directories and stats files but parses nothing.
 */

export class FreshScan<T> {
  #running: Promise<T> | undefined;
  #next: Promise<T> | undefined;

  constructor(private readonly scan: () => Promise<T>) {}

  /** The result of a scan that started at or after this call. */
  get(): Promise<T> {
    if (!this.#running) {
      const run = this.scan().finally(() => {
        if (this.#running === run) this.#running = undefined;
      });
      this.#running = run;
      return run;
    }
    this.#next ??= this.#running.then(
      () => this.#startNext(),
      () => this.#startNext(),
    );
    return this.#next;
  }

  #startNext(): Promise<T> {
    this.#next = undefined;
    return this.get();
  }
}

/** What identifies one version of a file without reading it. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
  ino: number;
}

/** Parsed results keyed by path, valid while the file's stamp is unchanged. */
export class StampedCache<V> {
  #entries = new Map<string, { stamp: FileStamp; value: V }>();
  #seen = new Set<string>();

  get(path: string, stamp: FileStamp): V | undefined {
    this.#seen.add(path);
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    const old = entry.stamp;
    return old.mtimeMs === stamp.mtimeMs && old.size === stamp.size && old.ino === stamp.ino ? entry.value : undefined;
  }

  set(path: string, stamp: FileStamp, value: V): void {
    this.#seen.add(path);
    this.#entries.set(path, { stamp: { mtimeMs: stamp.mtimeMs, size: stamp.size, ino: stamp.ino }, value });
  }

  /** Ends a scan: entries for files it did not visit (deleted, moved) are dropped. */
  sweep(): void {
    for (const path of this.#entries.keys()) if (!this.#seen.has(path)) this.#entries.delete(path);
    this.#seen = new Set();
  }
}
