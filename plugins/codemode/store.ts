/**
 * `store()`/`load()` values live in the session: each successful script that wrote values
 * appends one `codemode-store` custom entry (`{ set, delete }`), and a script reads the entries
 * on the current branch from the root. So a resumed session keeps its values, and each branch
 * sees only what was written on its own path.
 */
export const STORE_ENTRY_TYPE = "codemode-store";

interface StoreEntryData {
  set: Record<string, unknown>;
  delete: string[];
}

function isStoreData(data: unknown): data is StoreEntryData {
  if (typeof data !== "object" || data === null) return false;
  const { set, delete: deleted } = data as Partial<StoreEntryData>;
  return typeof set === "object" && set !== null && !Array.isArray(set) && Array.isArray(deleted) && deleted.every((key) => typeof key === "string");
}

/** key -> JSON text, for the sandbox. */
export function readStore(branch: readonly { type: string; customType?: string; data?: unknown }[]): Record<string, string> {
  const values = new Map<string, string>();
  for (const entry of branch) {
    if (entry.type !== "custom" || entry.customType !== STORE_ENTRY_TYPE || !isStoreData(entry.data)) continue;
    for (const key of entry.data.delete) values.delete(key);
    for (const [key, value] of Object.entries(entry.data.set)) values.set(key, JSON.stringify(value));
  }
  return Object.fromEntries(values);
}
