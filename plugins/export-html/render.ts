/**
 * The exported page: one self-contained HTML document (inline CSS, no scripts, no network
 * assets) with a summary header, the active branch, and the whole session as inert data. It is
 * produced as a stream of pieces, a slice of entries at a time, yielding to the event loop in
 * between, with markdown rendered in a worker (markdown-pool.ts): a large session neither holds
 * the whole page in memory nor blocks the loop. Loaded lazily by the export command.
 */
import { secureRandomHex } from "../../lib/random-ids/index.js";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { SessionEntry, SessionHeader } from "../session/api.js";
import { computeSessionTotals } from "../session/api.js";
import { escapeHtml, nextTurn, textSlices } from "./escape.js";
import { MarkdownPool } from "./markdown-pool.js";
import { createRenderState, renderEntries, type RenderState } from "./render-messages.js";
import { PAGE_CSS } from "./styles.js";

export interface ExportInput {
  header: SessionHeader;
  sessionFile: string;
  sessionName?: string | undefined;
  /** The active branch, root -> leaf. */
  branch: readonly SessionEntry[];
  /** Every entry of the session (all branches), for the embedded session data. Defaults to `branch`. */
  entries?: readonly SessionEntry[];
  /** The current leaf, for the embedded session data. Defaults to the branch's last entry. */
  leafId?: string | null;
  generatedAt?: Date;
}

/** Entries rendered per slice: a few milliseconds of main-thread work between yields. */
const SLICE_ENTRIES = 500;
/** Session data is encoded in pieces of about this many characters of JSON. */
const DATA_PIECE_CHARS = 1024 * 1024;

/** highlight.js's GitHub theme, read from node_modules so the page needs nothing external. */
export async function loadHighlightCss(): Promise<string> {
  const path = createRequire(import.meta.url).resolve("highlight.js/styles/github.css");
  return readFile(path, "utf8");
}

/** The page as one string (tests and small sessions; the command streams with writeSessionHtml). */
export async function renderSessionHtml(input: ExportInput): Promise<string> {
  const parts: string[] = [];
  await writeSessionHtml(input, async (text) => void parts.push(text));
  return parts.join("");
}

/** Writes the page in order through `write` (awaited, so a slow sink holds the producer back). */
export async function writeSessionHtml(input: ExportInput, write: (text: string) => Promise<void>): Promise<void> {
  const title = input.sessionName ?? `Atomic session ${input.header.id}`;
  const highlightCss = await loadHighlightCss();
  await write(
    [
      "<!DOCTYPE html>",
      '<html lang="en">',
      "<head>",
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      // No script and no remote loads: even a missed escape could not run or phone home.
      `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`,
      `<title>${escapeHtml(title)}</title>`,
      `<style>${safeCss(highlightCss)}\n${PAGE_CSS}</style>`,
      "</head>",
      "<body>",
      "<main>",
      renderSummary(input, title),
      "",
    ].join("\n"),
  );
  const pool = new MarkdownPool();
  try {
    const state = createRenderState(input.branch);
    // The worker renders one slice's markdown while this thread lays out the next.
    let previous: Promise<string> | undefined;
    for (let start = 0; start < input.branch.length; start += SLICE_ENTRIES) {
      const slice = renderSlice(input.branch.slice(start, start + SLICE_ENTRIES), state, pool);
      slice.catch(() => undefined); // awaited below; this only keeps an early failure from going unhandled
      if (previous) await write(await previous);
      previous = slice;
      await nextTurn();
    }
    if (previous) await write(await previous);
  } finally {
    await pool.close();
  }
  await write("\n</main>\n");
  await writeSessionData(input, write);
  await write("\n</body>\n</html>\n");
}

/**
 * A slice's HTML. Laid out now with a placeholder per markdown text (a random marker no session
 * text can contain), filled in when the worker has rendered them.
 */
function renderSlice(entries: readonly SessionEntry[], state: RenderState, pool: MarkdownPool): Promise<string> {
  const marker = `\u0000${secureRandomHex(12)}:`;
  const texts: string[] = [];
  const html = renderEntries(entries, state, (text) => `${marker}${texts.push(text) - 1}\u0000`);
  if (texts.length === 0) return Promise.resolve(html === "" ? "" : `${html}\n`);
  return pool.renderAll(texts).then((rendered) => {
    const pieces = html.split(marker);
    let out = pieces[0]!;
    for (let i = 1; i < pieces.length; i++) {
      const piece = pieces[i]!;
      const end = piece.indexOf("\u0000");
      out += rendered[Number(piece.slice(0, end))]! + piece.slice(end + 1);
    }
    return `${out}\n`;
  });
}

