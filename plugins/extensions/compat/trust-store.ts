/**
 * pi's `ProjectTrustStore` over Atomic's record of trust: the user's `trustedProjects` in
 * `<agent dir>/settings.json`, a list of folders each trusting everything inside it. Atomic
 * keeps no "distrusted" entries (a project no entry covers is untrusted and never asked about),
 * so `get` answers `true` or `null`, `set(cwd, false)` and `set(cwd, null)` remove `cwd`'s own
 * entry, and distrusting a folder a parent entry still trusts fails with the parent named.
 * Written as Atomic writes settings: under the file's lock, through a temp file and a rename, never
 * over a file that cannot be parsed.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createRequire } from "node:module";
import { expandHome, isInsideFolder } from "../../../kernel/index.js";
import { describeJsonError } from "../../../lib/json-error/index.js";
import { readJsonc } from "../../../lib/jsonc/index.js";

export type ProjectTrustDecision = boolean | null;
export interface ProjectTrustStoreEntry {
  path: string;
  decision: boolean;
}
export interface ProjectTrustUpdate {
  path: string;
  decision: ProjectTrustDecision;
}

type Settings = Record<string, unknown>;

const LOCK_WAIT_MS = 5_000;

export class ProjectTrustStore {
  readonly settingsPath: string;

  constructor(agentDir: string) {
    this.settingsPath = join(resolve(agentDir), "settings.json");
  }

  /** `true` when a trusted folder covers `cwd`, else `null` (no decision). */
  get(cwd: string): ProjectTrustDecision {
    return this.getEntry(cwd)?.decision ?? null;
  }

  /** The deepest trusted folder that covers `cwd`. */
  getEntry(cwd: string): ProjectTrustStoreEntry | null {
    const here = resolve(cwd);
    const covering = trustedFolders(this.#read()).filter((folder) => isInsideFolder(here, folder));
    const path = covering.sort((a, b) => b.length - a.length)[0];
    return path === undefined ? null : { path, decision: true };
  }

  set(cwd: string, decision: ProjectTrustDecision): void {
    this.setMany([{ path: cwd, decision }]);
  }

  /** Applies every update in one write; none is written when one cannot be recorded. */
  setMany(decisions: ProjectTrustUpdate[]): void {
    this.#update((settings) => {
      const entries = Array.isArray(settings.trustedProjects) ? settings.trustedProjects.filter((entry): entry is string => typeof entry === "string") : [];
      let kept = entries;
      for (const { path, decision } of decisions) {
        const folder = resolve(path);
        kept = kept.filter((entry) => resolve(expandHome(entry)) !== folder);
        if (decision === true) kept.push(folder);
      }
      for (const { path, decision } of decisions) {
        if (decision !== false) continue;
        const parent = kept.map((entry) => resolve(expandHome(entry))).find((entry) => isInsideFolder(resolve(path), entry));
        if (parent)
          throw new Error(
            `ProjectTrustStore: cannot distrust ${resolve(path)}: Atomic's trustedProjects (${this.settingsPath}) still trusts ${parent}, which contains it; remove that folder instead`,
          );
      }
      return { ...settings, trustedProjects: kept };
    });
  }

  /** The file as startup reads it (lib/jsonc); `forUpdate`: one with comments is refused, as lib/locked-json refuses it. */
  #read(forUpdate = false): Settings {
    if (!existsSync(this.settingsPath)) return {};
    const text = readFileSync(this.settingsPath, "utf8");
    if (text.trim() === "") return {};
    let parsed: unknown;
    let comments: boolean;
    try {
      ({ value: parsed, comments } = readJsonc(text));
    } catch (error) {
      throw new Error(`Invalid JSON in ${this.settingsPath}: ${describeJsonError(text, error)}`);
    }
    if (forUpdate && comments)
      throw new Error(`Cannot update ${this.settingsPath}: it holds // comments, which writing it would drop; remove them first, or make the change in the file by hand`);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error(`Invalid settings file ${this.settingsPath}: expected an object`);
    return parsed as Settings;
  }

  #update(mutate: (settings: Settings) => Settings): void {
    const release = lockFile(this.settingsPath);
    try {
      const next = mutate(this.#read(true));
      const target = existsSync(this.settingsPath) ? realpathSync(this.settingsPath) : this.settingsPath;
      const mode = existsSync(target) ? statSync(target).mode & 0o7777 : 0o644;
      const tmp = `${target}.${process.pid}.trust.tmp`;
      try {
        writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`, { mode });
        renameSync(tmp, target);
      } finally {
        rmSync(tmp, { force: true });
      }
    } finally {
      release();
    }
  }
}

function trustedFolders(settings: Settings): string[] {
  const entries = Array.isArray(settings.trustedProjects) ? settings.trustedProjects : [];
  return entries.filter((entry): entry is string => typeof entry === "string").map((entry) => resolve(expandHome(entry)));
}

/** The lock Atomic's settings writers take (proper-lockfile's `<file>.lock`), waited for a few seconds; proper-lockfile loads on first use. */
function lockFile(path: string): () => void {
  const { lockSync } = createRequire(import.meta.url)("proper-lockfile") as typeof import("proper-lockfile");
  mkdirSync(dirname(path), { recursive: true });
  const target = existsSync(path) ? realpathSync(path) : path;
  const deadline = Date.now() + LOCK_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      return lockSync(target, { realpath: false, stale: 10_000 });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED" || Date.now() >= deadline)
        throw new Error(`Cannot update ${path}: it is locked by another process (${(error as Error).message})`);
      Atomics.wait(pause, 0, 0, 20);
    }
  }
}
