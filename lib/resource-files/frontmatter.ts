/**
 * YAML frontmatter of Markdown resources: an opening `---` line, YAML, a closing `---` line,
 * then the body. Frontmatter is nearly always flat `key: text` lines, which a small exact
 * subset parser reads (the `yaml` package costs ~190 ms to load and ~0.8 ms per document here,
 * which 500 skills would pay at every cold scan); anything outside that subset goes to `yaml`.
 */

export type Frontmatter = Record<string, unknown>;

export type FrontmatterResult = { ok: true; present: boolean; data: Frontmatter; body: string } | { ok: false; problem: string };

const BLOCK = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?---[ \t]*(?:\r?\n|$)/;

/** Splits and parses the frontmatter; text without one has `present: false` and the whole text as body. */
export async function parseFrontmatter(text: string): Promise<FrontmatterResult> {
  const match = BLOCK.exec(text);
  if (!match) {
    if (/^---[ \t]*\r?\n/.test(text)) return { ok: false, problem: "its frontmatter has no closing --- line" };
    return { ok: true, present: false, data: {}, body: text };
  }
  const body = text.slice(match[0].length);
  const yaml = match[1] ?? "";
  if (yaml.trim() === "") return { ok: true, present: true, data: {}, body };
  const simple = parseSimpleMapping(yaml);
  if (simple) return { ok: true, present: true, data: simple, body };
  const { parse } = await import("yaml");
  let data: unknown;
  try {
    data = parse(yaml);
  } catch (error) {
    return { ok: false, problem: `invalid YAML frontmatter: ${firstLine(error instanceof Error ? error.message : String(error))}` };
  }
  if (data === null || data === undefined) return { ok: true, present: true, data: {}, body };
  if (typeof data !== "object" || Array.isArray(data)) return { ok: false, problem: "its frontmatter is not a YAML mapping (key: value lines)" };
  return { ok: true, present: true, data: data as Frontmatter, body };
}

/** The frontmatter value as a trimmed, non-empty string, else undefined. */
export function stringField(data: Frontmatter, key: string): string | undefined {
  const value = data[key];
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0] ?? text;
}

const SIMPLE_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):[ \t]+(\S.*?)[ \t]*$/;
const KEYWORDS: Record<string, boolean | null> = { true: true, True: true, TRUE: true, false: false, False: false, FALSE: false, null: null, Null: null, NULL: null };

/**
 * Flat `key: value` lines whose values mean the same to every YAML 1.2 parser: text starting
 * with a letter (no `: ` or ` #` inside), quoted text without escapes, booleans and null.
 * Undefined for anything else (numbers, lists, nesting, comments, block scalars, duplicates).
 */
export function parseSimpleMapping(yaml: string): Frontmatter | undefined {
  const data: Frontmatter = {};
  for (const line of yaml.split(/\r?\n/)) {
    if (line.trim() === "") continue;
    const match = SIMPLE_LINE.exec(line);
    if (!match) return undefined;
    const [, key, raw] = match as unknown as [string, string, string];
    if (key === "__proto__" || Object.hasOwn(data, key)) return undefined;
    const value = simpleValue(raw);
    if (value === undefined) return undefined;
    data[key] = value;
  }
  return data;
}

function simpleValue(raw: string): string | boolean | null | undefined {
  if (Object.hasOwn(KEYWORDS, raw)) return KEYWORDS[raw]!;
  const quote = raw[0];
  if (quote === '"' || quote === "'") {
    const inner = raw.slice(1, -1);
    return raw.length >= 2 && raw.endsWith(quote) && !inner.includes(quote) && !inner.includes("\\") ? inner : undefined;
  }
  if (!/^[A-Za-z]/.test(raw) || raw.includes(": ") || raw.includes(" #") || raw.includes("\t#") || raw.endsWith(":")) return undefined;
  return raw;
}
