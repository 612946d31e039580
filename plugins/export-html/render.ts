/**
 * The exported page: one self-contained HTML document (inline CSS, no scripts, no network
 * assets) with a summary header and the active branch. Loaded lazily by the export command.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { SessionEntry, SessionHeader } from "../session/api.js";
import { computeSessionTotals } from "../session/api.js";
import { createMarkdownRenderer, escapeHtml } from "./markdown.js";
import { renderBranch } from "./render-messages.js";
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

/** highlight.js's GitHub theme, read from node_modules so the page needs nothing external. */
export async function loadHighlightCss(): Promise<string> {
  const path = createRequire(import.meta.url).resolve("highlight.js/styles/github.css");
  return readFile(path, "utf8");
}

export async function renderSessionHtml(input: ExportInput): Promise<string> {
  const markdown = createMarkdownRenderer();
  const highlightCss = await loadHighlightCss();
  const title = input.sessionName ?? `Atomic session ${input.header.id}`;
  return [
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
    renderBranch(input.branch, markdown),
    "</main>",
    sessionData(input),
    "</body>",
    "</html>",
    "",
  ].join("\n");
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
 */
function sessionData(input: ExportInput): string {
  const entries = input.entries ?? input.branch;
  const leafId = input.leafId !== undefined ? input.leafId : (input.branch.at(-1)?.id ?? null);
  const json = JSON.stringify({ header: input.header, entries, leafId });
  return `<template id="session-data" data-encoding="base64">${Buffer.from(json, "utf8").toString("base64")}</template>`;
}

/** A stylesheet cannot close the <style> element early. */
function safeCss(css: string): string {
  return css.replace(/<\/style/gi, "<\\/style");
}
