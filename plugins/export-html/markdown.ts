/**
 * Server-side markdown for the export: marked with raw HTML escaped (session text is untrusted),
 * only http(s)/mailto/relative links, no remote images (the page must not fetch anything), and
 * code blocks highlighted by highlight.js at export time. Runs in the markdown worker
 * (markdown-worker.ts), never on the main thread.
 */
import hljs from "highlight.js/lib/common";
import { Marked, type RendererObject, type Tokens } from "marked";
import { escapeHtml } from "./escape.js";

export { escapeHtml, highlightJson } from "./escape.js";

/** Highlighted HTML for `code` (escaped by highlight.js), or plain escaped text for unknown languages. */
export function highlightCode(code: string, language: string | undefined): string {
  if (language && hljs.getLanguage(language)) {
    return hljs.highlight(code, { language, ignoreIllegals: true }).value;
  }
  return escapeHtml(code);
}

/** A scheme we let a link keep; anything else (javascript:, data:, ...) is rendered as text. */
function isSafeHref(href: string): boolean {
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(href)?.[1]?.toLowerCase();
  return scheme === undefined || scheme === "http" || scheme === "https" || scheme === "mailto";
}

const renderer: RendererObject<string, string> = {
  html(token: Tokens.HTML | Tokens.Tag): string {
    const escaped = escapeHtml(token.text);
    return token.type === "html" && token.block ? `<p class="raw-html">${escaped}</p>\n` : escaped;
  },
  code({ text, lang }: Tokens.Code): string {
    const language = /^[\w+#.-]+/.exec(lang ?? "")?.[0];
    const cls = language ? ` language-${escapeHtml(language)}` : "";
    return `<pre><code class="hljs${cls}">${highlightCode(text, language)}</code></pre>\n`;
  },
  link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, { href, title, tokens }: Tokens.Link): string {
    const inner = this.parser.parseInline(tokens);
    if (!isSafeHref(href)) return inner;
    const titleAttr = title ? ` title="${escapeHtml(title)}"` : "";
    return `<a href="${escapeHtml(href)}"${titleAttr} rel="noopener noreferrer nofollow">${inner}</a>`;
  },
  image({ href, text }: Tokens.Image): string {
    // Shown as text: loading it would make the exported page fetch from the network.
    return `<span class="md-image">[image: ${escapeHtml(text || href)}]</span>`;
  },
};

/** A markdown -> HTML function with the rules above; one Marked instance per export. */
export function createMarkdownRenderer(): (markdown: string) => string {
  const marked = new Marked({ gfm: true, breaks: true, async: false });
  marked.use({ renderer });
  return (markdown) => marked.parse(markdown, { async: false });
}
