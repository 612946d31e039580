/**
 * A script's result as the model reads it (pi 1.6's layout, so a recorded conversation reads the
 * same): `Script completed`/`Script failed`, the wall time, then the output items in order. With
 * more than one text item each opens with `==> text N/M <==`; `console.*` lines follow in one
 * `<console_output>` block; a failure ends with `Script error:` and the calls already made.
 * Text past the token budget keeps its head and tail and is saved whole to a temp file; each
 * image is saved to a temp file named just before it.
 */
import { unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ToolContent } from "../../kernel/index.js";
import { randomHex } from "../../lib/random-ids/index.js";
import { formatSize } from "../../lib/truncate/index.js";
import type { OutputItem, ScriptError } from "./sandbox/protocol.js";

export const DEFAULT_MAX_OUTPUT_TOKENS = 10_000;
const CHARS_PER_TOKEN = 4;
const IMAGE_EXTENSIONS: Record<string, string> = { "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp" };

type Text = Extract<ToolContent, { type: "text" }>;

/** A text item, a value as `text()` shows it: strings as they are, the rest as compact JSON. */
export function valueText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

/** Numbered text items and images in order, then the console block. */
export function layoutOutput(output: readonly OutputItem[]): ToolContent[] {
  const total = output.filter((item) => item.type === "text" && !item.console).length;
  const items: ToolContent[] = [];
  const consoleLines: string[] = [];
  let index = 0;
  for (const item of output) {
    if (item.type === "image") items.push({ type: "image", data: item.data, mimeType: item.mimeType });
    else if (item.console) consoleLines.push(item.text);
    else {
      index++;
      items.push({ type: "text", text: total > 1 ? `==> text ${index}/${total} <==\n${item.text}` : item.text });
    }
  }
  if (consoleLines.length > 0) items.push({ type: "text", text: `<console_output>\n${consoleLines.join("\n")}\n</console_output>` });
  return items;
}

/** Adjacent text items become one, each part on its own line (parts are joined once: no quadratic copying). */
export function joinTexts(items: readonly ToolContent[]): ToolContent[] {
  const joined: ToolContent[] = [];
  let parts: string[] = [];
  let last = "";
  const flush = () => {
    if (parts.length > 0) joined.push({ type: "text", text: parts.join("") });
    parts = [];
    last = "";
  };
  for (const item of items) {
    if (item.type !== "text") {
      flush();
      joined.push(item);
      continue;
    }
    if (last !== "" && !last.endsWith("\n")) {
      parts.push("\n");
      last = "\n";
    }
    parts.push(item.text);
    if (item.text !== "") last = item.text;
  }
  flush();
  return joined;
}

export interface CallSummary {
  name: string;
  status: "running" | "ok" | "error" | "cancelled";
}

/** The error, then which calls were made before it (they are real and not undone). */
export function errorText(error: ScriptError, calls: readonly CallSummary[]): string {
  const head =
    error.kind === "script"
      ? (error.stack ?? `${error.name ?? "Error"}: ${error.message}`)
      : error.kind === "timeout"
        ? `Script timed out: ${error.message}`
        : error.kind === "aborted"
          ? `Script aborted: ${error.message}`
          : `Script sandbox failed: ${error.message}`;
  const made =
    calls.length === 0
      ? "No tool calls were made."
      : `Tool calls made before the failure (they are not undone): ${calls.map((call) => `${call.name} (${call.status})`).join(", ")}`;
  return `${head}\n\n${made}`;
}

/** `Script completed` or `Script failed`, and the wall time in seconds. */
export function header(ok: boolean, wallMs: number): Text {
  return { type: "text", text: `${ok ? "Script completed" : "Script failed"}\nWall time ${(wallMs / 1000).toFixed(1)} seconds\nOutput:\n` };
}

/** The files this process saved: removed at shutdown (they serve the model's later turns in this process). */
const savedFiles = new Set<string>();

/** A file of its own in the temp folder (0600). */
export async function saveTempFile(extension: string, data: string | Uint8Array): Promise<string> {
  const path = join(tmpdir(), `atomic-codemode-${randomHex(8)}${extension}`);
  savedFiles.add(path);
  await writeFile(path, data, { mode: 0o600 });
  return path;
}

export async function removeSavedFiles(): Promise<void> {
  const paths = [...savedFiles];
  savedFiles.clear();
  await Promise.all(paths.map((path) => unlink(path).catch(() => undefined)));
}

/**
 * The token budget: past it, the text items become one that keeps the head and the tail around a
 * marker, images follow, and the whole text goes to a temp file the text names.
 */
export async function limitOutput(items: ToolContent[], maxTokens: number): Promise<{ items: ToolContent[]; fullOutputPath?: string }> {
  const texts = items.filter((item): item is Text => item.type === "text").map((item) => item.text);
  const combined = texts.join("\n");
  const budget = maxTokens * CHARS_PER_TOKEN;
  if (texts.length === 0 || combined.length <= budget) return { items };
  const headChars = Math.floor(budget / 2);
  const tailChars = budget - headChars;
  const removed = combined.length - headChars - tailChars;
  let text = `Warning: truncated output (original token count: ${Math.ceil(combined.length / CHARS_PER_TOKEN)})\nTotal output lines: ${combined.split("\n").length}\n\n${head(combined, headChars)}…${Math.ceil(removed / CHARS_PER_TOKEN)} tokens truncated…${tail(combined, tailChars)}`;
  let fullOutputPath: string | undefined;
  try {
    fullOutputPath = await saveTempFile(".txt", combined);
    text += `\n\n[Full output: ${fullOutputPath} (read with offset/limit)]`;
  } catch (error) {
    text += `\n\n[Could not save the full output: ${(error as Error).message}]`;
  }
  const images = items.filter((item) => item.type === "image");
  return { items: [{ type: "text", text }, ...images], ...(fullOutputPath ? { fullOutputPath } : {}) };
}

/** Each image is saved once and preceded by a line naming its file (a later turn can move it). */
export async function saveImages(items: ToolContent[]): Promise<ToolContent[]> {
  const labels = new Map<string, Promise<string>>();
  const label = async (data: string, mimeType: string): Promise<string> => {
    const bytes = Buffer.from(data, "base64");
    const kind = `${mimeType}, ${formatSize(bytes.length)}`;
    try {
      return `[Image saved to ${await saveTempFile(IMAGE_EXTENSIONS[mimeType] ?? ".bin", bytes)} (${kind})]`;
    } catch (error) {
      return `[Image (${kind}) could not be saved: ${(error as Error).message}]`;
    }
  };
  const expanded = await Promise.all(
    items.map(async (item): Promise<ToolContent[]> => {
      if (item.type !== "image") return [item];
      let pending = labels.get(item.data);
      if (!pending) labels.set(item.data, (pending = label(item.data, item.mimeType)));
      return [{ type: "text", text: await pending }, item];
    }),
  );
  return expanded.flat();
}

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** At most `units` UTF-16 units from the start, never half a surrogate pair. */
function head(text: string, units: number): string {
  const end = Math.max(0, units);
  return isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end)) ? text.slice(0, end - 1) : text.slice(0, end);
}

function tail(text: string, units: number): string {
  if (units <= 0) return "";
  const start = Math.max(0, text.length - units);
  return isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1)) ? text.slice(start + 1) : text.slice(start);
}
