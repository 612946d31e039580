/**
 * Re-links entries whose parent was on a line the reader skipped. Without it a damaged line in
 * the middle of a file cut the chain there: every later entry hung from a parent that does not
 * exist, so the active branch (what the model is sent, what `get_messages` shows) began after the
 * damage, and the conversation before it silently left the context although the file still held
 * it. The nearest readable ancestor takes the skipped entry's place: its own parent when the line
 * was JSON with an id (an entry of an unusable shape), else the entry written just before the
 * damaged line (an append-only file is written in that order). An entry whose parent is unknown
 * for another reason stays an orphan root.
 */
import type { SessionEntry } from "../session/api.js";

export class ParentRepair {
  /** Skipped entries that had an id: id -> their parent. */
  readonly #skippedParents = new Map<string, string | null>();
  /** The entry kept before the latest unparsable line (null: none before it); undefined while there was none. */
  #beforeDamage: string | null | undefined;
  /** Entries given another parent. */
  relinked = 0;

  /** A line that was skipped; `lastKept` is the entry kept before it. */
  skipped(record: unknown, lastKept: string | null, seen: ReadonlySet<string>): void {
    if (typeof record === "object" && record !== null && typeof (record as { id?: unknown }).id === "string") {
      const { id, parentId } = record as { id: string; parentId?: unknown };
      // A duplicate of a kept entry is no ancestor of anything new.
      if (!seen.has(id)) this.#skippedParents.set(id, typeof parentId === "string" ? parentId : null);
      return;
    }
    this.#beforeDamage = lastKept;
  }

  /** Gives `entry` its nearest readable ancestor when its parent was skipped. */
  repair(entry: SessionEntry, seen: ReadonlySet<string>): void {
    const parentId = entry.parentId;
    if (parentId === null || seen.has(parentId)) return;
    let ancestor: string | null = parentId;
    const walked = new Set<string>();
    while (ancestor !== null && !seen.has(ancestor) && this.#skippedParents.has(ancestor) && !walked.has(ancestor)) {
      walked.add(ancestor);
      ancestor = this.#skippedParents.get(ancestor)!;
    }
    if (ancestor !== null && !seen.has(ancestor)) {
      if (this.#beforeDamage === undefined) return;
      ancestor = this.#beforeDamage;
    }
    entry.parentId = ancestor;
    this.relinked++;
  }
}
