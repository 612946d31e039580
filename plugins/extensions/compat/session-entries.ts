/**
 * One session of pi's `SessionManager` (session-manager.ts) in memory: the file's lines (its
 * header first), each entry by id, the labels, and the leaf the next entry hangs from; reading
 * them as a tree and its branches, and pi's typed appends. Apart from where they live (a file in
 * a folder, or memory only) and when the file is written, which the manager decides.
 */
import {
  buildContextEntries,
  buildSessionProjection,
  type ContextMessage,
  type FileEntry,
  newEntryId,
  type SessionContext,
  type SessionEntry,
  type SessionHeader,
  type SessionProjection,
} from "./session-context.js";
import { now } from "./session-manager-files.js";
import { branchedEntries, buildTree, contextEditReplacement, type SessionTreeNode } from "./session-tree.js";
import { getCurrentSystemMessage } from "./transcript.js";

export abstract class SessionEntries {
  #entries: FileEntry[] = [];
  readonly #byId = new Map<string, SessionEntry>();
  readonly #labels = new Map<string, { label: string; timestamp: string }>();
  #leaf: string | null = null;

  /** Keeps an entry just appended (in the file, when there is one); a throw takes the entry back out. */
  protected abstract writeEntry(entry: SessionEntry): void;

  /** The file's lines, its header first. */
  protected get fileEntries(): FileEntry[] {
    return this.#entries;
  }

  /** Every entry replaced (a new, loaded or branched session); the leaf is the last one. */
  protected setFileEntries(entries: FileEntry[]): void {
    this.#entries = entries;
    this.#index();
  }

