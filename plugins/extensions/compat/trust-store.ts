/**
 * pi's `ProjectTrustStore` over Atomic's record of trust: the user's `trustedProjects` in
 * `<agent dir>/settings.json`, a list of folders each trusting everything inside it. Atomic
 * keeps no "distrusted" entries (a project no entry covers is untrusted and never asked about),
 * so `get` answers `true` or `null`, `set(cwd, false)` and `set(cwd, null)` remove `cwd`'s own
 * entry, and distrusting a folder a parent entry still trusts fails with the parent named.
 * Written as Atomic writes settings: under the file's lock, through a temp file and a rename, never
 * over a file that cannot be parsed.
 */
import { join, resolve } from "node:path";
import { expandHome, isInsideFolder } from "../../../kernel/index.js";
import { readSettingsFile, type Settings, updateSettingsFile } from "./settings-file-sync.js";

export type ProjectTrustDecision = boolean | null;
export interface ProjectTrustStoreEntry {
  path: string;
  decision: boolean;
}
export interface ProjectTrustUpdate {
  path: string;
  decision: ProjectTrustDecision;
}

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

  #read(): Settings {
    return readSettingsFile(this.settingsPath);
  }

  #update(mutate: (settings: Settings) => Settings): void {
    updateSettingsFile(this.settingsPath, mutate);
  }
}

function trustedFolders(settings: Settings): string[] {
  const entries = Array.isArray(settings.trustedProjects) ? settings.trustedProjects : [];
  return entries.filter((entry): entry is string => typeof entry === "string").map((entry) => resolve(expandHome(entry)));
}
