/**
 * What the agents of one process share: a host makes a `ProcessScope` and hands it to every
 * sibling it opens; each kernel holds it through a `ScopeHolder` (`k.shared`). A plugin keeps one
 * value per key for the scope (a connection pool, a module cache, a file cache): made by the
 * first holder that asks, reference-counted, disposed when the last lease goes. A kernel's leases
 * are released when its host is torn down, so what a sibling still uses stays open. The kernel
 * knows nothing of what is shared; two scopes share nothing (two independent hosts stay apart).
 */

/** One hold on a shared value; `release` (once; later calls do nothing) may dispose it. */
export interface Lease<T> {
  readonly value: T;
  release(): Promise<void>;
}

/** The plugin's side (`k.shared`). */
export interface SharedScope {
  /**
   * The value under `key`, made by `create` when nobody holds it; held until released or until
   * this kernel's host is torn down. The last release runs `dispose` (the first acquirer's). Keys
   * start with the owner's name; every acquirer of a key expects the same type.
   */
  acquire<T>(key: string, create: () => T, dispose?: (value: T) => void | Promise<void>): Lease<T>;
}

/** A kernel's hold: `releaseAll` at teardown (rejects with the first failed disposal, after all ran). */
export interface ScopeHolder extends SharedScope {
  readonly scope: ProcessScope;
  releaseAll(): Promise<void>;
}

export class ProcessScope {
  readonly #entries = new Map<string, { value: unknown; dispose: ((value: any) => void | Promise<void>) | undefined; leases: number }>();

  /** Keys held now (diagnostics, tests). */
  keys(): string[] {
    return [...this.#entries.keys()];
  }

  holder(): ScopeHolder {
    const held = new Set<() => Promise<void>>();
    const acquire = <T>(key: string, create: () => T, dispose?: (value: T) => void | Promise<void>): Lease<T> => {
      let entry = this.#entries.get(key);
      if (!entry) this.#entries.set(key, (entry = { value: create(), dispose, leases: 0 }));
      entry.leases++;
      let released: Promise<void> | undefined;
      const release = () => {
        held.delete(release);
        return (released ??= this.#drop(key));
      };
      held.add(release);
      return { value: entry.value as T, release };
    };
    const releaseAll = async () => {
      const failed = (await Promise.allSettled([...held].map((release) => release()))).find((result) => result.status === "rejected");
      if (failed) throw (failed as PromiseRejectedResult).reason;
    };
    return { scope: this, acquire, releaseAll };
  }

  async #drop(key: string): Promise<void> {
    const entry = this.#entries.get(key);
    if (!entry || --entry.leases > 0) return;
    this.#entries.delete(key);
    await entry.dispose?.(entry.value);
  }
}
