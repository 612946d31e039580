/**
 * pi's theme-based helpers for components an extension renders (which a client that shows text
 * may still print): the markdown, select-list and settings-list themes, a coloured diff, and text
 * cut to a number of wrapped lines. All paint with the current theme (theme.ts).
 */
import { createRequire } from "node:module";
import { highlightCode } from "./highlight.js";
import { wrapTextWithAnsi } from "./pi-tui.js";
import { currentTheme } from "./theme.js";

export function getMarkdownTheme() {
  const theme = currentTheme();
  const fg = (token: Parameters<typeof theme.fg>[0]) => (text: string) => theme.fg(token, text);
  return {
    heading: fg("mdHeading"),
    link: fg("mdLink"),
    linkUrl: fg("mdLinkUrl"),
    code: fg("mdCode"),
    codeBlock: fg("mdCodeBlock"),
    codeBlockBorder: fg("mdCodeBlockBorder"),
    quote: fg("mdQuote"),
    quoteBorder: fg("mdQuoteBorder"),
    hr: fg("mdHr"),
    listBullet: fg("mdListBullet"),
    bold: (text: string) => theme.bold(text),
    italic: (text: string) => theme.italic(text),
    underline: (text: string) => theme.underline(text),
    strikethrough: (text: string) => theme.strikethrough(text),
    highlightCode,
  };
}

export function getSelectListTheme() {
  const theme = currentTheme();
  return {
    selectedPrefix: (text: string) => theme.fg("accent", text),
    selectedText: (text: string) => theme.fg("accent", text),
    description: (text: string) => theme.fg("muted", text),
    scrollInfo: (text: string) => theme.fg("muted", text),
    noMatch: (text: string) => theme.fg("muted", text),
  };
}

export function getSettingsListTheme() {
  const theme = currentTheme();
  return {
    label: (text: string, selected: boolean) => (selected ? theme.fg("accent", text) : text),
    value: (text: string, selected: boolean) => theme.fg(selected ? "accent" : "muted", text),
    description: (text: string) => theme.fg("dim", text),
    cursor: theme.fg("accent", "→ "),
    hint: (text: string) => theme.fg("dim", text),
  };
}

export interface RenderDiffOptions {
  filePath?: string;
}

interface DiffLine {
  sign: "+" | "-" | " ";
  number: string;
  text: string;
}

/** `+12 text`, `-12 text`, ` 12 text` (what generateDiffString writes), else undefined. */
function parseLine(line: string): DiffLine | undefined {
  const match = /^([+\- ])(\s*\d*) (.*)$/.exec(line);
  return match ? { sign: match[1] as DiffLine["sign"], number: match[2]!, text: match[3]!.replace(/\t/g, "   ") } : undefined;
}

/** One changed line: the words that differ in inverse, after the indentation both share. */
function wordChanges(before: string, after: string): [string, string] {
  let shared = 0;
  while (shared < before.length && before[shared] === after[shared] && /\s/.test(before[shared]!)) shared++;
  const common = before.slice(0, shared);
  // diff is loaded only when a diff is drawn.
  const { diffWords } = createRequire(import.meta.url)("diff") as typeof import("diff");
  const theme = currentTheme();
  let removed = common;
  let added = common;
  let firstRemoved = true;
  let firstAdded = true;
  for (const part of diffWords(before.slice(common.length), after.slice(common.length))) {
    if (!part.added && !part.removed) {
      removed += part.value;
      added += part.value;
      continue;
    }
    let value = part.value;
    const first = part.removed ? firstRemoved : firstAdded;
    const lead = first ? /^\s*/.exec(value)![0] : "";
    value = value.slice(lead.length);
    if (part.removed) {
      firstRemoved = false;
      removed += lead + (value ? theme.inverse(value) : "");
    } else {
      firstAdded = false;
      added += lead + (value ? theme.inverse(value) : "");
    }
  }
  return [removed, added];
}

/** A diff in generateDiffString's format, coloured: removed red, added green, context faint; a one-line change marks its words. */
export function renderDiff(diffText: string, _options: RenderDiffOptions = {}): string {
  const theme = currentTheme();
  const lines = String(diffText).split("\n");
  const out: string[] = [];
  const run = (from: number, sign: "+" | "-") => {
    const taken: DiffLine[] = [];
    for (let line = parseLine(lines[from] ?? ""); line?.sign === sign; line = parseLine(lines[from + taken.length] ?? "")) taken.push(line);
    return taken;
  };
  for (let index = 0; index < lines.length; ) {
    const line = parseLine(lines[index]!);
    if (!line) {
      out.push(theme.fg("toolDiffContext", lines[index]!));
      index++;
    } else if (line.sign === "-") {
      const removed = run(index, "-");
      const added = run(index + removed.length, "+");
      index += removed.length + added.length;
      if (removed.length === 1 && added.length === 1) {
        const [before, after] = wordChanges(removed[0]!.text, added[0]!.text);
        out.push(theme.fg("toolDiffRemoved", `-${removed[0]!.number} ${before}`), theme.fg("toolDiffAdded", `+${added[0]!.number} ${after}`));
      } else {
        for (const entry of removed) out.push(theme.fg("toolDiffRemoved", `-${entry.number} ${entry.text}`));
        for (const entry of added) out.push(theme.fg("toolDiffAdded", `+${entry.number} ${entry.text}`));
      }
    } else {
      out.push(theme.fg(line.sign === "+" ? "toolDiffAdded" : "toolDiffContext", `${line.sign}${line.number} ${line.text}`));
      index++;
    }
  }
  return out.join("\n");
}

export interface VisualTruncateResult {
  visualLines: readonly string[];
  skippedCount: number;
}

/** `text` wrapped to `width` (less `paddingX` each side), cut to its last (or first) `maxVisualLines` lines. */
export function truncateToVisualLines(text: string, maxVisualLines: number, width: number, paddingX = 0, keep: "start" | "end" = "end"): VisualTruncateResult {
  if (!text) return { visualLines: [], skippedCount: 0 };
  const pad = " ".repeat(Math.max(0, paddingX));
  const lines = wrapTextWithAnsi(text, Math.max(1, width - 2 * paddingX)).map((line) => `${pad}${line}${pad}`);
  if (lines.length <= maxVisualLines) return { visualLines: lines, skippedCount: 0 };
  return { visualLines: keep === "start" ? lines.slice(0, maxVisualLines) : lines.slice(-maxVisualLines), skippedCount: lines.length - maxVisualLines };
}