  /** The branch to `leafId` as the entries of a new session (labels on it kept). */
  protected branchCopy(leafId: string): SessionEntry[] {
    const path = this.getBranch(leafId).filter((entry) => entry.type !== "label");
    if (path.length === 0) throw new Error(`Entry ${leafId} not found`);
    return branchedEntries(path, this.#labels, newEntryId);
  }

  getHeader(): SessionHeader | null {
    return (this.#entries.find((entry) => entry.type === "session") as SessionHeader | undefined) ?? null;
  }
  getEntries(): SessionEntry[] {
    return this.#entries.filter((entry): entry is SessionEntry => entry.type !== "session");
  }
  getEntryCount(): number {
    return this.#byId.size;
  }
  getLeafId(): string | null {
    return this.#leaf;
  }
  getLeafEntry(): SessionEntry | undefined {
    return this.#leaf ? this.#byId.get(this.#leaf) : undefined;
  }
  getEntry(id: string): SessionEntry | undefined {
    return this.#byId.get(id);
  }
  getChildren(parentId: string): SessionEntry[] {
    return [...this.#byId.values()].filter((entry) => entry.parentId === parentId);
  }
  getLabel(id: string): string | undefined {
    return this.#labels.get(id)?.label;
  }
  getSessionName(): string | undefined {
    const info = this.#entries.findLast((entry) => entry.type === "session_info") as SessionEntry | undefined;
    return info?.name?.trim() || undefined;
  }

  /** Root to `fromId` (default: the leaf). */
  getBranch(fromId?: string): SessionEntry[] {
    const path: SessionEntry[] = [];
    for (let entry = this.#byId.get(fromId ?? this.#leaf ?? ""); entry; entry = entry.parentId ? this.#byId.get(entry.parentId) : undefined) path.push(entry);
    return path.reverse();
  }

  getTree(): SessionTreeNode[] {
    return buildTree(this.getEntries(), this.#labels);
  }

  buildContextEntries(): SessionEntry[] {
    return buildContextEntries(this.getEntries(), this.#leaf, this.#byId);
  }
  buildSessionProjection(): SessionProjection {
    return buildSessionProjection(this.getEntries(), this.#leaf, this.#byId);
  }
  buildSessionContext(): SessionContext {
    const { messages, thinkingLevel, model } = this.buildSessionProjection();
    return { messages, thinkingLevel, model };
  }

  appendMessage(message: ContextMessage): string {
    return this.#append({ type: "message", message });
  }
  appendThinkingLevelChange(thinkingLevel: string): string {
    return this.#append({ type: "thinking_level_change", thinkingLevel });
  }
  appendModelChange(provider: string, modelId: string): string {
    return this.#append({ type: "model_change", provider, modelId });
  }
  appendUsage(kind: string, provider: string, model: string, usage: unknown, note?: string): SessionEntry {
    const id = this.#append({ type: "usage", kind, provider, model, usage, ...(note ? { note } : {}) });
    return this.#byId.get(id)!;
  }
  appendCompaction(summary: string, firstKeptEntryId: string | null, tokensBefore: number, details?: unknown, fromHook?: boolean, usage?: unknown): string {
    const timestamp = now();
    const system = getCurrentSystemMessage(this.buildSessionProjection().messages as never);
    const id = newEntryId(this.#byId);
    return this.#append(
      {
        type: "compaction",
        summary,
        firstKeptEntryId: firstKeptEntryId ?? id,
        tokensBefore,
        details,
        usage,
        fromHook,
        ...(system ? { systemMessage: { ...system, timestamp: Date.parse(timestamp) } } : {}),
      },
      { id, timestamp },
    );
  }
  appendCustomEntry(customType: string, data?: unknown): string {
    return this.#append({ type: "custom", customType, data });
  }
  appendSessionInfo(name: string): string {
    return this.#append({
      type: "session_info",
      name: String(name)
        .replace(/[\r\n]+/g, " ")
        .trim(),
    });
  }
  appendCustomMessageEntry(customType: string, content: unknown, display: boolean, details?: unknown): string {
    return this.#append({ type: "custom_message", customType, content, display, details });
  }
  appendContextEdit(targetId: string, replacement: { content: unknown } | null): string {
    const wrapped = contextEditReplacement(this.#byId.get(targetId), targetId, replacement, () => this.getBranch());
    return this.#append({ type: "context_edit", targetId, replacement: wrapped });
  }
  appendLabelChange(targetId: string, label: string | undefined): string {
    if (!this.#byId.has(targetId)) throw new Error(`Entry ${targetId} not found`);
    const id = this.#append({ type: "label", targetId, label });
    this.#noteLabel(this.#byId.get(id)!);
    return id;
  }

  /** The leaf moves to `branchFromId`: the next entry starts a branch there. */
  branch(branchFromId: string): void {
    if (!this.#byId.has(branchFromId)) throw new Error(`Entry ${branchFromId} not found`);
    this.#leaf = branchFromId;
  }
  resetLeaf(): void {
    this.#leaf = null;
  }
  branchWithSummary(branchFromId: string | null, summary: string, details?: unknown, fromHook?: boolean, usage?: unknown): string {
    if (branchFromId !== null && !this.#byId.has(branchFromId)) throw new Error(`Entry ${branchFromId} not found`);
    const fromId = this.#leaf ?? "root";
    this.#leaf = branchFromId;
    return this.#append({ type: "branch_summary", fromId, summary, details, usage, fromHook });
  }

  #index(): void {
    this.#byId.clear();
    this.#labels.clear();
    this.#leaf = null;
    for (const entry of this.getEntries()) {
      this.#byId.set(entry.id, entry);
      this.#leaf = entry.id;
      if (entry.type === "label") this.#noteLabel(entry);
    }
  }

  #noteLabel(entry: SessionEntry): void {
    if (entry.label) this.#labels.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
    else this.#labels.delete(entry.targetId);
  }

  #append(fields: Record<string, unknown> & { type: string }, given?: { id: string; timestamp: string }): string {
    const entry = { ...fields, id: given?.id ?? newEntryId(this.#byId), parentId: this.#leaf, timestamp: given?.timestamp ?? now() } as SessionEntry;
    const leaf = this.#leaf;
    this.#entries.push(entry);
    this.#byId.set(entry.id, entry);
    this.#leaf = entry.id;
    try {
      this.writeEntry(entry);
    } catch (error) {
      this.#entries.pop();
      this.#byId.delete(entry.id);
      this.#leaf = leaf;
      throw error;
    }
    return entry.id;
  }
}
