/**
 * The session tree (pure, no I/O): entries in append order with an id -> index map, a leaf
 * pointer, and the queries the commands need, each linear in what it touches.
 * A parent link only counts when the parent was appended earlier: that keeps every walk acyclic
 * even on a corrupted file, and an entry whose parent is unknown (or later) is an orphan root.
 */
import { randomHex } from "../../lib/random-ids/index.js";
import type { NewSessionEntry, SessionEntry, TreeNode } from "./api.js";
import { oneLineName } from "./limits.js";
import { messageText } from "./text.js";

/** Draws candidate ids; injectable so tests can force collisions. */
export type IdSource = () => string;

/** 8 random hex chars (identifiers, unique within a session; see lib/random-ids). */
export function createRandomIdSource(): IdSource {
  return () => randomHex(4);
}

const MAX_ID_ATTEMPTS = 100;

export class SessionTree {
  readonly #entries: SessionEntry[] = [];
  readonly #indexById = new Map<string, number>();
  readonly #nextId: IdSource;
  #leafId: string | null = null;
  #name: string | undefined;
  #messageCount = 0;

  constructor(nextId: IdSource = createRandomIdSource()) {
    this.#nextId = nextId;
  }

  /** Rebuilds a tree from stored entries; the leaf is the last entry in file order. */
  static fromEntries(entries: readonly SessionEntry[], nextId?: IdSource): SessionTree {
    const tree = new SessionTree(nextId);
    for (const entry of entries) tree.insert(entry);
    return tree;
  }

  get leafId(): string | null {
    return this.#leafId;
  }

  get size(): number {
    return this.#entries.length;
  }

  /** Display name from the newest session_info entry; undefined when unnamed or cleared. */
  get name(): string | undefined {
    return this.#name;
  }

  get messageCount(): number {
    return this.#messageCount;
  }

  entries(): readonly SessionEntry[] {
    return this.#entries;
  }

  get(id: string): SessionEntry | undefined {
    const index = this.#indexById.get(id);
    return index === undefined ? undefined : this.#entries[index];
  }

  /** Appends `partial` as a child of the leaf and moves the leaf to it. */
  append(partial: NewSessionEntry, now: Date = new Date()): SessionEntry {
    const entry = { ...partial, id: this.#freshId(), parentId: this.#leafId, timestamp: now.toISOString() } as SessionEntry;
    this.insert(entry);
    return entry;
  }

  /** Adds an entry that already has its id and parent (load, fork copy). Duplicate ids are refused. */
  insert(entry: SessionEntry): void {
    if (this.#indexById.has(entry.id)) throw new Error(`Duplicate entry id: ${entry.id}`);
    this.#indexById.set(entry.id, this.#entries.length);
    this.#entries.push(entry);
    this.#leafId = entry.id;
    if (entry.type === "message") this.#messageCount++;
    if (entry.type === "session_info") this.#name = oneLineName(entry.name);
  }

  /** Moves the leaf (in memory; a reload picks the last entry again). Null: the next append is a new root. */
  moveLeaf(id: string | null): void {
    if (id !== null && !this.#indexById.has(id)) throw new Error(`Entry not found: ${id}`);
    this.#leafId = id;
  }

  /** Entries strictly after `id` in append order; undefined when `id` is unknown. O(returned). */
  since(id: string): SessionEntry[] | undefined {
    const index = this.#indexById.get(id);
    return index === undefined ? undefined : this.#entries.slice(index + 1);
  }

  /** Root -> `id` path (empty for null or an unknown id). */
  pathTo(id: string | null): SessionEntry[] {
    if (id === null) return [];
    const path: SessionEntry[] = [];
    let index = this.#indexById.get(id);
    while (index !== undefined) {
      const entry = this.#entries[index]!;
      path.push(entry);
      index = this.#parentIndex(entry, index);
    }
    return path.reverse();
  }

  /** The active branch: root -> leaf. */
  branch(): SessionEntry[] {
    return this.pathTo(this.#leafId);
  }

  /** The whole tree: roots (and orphans) in append order, children in append order, labels applied. */
  tree(): TreeNode[] {
    const nodes: TreeNode[] = new Array(this.#entries.length);
    const roots: TreeNode[] = [];
    this.#entries.forEach((entry, index) => {
      const node: TreeNode = { entry, children: [] };
      nodes[index] = node;
      const parent = this.#parentIndex(entry, index);
      if (parent === undefined) roots.push(node);
      else nodes[parent]!.children.push(node);
    });
    for (const [targetId, label] of this.labels()) {
      const node = nodes[this.#indexById.get(targetId)!]!;
      node.label = label.label;
      node.labelTimestamp = label.timestamp;
    }
    return roots;
  }

  /** Current labels by target id: the newest label entry per target wins, an empty one clears. */
  labels(): Map<string, { label: string; timestamp: string }> {
    const labels = new Map<string, { label: string; timestamp: string }>();
    for (const entry of this.#entries) {
      if (entry.type !== "label" || !this.#indexById.has(entry.targetId)) continue;
      if (entry.label) labels.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
      else labels.delete(entry.targetId);
    }
    return labels;
  }

  /** `{entryId, text}` for every user message with non-empty text, all branches, append order. */
  forkPoints(): { entryId: string; text: string }[] {
    const points: { entryId: string; text: string }[] = [];
    for (const entry of this.#entries) {
      if (entry.type !== "message" || entry.message.role !== "user") continue;
      const text = messageText(entry.message);
      if (text !== "") points.push({ entryId: entry.id, text });
    }
    return points;
  }

  #parentIndex(entry: SessionEntry, index: number): number | undefined {
    if (entry.parentId === null) return undefined;
    const parent = this.#indexById.get(entry.parentId);
    return parent !== undefined && parent < index ? parent : undefined;
  }

  #freshId(): string {
    for (let attempt = 0; attempt < MAX_ID_ATTEMPTS; attempt++) {
      const id = this.#nextId();
      if (!this.#indexById.has(id)) return id;
    }
    // Practically unreachable (2^32 ids): fall back to a longer id rather than loop forever.
    let id: string;
    do id = randomHex(8);
    while (this.#indexById.has(id));
    return id;
  }
}
