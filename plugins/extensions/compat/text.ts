/**
 * pi's small text helpers, with pi's behaviour: frontmatter (synchronous, YAML), one line cut
 * to a length, a read call's line range, the two diff forms of its edit tool, an in-process event
 * bus, and a synthetic resource's source info.
 */
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * `---` YAML `---` at the start of a Markdown text: the mapping and the body (trimmed). Without a
 * block (or one never closed) the frontmatter is empty and the body is the whole text; invalid
 * YAML throws, as in pi.
 */
export function parseFrontmatter<T extends Record<string, unknown> = Record<string, unknown>>(content: string): { frontmatter: T; body: string } {
  const text = String(content)
    .replace(/^\uFEFF/, "")
    .replace(/\r\n?/g, "\n");
  const end = text.startsWith("---") ? text.indexOf("\n---", 3) : -1;
  if (end === -1) return { frontmatter: {} as T, body: text };
  const yaml = text.slice(4, end);
  const body = text.slice(end + 4).trim();
  if (yaml === "") return { frontmatter: {} as T, body };
  // yaml loads only when a template has frontmatter to read.
  const parsed = (require("yaml") as typeof import("yaml")).parse(yaml) as unknown;
  return { frontmatter: (parsed ?? {}) as T, body };
}

export function stripFrontmatter(content: string): string {
  return parseFrontmatter(content).body;
}

/** Characters of a grep match line pi keeps. */
const MAX_LINE_CHARS = 500;

/** `line` cut to `maxChars` UTF-16 units (never inside a surrogate pair), marked `... [truncated]`. */
export function truncateLine(line: string, maxChars = MAX_LINE_CHARS): { text: string; wasTruncated: boolean } {
  if (line.length <= maxChars) return { text: line, wasTruncated: false };
  let end = Math.max(0, maxChars);
  const code = line.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return { text: `${line.slice(0, end)}... [truncated]`, wasTruncated: true };
}

const lineNumber = (value: unknown): number | undefined => {
  const number = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof number === "number" && Number.isFinite(number) ? number : undefined;
};

/** A read call's range as pi shows it after the path: `:start`, `:start-end`, or "" (none, or malformed). */
export function formatReadLineRange(offset?: unknown, limit?: unknown): string {
  if (offset == null && limit == null) return "";
  const start = offset == null ? 1 : lineNumber(offset);
  if (start === undefined) return "";
  if (limit == null) return `:${start}`;
  const count = lineNumber(limit);
  if (count === undefined) return "";
  const end = start + count - 1;
  return `:${start}${end ? `-${end}` : ""}`;
}

/** A unified patch of one file (file headers only, `contextLines` around each change). */
export function generateUnifiedPatch(path: string, oldContent: string, newContent: string, contextLines = 4): string {
  const diff = require("diff") as typeof import("diff");
  return diff.createTwoFilesPatch(path, path, oldContent, newContent, undefined, undefined, { context: contextLines, headerOptions: diff.FILE_HEADERS_ONLY });
}

/**
 * The diff pi's edit tool shows: `+12 line`, `-12 line`, ` 12 line` with numbers padded to the
 * widest, `contextLines` of unchanged text each side of a change, `...` for what is left out.
 */
export function generateDiffString(oldContent: string, newContent: string, contextLines = 4): { diff: string; firstChangedLine: number | undefined } {
  const { diffLines } = require("diff") as typeof import("diff");
  const width = String(Math.max(oldContent.split("\n").length, newContent.split("\n").length)).length;
  const number = (value: number) => String(value).padStart(width, " ");
  const gap = ` ${"".padStart(width, " ")} ...`;
  const parts = diffLines(oldContent, newContent);
  const out: string[] = [];
  let oldLine = 1;
  let newLine = 1;
  let firstChangedLine: number | undefined;
  parts.forEach((part, index) => {
    const lines = part.value.split("\n");
    if (lines.at(-1) === "") lines.pop();
    if (part.added || part.removed) {
      firstChangedLine ??= newLine;
      for (const line of lines) out.push(part.added ? `+${number(newLine++)} ${line}` : `-${number(oldLine++)} ${line}`);
      return;
    }
    const previous = parts[index - 1];
    const next = parts[index + 1];
    const head = previous && (previous.added || previous.removed) ? contextLines : 0;
    const tail = next && (next.added || next.removed) ? contextLines : 0;
    const context = (line: string) => {
      out.push(` ${number(oldLine++)} ${line}`);
      newLine++;
    };
    if (head + tail >= lines.length && head + tail > 0) {
      lines.forEach(context);
      return;
    }
    lines.slice(0, head).forEach(context);
    const skipped = lines.length - head - tail;
    if (head + tail > 0 && skipped > 0) out.push(gap);
    oldLine += skipped;
    newLine += skipped;
    lines.slice(lines.length - tail).forEach(context);
  });
  return { diff: out.join("\n"), firstChangedLine };
}

export interface EventBus {
  emit(channel: string, data: unknown): void;
  on(channel: string, handler: (data: unknown) => unknown): () => void;
}
export interface EventBusController extends EventBus {
  clear(): void;
}

/** Channels between extensions (pi.events is one): a failing handler is logged on stderr, not thrown at the emitter. */
export function createEventBus(): EventBusController {
  const emitter = new EventEmitter();
  return {
    emit: (channel, data) => void emitter.emit(channel, data),
    on: (channel, handler) => {
      const guarded = async (data: unknown) => {
        try {
          await handler(data);
        } catch (error) {
          console.error(`Event handler error (${channel}):`, error);
        }
      };
      emitter.on(channel, guarded);
      return () => void emitter.off(channel, guarded);
    },
    clear: () => void emitter.removeAllListeners(),
  };
}

export type SourceScope = "user" | "project" | "temporary";
export type SourceOrigin = "package" | "top-level";
export interface SourceInfo {
  path: string;
  source: string;
  scope: SourceScope;
  origin: SourceOrigin;
  baseDir?: string;
  changelogPath?: string;
}

/** Where a resource made in code (not read from a package) says it comes from. */
export function createSyntheticSourceInfo(
  path: string,
  options: { source: string; scope?: SourceScope; origin?: SourceOrigin; baseDir?: string; changelogPath?: string },
): SourceInfo {
  return {
    path,
    source: options.source,
    scope: options.scope ?? "temporary",
    origin: options.origin ?? "top-level",
    ...(options.baseDir !== undefined ? { baseDir: options.baseDir } : {}),
    ...(options.changelogPath ? { changelogPath: options.changelogPath } : {}),
  };
}
