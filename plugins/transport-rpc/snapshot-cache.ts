/**
 * Cheap snapshots for `message_update`. Each event carries the whole partial message, so the
 * bytes on the wire grow quadratically with the answer; the work to produce them need not.
 * The JSON of a streaming text/thinking block is kept escaped and extended by each delta
 * (JSON.stringify of the delta only), so one snapshot costs O(blocks), not O(text so far).
 * Every cached block is checked against the live block's length, and anything the cache does
 * not understand falls back to JSON.stringify, so the output is always exactly that of
 * JSON.stringify(message).
 */

interface BlockCache {
  /** Raw length of the text the escaped form covers. */
  length: number;
  escaped: string;
}

interface MessageCache {
  blocks: (BlockCache | undefined)[];
}

type Block = { type?: unknown; text?: unknown; thinking?: unknown } & Record<string, unknown>;

const caches = new WeakMap<object, MessageCache>();

/** Escaped JSON string content (no quotes). */
function escape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** The text field of a block this cache can handle: exactly {type:"text",text} or {type:"thinking",thinking}. */
function streamingField(block: Block): "text" | "thinking" | undefined {
  const keys = Object.keys(block);
  if (keys.length !== 2 || keys[0] !== "type") return undefined;
  if (block.type === "text" && keys[1] === "text" && typeof block.text === "string") return "text";
  if (block.type === "thinking" && keys[1] === "thinking" && typeof block.thinking === "string") return "thinking";
  return undefined;
}

function blockJson(cache: MessageCache, index: number, block: Block): string {
  const field = streamingField(block);
  if (!field) {
    cache.blocks[index] = undefined;
    return JSON.stringify(block);
  }
  const text = block[field] as string;
  // A trailing high surrogate may be the first half of a pair split across deltas: escaped
  // alone it would read \ud83d, so it stays outside the cache until its pair arrives.
  const last = text.charCodeAt(text.length - 1);
  const stable = last >= 0xd800 && last <= 0xdbff ? text.length - 1 : text.length;
  let entry = cache.blocks[index];
  if (!entry || entry.length > stable) entry = { length: 0, escaped: "" };
  if (entry.length < stable) entry = { length: stable, escaped: entry.escaped + escape(text.slice(entry.length, stable)) };
  cache.blocks[index] = entry;
  const pending = stable < text.length ? escape(text.slice(stable)) : "";
  return `{"type":"${field}","${field}":"${entry.escaped}${pending}"}`;
}

/**
 * JSON of an assistant message snapshot. Appending a suffix to a cached prefix is only valid
 * while the prefix is unchanged; blocks stream append-only, and the length check catches the
 * rest (a shrunk block restarts its cache).
 */
export function snapshotJson(message: Record<string, unknown>): string {
  const keys = Object.keys(message);
  const content = message.content;
  if (keys[0] !== "role" || keys[1] !== "content" || !Array.isArray(content)) return JSON.stringify(message);
  let cache = caches.get(message);
  if (!cache) {
    cache = { blocks: [] };
    caches.set(message, cache);
  }
  const parts: string[] = new Array(content.length);
  for (let i = 0; i < content.length; i++) {
    const block = content[i] as Block | undefined;
    parts[i] = block && typeof block === "object" ? blockJson(cache, i, block) : JSON.stringify(block ?? null);
  }
  const { role, content: _content, ...rest } = message;
  const restJson = JSON.stringify(rest);
  const tail = restJson === "{}" ? "}" : `,${restJson.slice(1)}`;
  return `{"role":${JSON.stringify(role)},"content":[${parts.join(",")}]${tail}`;
}
