/**
 * `Headers` as the Fetch standard defines it, without loading undici: on Node 20 the global
 * `fetch`, `Headers`, `Response` and `FormData` come from one internal module whose first use
 * costs a fresh process more than a bare SDK import (~110 M instructions, 10-15 ms). The frame's
 * fetch returns these headers, and the bundled SDKs build theirs with this class
 * (scripts/bundle.mjs), so a first request loads none of it. Names are case-insensitive and
 * iterate lowercase and sorted, values are trimmed, repeated values are joined with ", "
 * (`set-cookie` values stay apart: `getSetCookie`), and an invalid name or value is a TypeError.
 */

type Init = Iterable<readonly [string, string]> | Iterable<readonly string[]> | Record<string, string | readonly string[]>;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** HTTP whitespace at either end of a value is not part of it. */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;

export class FetchHeaders implements Headers {
  /** Lowercase name -> combined value (`set-cookie` lives in #cookies). */
  readonly #values = new Map<string, string>();
  #cookies: string[] = [];

  constructor(init?: Init | Headers | null) {
    if (init === undefined || init === null) return;
    if (typeof init !== "object") throw new TypeError("Headers: the init must be an object, a list of pairs or another Headers");
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<readonly string[]>) {
        if (pair.length !== 2) throw new TypeError("Headers: each header pair must have exactly two items (name, value)");
        this.append(String(pair[0]), String(pair[1]));
      }
    } else {
      for (const [name, value] of Object.entries(init)) this.append(name, String(value));
    }
  }

  append(name: string, value: string): void {
    const key = checkedName(name, "append");
    const normalized = checkedValue(value, name, "append");
    if (key === "set-cookie") this.#cookies.push(normalized);
    else {
      const existing = this.#values.get(key);
      this.#values.set(key, existing === undefined ? normalized : `${existing}, ${normalized}`);
    }
  }

  set(name: string, value: string): void {
    const key = checkedName(name, "set");
    const normalized = checkedValue(value, name, "set");
    if (key === "set-cookie") this.#cookies = [normalized];
    else this.#values.set(key, normalized);
  }

  delete(name: string): void {
    const key = checkedName(name, "delete");
    if (key === "set-cookie") this.#cookies = [];
    else this.#values.delete(key);
  }

  get(name: string): string | null {
    const key = checkedName(name, "get");
    if (key === "set-cookie") return this.#cookies.length > 0 ? this.#cookies.join(", ") : null;
    return this.#values.get(key) ?? null;
  }

  has(name: string): boolean {
    const key = checkedName(name, "has");
    return key === "set-cookie" ? this.#cookies.length > 0 : this.#values.has(key);
  }

  getSetCookie(): string[] {
    return [...this.#cookies];
  }

  forEach(callback: (value: string, name: string, headers: Headers) => void, thisArg?: unknown): void {
    for (const [name, value] of this.#sorted()) callback.call(thisArg, value, name, this);
  }

  entries(): IterableIterator<[string, string]> {
    return this.#sorted()[Symbol.iterator]();
  }

  keys(): IterableIterator<string> {
    return this.#sorted()
      .map(([name]) => name)
      [Symbol.iterator]();
  }

  values(): IterableIterator<string> {
    return this.#sorted()
      .map(([, value]) => value)
      [Symbol.iterator]();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }

  /** The standard's sort-and-combine: by name, one entry per `set-cookie` value. */
  #sorted(): [string, string][] {
    const pairs: [string, string][] = [...this.#values];
    for (const cookie of this.#cookies) pairs.push(["set-cookie", cookie]);
    return pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  }
}

function checkedName(name: string, method: string): string {
  const text = String(name);
  if (!TOKEN.test(text)) throw new TypeError(`Headers.${method}: "${text}" is an invalid header name.`);
  return text.toLowerCase();
}

function checkedValue(value: string, name: string, method: string): string {
  const text = String(value).replace(EDGE_WHITESPACE, "");
  if (FORBIDDEN_IN_VALUE.test(text)) throw new TypeError(`Headers.${method}: "${text}" is an invalid header value for "${name}".`);
  return text;
}
