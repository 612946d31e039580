/** In-memory storage (--no-session, or no persistence plugin loaded): the tree is the only copy. */
import type { SessionEntry, SessionStorage } from "./api.js";

export class MemoryStorage implements SessionStorage {
  readonly file = undefined;
  append(_entries: readonly SessionEntry[]): void {}
  async flush(): Promise<void> {}
  async close(): Promise<void> {}
}
