/** The export's embedded session data (every branch, the leaf) and the JSON highlighter. */
import { describe, expect, it } from "vitest";
import type { SessionEntry, SessionHeader } from "../session/api.js";
import { SessionTree } from "../session/tree.js";
import { assistant, user } from "../session/fixtures.test-support.js";
import { highlightJson } from "./markdown.js";
import { renderSessionHtml } from "./render.js";

const header: SessionHeader = { type: "session", version: 1, id: "sess-2", timestamp: "2026-06-06T00:00:00.000Z", cwd: "/w" };

function sessionData(html: string): { header: SessionHeader; entries: SessionEntry[]; leafId: string | null } {
  const match = /<template id="session-data" data-encoding="base64">([A-Za-z0-9+/=]*)<\/template>/.exec(html);
  return JSON.parse(Buffer.from(match![1]!, "base64").toString("utf8"));
}

describe("export session data", () => {
  it("embeds every entry of every branch and the leaf, inert and escaped", async () => {
    const tree = new SessionTree();
    const u1 = tree.append({ type: "message", message: user("first </template><script>alert(1)</script>") });
    const abandoned = tree.append({ type: "message", message: assistant("abandoned answer") });
    tree.moveLeaf(u1.id);
    const kept = tree.append({ type: "message", message: assistant("kept answer") });

    const html = await renderSessionHtml({ header, sessionFile: "/s/x.jsonl", branch: tree.branch(), entries: tree.entries(), leafId: tree.leafId });
    const data = sessionData(html);
    expect(data.header).toEqual(header);
    expect(data.entries.map((e) => e.id)).toEqual([u1.id, abandoned.id, kept.id]);
    expect(data.leafId).toBe(kept.id);
    // The page shows the active branch; the other branch is only in the data.
    expect(html).toContain("kept answer");
    expect(html).not.toContain("abandoned answer");
    expect(html).toContain("<dt>Other branches</dt><dd>1 entries not shown");
    expect(html).not.toContain("<script");
  });

  it("defaults to the branch when no entries are given", async () => {
    const branch: SessionEntry[] = [{ type: "message", id: "m1", parentId: null, timestamp: header.timestamp, message: user("hi") }];
    expect(sessionData(await renderSessionHtml({ header, sessionFile: "/s/x.jsonl", branch }))).toMatchObject({ leafId: "m1", entries: branch });
  });
});

describe("highlightJson", () => {
  it("marks keys, strings, numbers and literals, escaping everything", () => {
    const json = JSON.stringify({ cmd: "echo '<b>' \"q\" 42", n: -1.5e3, ok: true, none: null, list: [1, "two"] }, null, 2);
    const html = highlightJson(json);
    expect(html).toContain('<span class="hljs-attr">&quot;cmd&quot;</span>: <span class="hljs-string">&quot;echo &#39;&lt;b&gt;&#39; \\&quot;q\\&quot; 42&quot;</span>');
    expect(html).toContain('<span class="hljs-number">-1500</span>');
    expect(html).toContain('<span class="hljs-literal">true</span>');
    expect(html).toContain('<span class="hljs-literal">null</span>');
    expect(
      html
        .replace(/<[^>]+>/g, "")
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&"),
    ).toBe(json);
  });
});
