/**
 * One loaded extension: where it came from, what it registered, and its staging area. While its
 * factory runs, registrations are only recorded; they take effect together once the factory has
 * finished (so an extension that fails to load leaves nothing behind, as in pi). After that,
 * registrations apply at once.
 */
import type { FlagOptions, RegisteredCommandOptions } from "./types/api.js";

/** Where an extension was found; also its place in the load order (cli, settings, user, project). */
export type ExtensionScope = "cli" | "settings" | "user" | "project";

export interface ExtensionSource {
  /** Absolute path of the file (its identity: tap names, extension_error, get_commands). */
  path: string;
  scope: ExtensionScope;
}

export class ExtensionRecord {
  readonly path: string;
  readonly scope: ExtensionScope;
  /** Load order, from 0: orders this extension's taps before later extensions' taps. */
  readonly index: number;
  readonly events: string[] = [];
  readonly commands = new Map<string, RegisteredCommandOptions>();
  readonly tools: string[] = [];
  readonly flags = new Map<string, FlagOptions>();
  readonly shortcuts: string[] = [];
  readonly providers: string[] = [];
  /** Module names the loader served from Atomic's own modules (`@mariozechner/pi-coding-agent`, `typebox`, ...). */
  readonly served = new Set<string>();
  /** Pi `{operations}` answers to user_bash are reported once per extension. */
  warnedOperations = false;
  /** Handler answers' ignored keys already reported (`event\0key`): once each, not on every call. */
  readonly warnedResults = new Set<string>();
  #staged: (() => void)[] | undefined = [];
  loaded = false;
  error: string | undefined;
  /** Milliseconds spent importing the file and running its factory. */
  loadMs = 0;

  constructor(source: ExtensionSource, index: number) {
    this.path = source.path;
    this.scope = source.scope;
    this.index = index;
  }

  /** Runs `effect` now once committed; while the factory runs, keeps it for `commit`; after a failed load, drops it. */
  apply(effect: () => void): void {
    if (this.error !== undefined) return;
    if (this.#staged) this.#staged.push(effect);
    else effect();
  }

  /** The factory finished: every staged registration takes effect, in the order it was made. */
  commit(onError: (error: unknown) => void): void {
    const staged = this.#staged ?? [];
    this.#staged = undefined;
    this.loaded = true;
    for (const effect of staged) {
      try {
        effect();
      } catch (error) {
        onError(error);
      }
    }
  }

  /** The factory failed: staged registrations are dropped. */
  discard(error: string): void {
    this.#staged = undefined;
    this.error = error;
  }

  get loading(): boolean {
    return this.#staged !== undefined;
  }
}
