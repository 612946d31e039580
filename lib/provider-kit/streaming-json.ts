/**
 * Tool-call arguments arrive as JSON fragments, and every delta's snapshot carries the arguments
 * parsed so far. An incremental parser: each fragment is read once (the values completed so far
 * are kept, the value being written is decoded as it grows), so a snapshot costs the depth of
 * the open containers, not the length of the text (a 100 KB `write` in 5,000 fragments: a few
 * ms instead of ~120 ms of re-parsing every prefix).
 *
 * The snapshots are exactly what the previous reading gave (`legacyValue`: the prefix closed and
 * handed to JSON.parse, else the lenient partial-json parser), including its rules for the
 * unfinished tail: a pending key is left out, a half-written literal counts, a half-written
 * number counts when it reads as one (`1e` as 1, `1.` and `-` not). Text that is not a JSON
 * prefix, and the two constructs partial-json reads differently from JSON.parse (a `__proto__`
 * key, a blank `[ ]`), switch this stream to that reading for good. Completed values are shared
 * between snapshots: treat a snapshot as read-only, like the partial message that carries it.
 */
import { parse as parsePartialJson } from "partial-json";

type Frame = { kind: "object"; value: Record<string, unknown>; key: string | undefined; blank: boolean } | { kind: "array"; value: unknown[]; key: undefined; blank: boolean };

/** Where the parser is: what the next character may be. */
const enum At {
  Value,
  /** After `{`: a key or `}`. */
  KeyOrEnd,
  /** After a comma in an object. */
  Key,
  String,
  AfterKey,
  /** After a value: a comma or a closer (whitespace only at the top level). */
  AfterValue,
  Number,
  Literal,
}

