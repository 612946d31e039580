import { describe, expect, it } from "vitest";
import { MarkdownPool } from "./markdown-pool.js";
import { MAX_MARKDOWN_CHARS, markdownRisk, nestingDepth, plainTextHtml } from "./markdown-guard.js";

describe("nestingDepth", () => {
  it("counts quote and list markers and indentation at the start of each line", () => {
    expect(nestingDepth("plain text\nmore")).toBe(0);
    expect(nestingDepth("> quote\n> > nested")).toBe(2);
    expect(nestingDepth(">>>> x")).toBe(4);
    expect(nestingDepth("- a\n  - b\n    - c")).toBe(3);
    expect(nestingDepth("1. a\n   2) b")).toBe(2);
    expect(nestingDepth("> - 1. x")).toBe(3);
    expect(nestingDepth("a - b > c")).toBe(0); // markers only count in the line's prefix
    expect(nestingDepth("-not a list\n2024.05 is a date")).toBe(0);
  });
});

describe("markdownRisk", () => {
  it("passes ordinary markdown, and names the reason for huge or deeply nested text", () => {
    expect(markdownRisk("# Title\n\n- item\n  - sub\n\n```ts\nconst x = 1;\n```")).toBeUndefined();
    expect(markdownRisk("a".repeat(MAX_MARKDOWN_CHARS + 1))).toBe("it is over 256.0KB");
    expect(markdownRisk(">".repeat(2000))).toBe("it nests 2000 levels deep (over 64)");
  });

  it("shows rejected text escaped and preformatted", () => {
    expect(plainTextHtml("<b>&", "it is odd")).toBe('<div class="note">Shown as plain text: it is odd.</div><pre class="markdown-source">&lt;b&gt;&amp;</pre>');
  });
});

describe("MarkdownPool", () => {
  it("renders in a worker, and answers a text that stalls it as plain text, then carries on", async () => {
    const pool = new MarkdownPool();
    try {
      const [first, slow, last] = await pool.renderAll(["**one**", "_a".repeat(60_000), "*three*"]);
      expect(first).toBe("<p><strong>one</strong></p>\n");
      expect(slow).toMatch(/^<div class="note">Shown as plain text: it took over 1 s to render\.<\/div><pre class="markdown-source">_a_a/);
      expect(last).toBe("<p><em>three</em></p>\n");
      expect(await pool.renderAll(["`code`"])).toEqual(["<p><code>code</code></p>\n"]);
    } finally {
      await pool.close();
    }
  }, 30_000);
});
