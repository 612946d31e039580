import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createKernel, definePlugin, silentLogger } from "../../kernel/index.js";
import type { SessionEntry, SessionHeader } from "../session/api.js";
import { createHarness, disposeHarnesses } from "../session/harness.test-support.js";
import { assistant, toolResult, user } from "../session/fixtures.test-support.js";
import exportHtml from "./index.js";
import { renderSessionHtml } from "./render.js";

const XSS = "<script>alert(1)</script>";
const header: SessionHeader = { type: "session", version: 1, id: "sess-1", timestamp: "2026-06-06T00:00:00.000Z", cwd: "/w" };

function entries(): SessionEntry[] {
  const messages = [
    user(`please ${XSS} **bold**\n\n<img src=x onerror=alert(2)>\n\n[click](javascript:alert(3))`),
    assistant("x", {
      content: [
        { type: "thinking", thinking: `pondering ${XSS}` },
        { type: "text", text: "Here:\n\n```ts\nconst tag = '<b>';\n```" },
        { type: "toolCall", id: "c1", name: "bash", arguments: { command: `echo '${XSS}'` } },
      ],
      stopReason: "toolUse",
    }),
    toolResult("c1", `out ${XSS}`),
    { role: "bashExecution", command: `cat ${XSS}`, output: `bash ${XSS}`, exitCode: 2, cancelled: false, truncated: false, fullOutputPath: null, timestamp: 5 },
  ] as const;
  const list: SessionEntry[] = [{ type: "model_change", id: "e0", parentId: null, timestamp: header.timestamp, provider: "test", modelId: "m1" }];
  messages.forEach((message, i) => list.push({ type: "message", id: `m${i}`, parentId: list.at(-1)!.id, timestamp: header.timestamp, message: message as any }));
  list.push({ type: "compaction", id: "c0", parentId: list.at(-1)!.id, timestamp: header.timestamp, summary: `summary ${XSS}`, firstKeptEntryId: null, tokensBefore: 1234 });
  return list;
}

describe("renderSessionHtml", () => {
  it("should escape all session content: no injected tag survives", async () => {
    const html = await renderSessionHtml({ header, sessionFile: "/s/x.jsonl", sessionName: `name ${XSS}`, branch: entries() });
    expect(html).not.toContain("<script");
    expect(html).not.toMatch(/<img[^>]*onerror/i);
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("<title>name &lt;script&gt;");
  });

  it("should show markdown, thinking, tool calls with results, bash, compaction and a summary header", async () => {
    const html = await renderSessionHtml({ header, sessionFile: "/s/x.jsonl", branch: entries() });
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toMatch(/<details class="thinking"><summary>Thinking<\/summary>/);
    expect(html).toContain('<code class="hljs language-ts"><span class="hljs-keyword">const</span>');
    expect(html).toMatch(/<div class="tool-name">bash<\/div>[\s\S]*class="tool-result"[\s\S]*out &lt;script/);
    expect(html).not.toContain("Tool result: bash"); // shown with its call, not twice
    expect(html).toContain("$ cat &lt;script&gt;");
    expect(html).toContain("exit code 2");
    expect(html).toContain("Compacted from 1234 tokens");
    expect(html).toContain("test/m1");
    expect(html).toContain("<dt>Tokens</dt><dd>10 in, 5 out, 2 cache read, 1 cache write (18 total)</dd>");
    expect(html).toContain(".hljs-keyword"); // the highlight.js theme is inlined
    expect(html).not.toMatch(/<link|src="http/);
  });
});

afterEach(disposeHarnesses);

describe("export_html command", () => {
  async function withExport(options: { noSession?: boolean } = {}) {
    const h = await createHarness(options);
    // The harness kernel is frozen; export-html is tested in its own kernel sharing the session service.
    const session = h.kernel.services.get("session");
    const kernel = createKernel({ config: h.kernel.config, log: silentLogger });
    await kernel.use([definePlugin({ name: "session", provides: ["session"], apply: (k) => k.provide("session", session) }), exportHtml]);
    await kernel.boot();
    return { h, exportHtml: (raw: Record<string, unknown> = {}) => kernel.commands.invoke("export_html", raw) as Promise<{ path: string }> };
  }

  it("should refuse in-memory and empty sessions", async () => {
    const memory = await withExport({ noSession: true });
    await expect(memory.exportHtml()).rejects.toThrow("Cannot export in-memory session to HTML");
    const empty = await withExport();
    await expect(empty.exportHtml()).rejects.toThrow("Nothing to export yet - start a conversation first");
  });

  it("should write <cwd>/atomic-session-<file basename>.html by default, or outputPath", async () => {
    const { h, exportHtml } = await withExport();
    await h.agent.emit(user(`hello ${XSS}`));
    const { path } = await exportHtml();
    const file = String(h.state().sessionFile);
    expect(path).toBe(join(h.dir, `atomic-session-${basename(file, ".jsonl")}.html`));
    const html = await readFile(path, "utf8");
    expect(html).toContain("hello &lt;script&gt;");
    expect(html).not.toContain("<script");

    const custom = await exportHtml({ outputPath: "out/custom.html" });
    expect(custom.path).toBe(join(h.dir, "out", "custom.html"));
    expect(existsSync(custom.path)).toBe(true);
  });
});
