/**
 * YAML frontmatter of Markdown resources: an opening `---` line, YAML, a closing `---` line,
 * then the body. The `yaml` package loads on first use (most processes never parse one).
 */

export type Frontmatter = Record<string, unknown>;

export type FrontmatterResult =
  | { ok: true; present: boolean; data: Frontmatter; body: string }
  | { ok: false; problem: string };

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