const LITERALS: Record<string, { text: string; value: unknown }> = { t: { text: "true", value: true }, f: { text: "false", value: false }, n: { text: "null", value: null } };
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const NUMBER_CHARS = /^[-+.eE0-9]$/;
const NUMBER_PREFIX = /^-?(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d*)?|(?:0|[1-9]\d*)\.)?$/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const HEX = /^[0-9a-fA-F]$/;
/** What ends a plain run inside a string: a quote, a backslash, a control character (invalid). */
const STRING_SPECIAL = /["\\\x00-\x1f]/g;
const NOTHING = Symbol("nothing");

export class StreamingJson {
  #raw = "";
  /** The text stopped being a JSON prefix partial-json reads like JSON.parse: re-read it whole. */
  #legacy = false;
  #at = At.Value;
  readonly #frames: Frame[] = [];
  #root: unknown = NOTHING;
  /** The string being read: decoded so far, whether it is a key, the escape being read. */
  #text = "";
  #isKey = false;
  #escape: string | undefined;
  /** The number or literal being read. */
  #token = "";
  #literal: { text: string; value: unknown } | undefined;

  get raw(): string {
    return this.#raw;
  }

  push(delta: string): void {
    this.#raw += delta;
    if (this.#legacy) return;
    for (let i = 0; i < delta.length && !this.#legacy; i++) {
      if (this.#at === At.String && this.#escape === undefined) {
        // The common case, a long string: take the plain run at once.
        STRING_SPECIAL.lastIndex = i;
        const end = STRING_SPECIAL.exec(delta)?.index ?? delta.length;
        if (end > i) {
          this.#text += delta.slice(i, end);
          i = end - 1;
          continue;
        }
      }
      this.#read(delta[i]!);
    }
    if (this.#at === At.Number && !NUMBER_PREFIX.test(this.#token)) this.#legacy = true;
  }

  /** The value of the text so far (see the header for the rules); undefined when there is none. */
  value(): unknown {
    if (this.#legacy) return legacyValue(this.#raw);
    if (this.#root !== NOTHING) return this.#root;
    let child = this.#tail();
    for (let i = this.#frames.length - 1; i >= 0; i--) {
      const frame = this.#frames[i]!;
      if (frame.kind === "array") {
        const copy = frame.value.slice();
        if (child !== NOTHING) copy.push(child);
        child = copy;
      } else {
        const copy = { ...frame.value };
        if (child !== NOTHING && frame.key !== undefined) copy[frame.key] = child;
        child = copy;
      }
    }
    return child === NOTHING ? undefined : child;
  }

  /** The unfinished scalar at the end, as the previous reading counted it. */
  #tail(): unknown {
    if (this.#at === At.String) return this.#isKey ? NOTHING : this.#text;
    if (this.#at === At.Literal) return this.#literal!.value;
    if (this.#at !== At.Number) return NOTHING;
    const token = this.#token;
    if (NUMBER.test(token)) return JSON.parse(token);
    // partial-json's reading: the digits before a lowercase exponent mark, else nothing.
    const exponent = token.lastIndexOf("e");
    return exponent > 0 && NUMBER.test(token.slice(0, exponent)) ? JSON.parse(token.slice(0, exponent)) : NOTHING;
  }

  #read(char: string): void {
    switch (this.#at) {
      case At.String:
        return this.#readEscaped(char);
      case At.Number:
        if (NUMBER_CHARS.test(char)) {
          this.#token += char;
          return;
        }
        if (!NUMBER.test(this.#token)) return this.#fail();
        this.#complete(JSON.parse(this.#token));
        return this.#read(char);
      case At.Literal: {
        const literal = this.#literal!;
        if (literal.text[this.#token.length] !== char) return this.#fail();
        this.#token += char;
        if (this.#token === literal.text) this.#complete(literal.value);
        return;
      }
    }
    const frame = this.#frames.at(-1);
    if (char === " " || char === "\n" || char === "\r" || char === "\t") {
      if (this.#at === At.Value && frame?.kind === "array" && frame.value.length === 0) frame.blank = true;
      return;
    }
    switch (this.#at) {
      case At.Value:
        return this.#startValue(char, frame);
      case At.KeyOrEnd:
      case At.Key:
        if (char === "}" && this.#at === At.KeyOrEnd) return this.#close(frame!);
        if (char !== '"') return this.#fail();
        this.#startString(true);
        return;
      case At.AfterKey:
        if (char !== ":") return this.#fail();
        this.#at = At.Value;
        return;
      case At.AfterValue:
        if (!frame) return this.#fail();
        if (char === ",") this.#at = frame.kind === "object" ? At.Key : At.Value;
        else if (char === (frame.kind === "object" ? "}" : "]")) this.#close(frame);
        else this.#fail();
        return;
    }
  }

  #startValue(char: string, frame: Frame | undefined): void {
    if (char === "]" && frame?.kind === "array" && frame.value.length === 0) {
      // `[ ]`: partial-json reads a blank empty array differently from JSON.parse.
      if (frame.blank) return this.#fail();
      return this.#close(frame);
    }
    if (char === "{" || char === "[") {
      const kind = char === "{" ? "object" : "array";
      this.#frames.push(kind === "object" ? { kind, value: {}, key: undefined, blank: false } : { kind, value: [], key: undefined, blank: false });
      this.#at = kind === "object" ? At.KeyOrEnd : At.Value;
      return;
    }
    if (char === '"') return this.#startString(false);
    if (char === "-" || (char >= "0" && char <= "9")) {
      this.#at = At.Number;
      this.#token = char;
      return;
    }
    const literal = LITERALS[char];
    if (!literal) return this.#fail();
    this.#at = At.Literal;
    this.#literal = literal;
    this.#token = char;
  }

  #startString(isKey: boolean): void {
    this.#at = At.String;
    this.#isKey = isKey;
    this.#text = "";
    this.#escape = undefined;
  }

  #readEscaped(char: string): void {
    const pending = this.#escape;
    if (pending === undefined) {
      if (char === '"') return this.#endString();
      if (char === "\\") this.#escape = "";
      else if (char.charCodeAt(0) < 32) this.#fail();
      else this.#text += char;
      return;
    }
    if (pending === "") {
      if (char === "u") this.#escape = "u";
      else if (ESCAPES[char] !== undefined) {
        this.#text += ESCAPES[char];
        this.#escape = undefined;
      } else this.#fail();
      return;
    }
    if (!HEX.test(char)) return this.#fail();
    if (pending.length < 4) {
      this.#escape = pending + char;
      return;
    }
    this.#text += String.fromCharCode(parseInt(pending.slice(1) + char, 16));
    this.#escape = undefined;
  }

  #endString(): void {
    if (!this.#isKey) return this.#complete(this.#text);
    const frame = this.#frames.at(-1) as Frame & { kind: "object" };
    // partial-json would set the prototype where JSON.parse makes a property.
    if (this.#text === "__proto__") return this.#fail();
    frame.key = this.#text;
    this.#at = At.AfterKey;
  }

  /** A value is complete: it joins its container (or is the whole text). */
  #complete(value: unknown): void {
    this.#at = At.AfterValue;
    const frame = this.#frames.at(-1);
    if (!frame) {
      this.#root = value;
      return;
    }
    if (frame.kind === "array") frame.value.push(value);
    else {
      frame.value[frame.key!] = value;
      frame.key = undefined;
    }
  }

  #close(frame: Frame): void {
    this.#frames.pop();
    this.#complete(frame.value);
  }

  #fail(): void {
    this.#legacy = true;
  }
}

/**
 * The previous reading, for text that is not a JSON prefix: the prefix closed (open strings and
 * containers) and handed to JSON.parse, else the lenient parser. O(length) per call.
 */
function legacyValue(raw: string): unknown {
  if (raw.trim() === "") return undefined;
  const closers: string[] = [];
  let inString = false;
  let escaped = false;
  for (let i = 0; i < raw.length; i++) {
    const char = raw[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (char === "\\") escaped = true;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") closers.push("}");
    else if (char === "[") closers.push("]");
    else if (char === "}" || char === "]") closers.pop();
  }
  if (!inString || !escaped) {
    try {
      return JSON.parse(raw + (inString ? '"' : "") + closers.reverse().join(""));
    } catch {
      // fall through: a dangling key, comma, half literal or \u escape
    }
  }
  try {
    return parsePartialJson(raw);
  } catch {
    return undefined;
  }
}
