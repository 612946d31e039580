/**
 * JSON.stringify without recursion, for records nested deeper than V8's stack allows (a
 * `get_tree` of a session with a long linear history nests one level per entry). Produces
 * the same text as JSON.stringify for JSON data; used only when JSON.stringify overflows.
 */

type Frame =
  | { kind: "array"; node: object; items: unknown[]; index: number }
  | { kind: "object"; node: object; source: Record<string, unknown>; keys: string[]; index: number; wrote: boolean };

/** What JSON.stringify would serialise for `value` under `key` (after toJSON), or undefined to skip. */
function normalise(value: unknown, key: string): unknown {
  if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return (value as { toJSON(key: string): unknown }).toJSON(key);
  }
  return value;
}

function isSkipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

export function stringifyDeep(root: unknown): string | undefined {
  const top = normalise(root, "");
  if (isSkipped(top)) return undefined;
  const out: string[] = [];
  const stack: Frame[] = [];
  const open = new Set<object>();

  const emit = (value: unknown): void => {
    if (value === null || typeof value !== "object") {
      out.push(JSON.stringify(value));
      return;
    }
    if (open.has(value)) throw new TypeError("Converting circular structure to JSON");
    open.add(value);
    if (Array.isArray(value)) {
      out.push("[");
      stack.push({ kind: "array", node: value, items: value, index: 0 });
    } else {
      out.push("{");
      const source = value as Record<string, unknown>;
      stack.push({ kind: "object", node: value, source, keys: Object.keys(source), index: 0, wrote: false });
    }
  };

  emit(top);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.kind === "array") {
      if (frame.index >= frame.items.length) {
        out.push("]");
        open.delete(frame.node);
        stack.pop();
        continue;
      }
      const index = frame.index++;
      if (index > 0) out.push(",");
      const item = normalise(frame.items[index], String(index));
      if (isSkipped(item)) out.push("null");
      else emit(item);
      continue;
    }
    if (frame.index >= frame.keys.length) {
      out.push("}");
      open.delete(frame.node);
      stack.pop();
      continue;
    }
    const key = frame.keys[frame.index++]!;
    const value = normalise(frame.source[key], key);
    if (isSkipped(value)) continue;
    out.push(`${frame.wrote ? "," : ""}${JSON.stringify(key)}:`);
    frame.wrote = true;
    emit(value);
  }
  return out.join("");
}

/** JSON.stringify, falling back to the iterative serialiser when the record is too deep. */
export function stringifyRecord(record: object): string {
  try {
    return JSON.stringify(record);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return stringifyDeep(record)!;
  }
}
