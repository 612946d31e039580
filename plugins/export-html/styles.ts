/** The export page's own stylesheet (highlight.js's theme is inlined next to it). */
export const PAGE_CSS = `
:root { color-scheme: light; --border: #d0d7de; --muted: #57606a; --bg-user: #f6f8fa; --bg-tool: #fbfbfb; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.55 -apple-system, BlinkMacSystemFont, "Segoe UI", Helvetica, Arial, sans-serif; color: #1f2328; background: #fff; }
main { max-width: 920px; margin: 0 auto; padding: 24px 16px 64px; }
h1 { font-size: 22px; margin: 0 0 12px; word-break: break-word; }
.summary { border-bottom: 1px solid var(--border); margin-bottom: 20px; padding-bottom: 12px; }
.summary dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; font-size: 13px; }
.summary dt { color: var(--muted); }
.summary dd { margin: 0; word-break: break-all; }
.message { border: 1px solid var(--border); border-radius: 8px; margin: 14px 0; padding: 10px 14px; }
.message > header { display: flex; justify-content: space-between; gap: 12px; font-weight: 600; font-size: 13px; color: var(--muted); margin-bottom: 6px; }
.message > header time { font-weight: 400; }
.message.user { background: var(--bg-user); }
.message.tool, .message.bash { background: var(--bg-tool); }
.meta { font-weight: 400; }
.markdown > :first-child { margin-top: 0; }
.markdown > :last-child { margin-bottom: 0; }
pre { background: #f6f8fa; border-radius: 6px; padding: 8px 10px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; font: 12.5px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre code.hljs { padding: 0; background: transparent; }
details.thinking summary, details.compaction summary { cursor: pointer; color: var(--muted); font-size: 13px; }
details.thinking pre { color: var(--muted); }
details.compaction { border: 1px dashed var(--border); border-radius: 8px; padding: 8px 14px; margin: 14px 0; }
.tool-call { border-left: 3px solid #8250df; padding-left: 10px; margin: 8px 0; }
.tool-name { font-family: ui-monospace, monospace; font-weight: 600; font-size: 13px; }
.tool-result { border-left: 3px solid #1a7f37; padding-left: 10px; }
.tool-result.is-error { border-left-color: #cf222e; }
.error { color: #cf222e; }
.note { color: var(--muted); font-size: 13px; margin: 6px 0; }
.command { font-weight: 600; }
.inline-image { max-width: 100%; border-radius: 6px; }
.md-image { color: var(--muted); }
`;
