/**
 * Cheap snapshots for `message_update`. Each event carries the whole partial message, so the
 * bytes on the wire grow quadratically with the answer; the work to produce them need not.
 * The JSON of a streaming text/thinking block is kept escaped *and UTF-8 encoded* in a growing
 * buffer that each delta extends, so one snapshot costs O(blocks + delta): the bytes already
 * encoded are handed to the pipe again by reference, never re-serialised.
 * Every cached block is checked against the live block's length, and anything the cache does
 * not understand falls back to JSON.stringify, so the bytes are always exactly those of
 * JSON.stringify(message).
 */

export type Part = string | Buffer;

/** Append-only byte buffer: views handed out earlier stay valid (growth copies to a new buffer). */
class GrowingBytes {
  #buffer = Buffer.allocUnsafe(256);
  #used = 0;

  append(text: string): void {
    const needed = this.#used + Buffer.byteLength(text);
    if (needed > this.#buffer.length) {
      const next = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(next, 0, 0, this.#used);
      this.#buffer = next;
    }
    this.#used += this.#buffer.write(text, this.#used);
  }

  view(): Buffer {
    return this.#buffer.subarray(0, this.#used);
  }
}

interface BlockCache {
  /** Raw length of the text the encoded form covers. */
  length: number;
  bytes: GrowingBytes;
}

type Block = { type?: unknown; text?: unknown; thinking?: unknown } & Record<string, unknown>;

const caches = new WeakMap<object, (BlockCache | undefined)[]>();

/** Escaped JSON string content (no quotes). */
function escapeJson(text: string): string {
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

function pushBlock(parts: Part[], blocks: (BlockCache | undefined)[], index: number, block: Block): void {
  const field = streamingField(block);
  if (!field) {
    blocks[index] = undefined;
    parts.push(JSON.stringify(block));
    return;
  }
  const text = block[field] as string;
  // A trailing high surrogate may be the first half of a pair split across deltas: escaped
  // alone it would read \ud83d, so it stays outside the cache until its pair arrives.
  const last = text.charCodeAt(text.length - 1);
  const stable = last >= 0xd800 && last <= 0xdbff ? text.length - 1 : text.length;
  let entry = blocks[index];
  if (!entry || entry.length > stable) entry = blocks[index] = { length: 0, bytes: new GrowingBytes() };
  if (entry.length < stable) {
    entry.bytes.append(escapeJson(text.slice(entry.length, stable)));
    entry.length = stable;
  }
  const pending = stable < text.length ? escapeJson(text.slice(stable)) : "";
  parts.push(`{"type":"${field}","${field}":"`, entry.bytes.view(), `${pending}"}`);
}

/** The snapshot of an assistant message as line pieces (strings and shared encoded bytes). */
export function snapshotParts(message: Record<string, unknown>): Part[] {
  const keys = Object.keys(message);
  const content = message.content;
  if (keys[0] !== "role" || keys[1] !== "content" || !Array.isArray(content)) return [JSON.stringify(message)];
  let blocks = caches.get(message);
  if (!blocks) {
    blocks = [];
    caches.set(message, blocks);
  }
  const parts: Part[] = [`{"role":${JSON.stringify(message.role)},"content":[`];
  for (let i = 0; i < content.length; i++) {
    if (i > 0) parts.push(",");
    const block = content[i] as Block | undefined;
    if (block && typeof block === "object") pushBlock(parts, blocks, i, block);
    else parts.push(JSON.stringify(block ?? null));
  }
  const { role: _role, content: _content, ...rest } = message;
  const restJson = JSON.stringify(rest);
  parts.push(restJson === "{}" ? "]}" : `],${restJson.slice(1)}`);
  return parts;
}

/** The snapshot as one JSON string (tests and diagnostics). */
export function snapshotJson(message: Record<string, unknown>): string {
  return snapshotParts(message)
    .map((part) => (typeof part === "string" ? part : part.toString("utf8")))
    .join("");
}