function renderSummary(input: ExportInput, title: string): string {
  const { header, branch } = input;
  const totals = computeSessionTotals(branch);
  const models = new Set<string>();
  let thinkingLevel: string | undefined;
  for (const entry of branch) {
    if (entry.type === "model_change") models.add(`${entry.provider}/${entry.modelId}`);
    else if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (entry.type === "message" && entry.message.role === "assistant") models.add(`${entry.message.provider}/${entry.message.model}`);
  }
  const t = totals.tokens;
  const rows: [string, string][] = [
    ["Session", header.id],
    ["File", input.sessionFile],
    ["Working directory", header.cwd],
    ["Created", header.timestamp],
    ["Model", models.size ? [...models].join(", ") : "(none)"],
  ];
  if (thinkingLevel) rows.push(["Thinking level", thinkingLevel]);
  if (header.parentSession) rows.push(["Forked from", header.parentSession]);
  const offBranch = (input.entries?.length ?? branch.length) - branch.length;
  if (offBranch > 0) rows.push(["Other branches", `${offBranch} entries not shown (kept in the embedded session data)`]);
  rows.push(
    ["Messages", `${totals.userMessages} user, ${totals.assistantMessages} assistant, ${totals.toolCalls} tool calls`],
    ["Tokens", `${t.input} in, ${t.output} out, ${t.cacheRead} cache read, ${t.cacheWrite} cache write (${t.total} total)`],
    ["Cost", `$${totals.cost.toFixed(4)}`],
    ["Exported", (input.generatedAt ?? new Date()).toISOString()],
  );
  const cells = rows.map(([key, value]) => `<dt>${escapeHtml(key)}</dt><dd>${escapeHtml(value)}</dd>`).join("");
  return `<header class="summary"><h1>${escapeHtml(title)}</h1><dl>${cells}</dl></header>`;
}

/**
 * The whole session (header, every entry of every branch, the leaf) as base64 JSON in an inert
 * element: the page shows the active branch, while tools and viewers can rebuild the full tree
 * from the file. Base64 cannot break out of the element, and a <template> never renders or runs.
 * Encoded piece by piece, so no single string grows with the session (V8 caps one at ~512 MiB).
 */
async function writeSessionData(input: ExportInput, write: (text: string) => Promise<void>): Promise<void> {
  const entries = input.entries ?? input.branch;
  const leafId = input.leafId !== undefined ? input.leafId : (input.branch.at(-1)?.id ?? null);
  const base64 = new Base64Pieces();
  await write('<template id="session-data" data-encoding="base64">');
  await write(base64.push(`{"header":${JSON.stringify(input.header)},"entries":[`));
  // One native stringify per run of entries (per entry costs ~3x); runs sized to ~DATA_PIECE_CHARS.
  let run = 256;
  for (let start = 0; start < entries.length; ) {
    const end = Math.min(entries.length, start + run);
    const json = JSON.stringify(entries.slice(start, end));
    // A single huge entry is encoded a piece at a time, the loop let in between.
    for (const piece of textSlices((start > 0 ? "," : "") + json.slice(1, -1))) {
      await write(base64.push(piece));
      await nextTurn();
    }
    run = json.length > DATA_PIECE_CHARS ? Math.max(1, run >> 1) : json.length < DATA_PIECE_CHARS / 2 ? run * 2 : run;
    start = end;
    await nextTurn();
  }
  await write(base64.push(`],"leafId":${JSON.stringify(leafId)}}`) + base64.end());
  await write("</template>");
}

/** Base64 of a byte stream given in pieces: carries the 0-2 bytes that do not fill a group of 3. */
class Base64Pieces {
  #carry = Buffer.alloc(0);

  push(text: string): string {
    const bytes = this.#carry.length > 0 ? Buffer.concat([this.#carry, Buffer.from(text, "utf8")]) : Buffer.from(text, "utf8");
    const whole = bytes.length - (bytes.length % 3);
    this.#carry = bytes.subarray(whole);
    return bytes.subarray(0, whole).toString("base64");
  }

  end(): string {
    const rest = this.#carry.toString("base64");
    this.#carry = Buffer.alloc(0);
    return rest;
  }
}

/** A stylesheet cannot close the <style> element early. */
function safeCss(css: string): string {
  return css.replace(/<\/style/gi, "<\\/style");
}
