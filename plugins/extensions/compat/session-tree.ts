/**
 * The tree side of pi's `SessionManager` (session-manager.ts): the entries as a tree with their
 * labels, the entries of a session branched off one path, and what a context edit may replace.
 */
import type { SessionEntry } from "./session-context.js";

export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
  labelTimestamp?: string;
}

type Labels = ReadonlyMap<string, { label: string; timestamp: string }>;

/** Roots first; each node's children oldest first. An entry whose parent is missing is a root. */
export function buildTree(entries: readonly SessionEntry[], labels: Labels): SessionTreeNode[] {
  const nodes = new Map<string, SessionTreeNode>();
  for (const entry of entries) {
    const label = labels.get(entry.id);
    nodes.set(entry.id, { entry, children: [], ...(label ? { label: label.label, labelTimestamp: label.timestamp } : {}) });
  }
  const roots: SessionTreeNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.entry.parentId && node.entry.parentId !== node.entry.id ? nodes.get(node.entry.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  for (const node of nodes.values()) node.children.sort((a, b) => Date.parse(a.entry.timestamp) - Date.parse(b.entry.timestamp));
  return roots;
}

/**
 * The replacement a context edit of `target` stores (text of an assistant or tool result wrapped
 * in a text block), or the reason it is refused.
 */
export function contextEditReplacement(
  target: SessionEntry | undefined,
  targetId: string,
  replacement: { content: unknown } | null,
  branch: () => readonly SessionEntry[],
): { content: unknown } | null {
  if (replacement !== null && (typeof replacement !== "object" || (typeof replacement.content !== "string" && !Array.isArray(replacement.content))))
    throw new Error("Context edit replacement must be null or contain string/array content");
  if (!target) throw new Error(`Entry ${targetId} not found`);
  if (!branch().some((entry) => entry.id === targetId)) throw new Error(`Entry ${targetId} is not on the active branch`);
  const role = target.type === "message" ? target.message?.role : target.type === "custom_message" ? "custom" : undefined;
  if (!["user", "assistant", "toolResult", "custom"].includes(role)) throw new Error(`Entry ${targetId} does not contribute editable model content`);
  return replacement !== null && (role === "assistant" || role === "toolResult") && typeof replacement.content === "string"
    ? { content: [{ type: "text", text: replacement.content }] }
    : replacement;
}

/**
 * The entries of a new session holding `path` (a branch, root first, labels left out) relinked
 * as one chain, then a label entry for each of `labels` whose target it keeps.
 */
export function branchedEntries(
  path: readonly SessionEntry[],
  labels: ReadonlyMap<string, { label: string; timestamp: string }>,
  newId: (taken: Set<string>) => string,
): SessionEntry[] {
  const kept = new Set(path.map((entry) => entry.id));
  const relinked = path.map((entry, index) => ({ ...entry, parentId: index === 0 ? null : path[index - 1]!.id }));
  let parent = relinked.at(-1)?.id ?? null;
  const labelled: SessionEntry[] = [];
  for (const [targetId, { label, timestamp }] of labels) {
    if (!kept.has(targetId)) continue;
    const id = newId(kept);
    kept.add(id);
    labelled.push({ type: "label", id, parentId: parent, timestamp, targetId, label });
    parent = id;
  }
  return [...relinked, ...labelled];
}
