/**
 * export_html cannot destroy data, write into the protocol stream, hang the command lane or
 * block the event loop: it refuses the live session file and anything that is not a regular
 * file, creates exports 0600 in 0700 folders, and renders hostile markdown (deep nesting, huge
 * one-line messages, quadratic emphasis runs) quickly, as escaped plain text where it must.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, type Record_ } from "./helpers/rpc-client.js";

let client: RpcClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A persistent session (files in the agent dir), on the bundled offline model. */
function start(): RpcClient {
  client = new RpcClient({ args: ["--mode", "rpc", "--provider", "replay", "--model", "demo"] });
  return client;
}

const TS = "2026-01-01T00:00:00.000Z";
/** A session file whose messages alternate user/assistant with the given texts. */
function writeSession(path: string, texts: string[]): string {
  const lines = [{ type: "session", version: 1, id: "export-test", timestamp: TS, cwd: "/tmp" }];
  texts.forEach((text, i) => {
    const message =
      i % 2 === 0
        ? { role: "user", content: text, timestamp: i + 1 }
        : {
            role: "assistant",
            content: [{ type: "text", text }],
            api: "replay",
            provider: "replay",
            model: "demo",
            usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
            stopReason: "stop",
            timestamp: i + 1,
          };
    lines.push({ type: "message", id: `e${i}`, parentId: i === 0 ? null : `e${i - 1}`, timestamp: TS, message } as never);
  });
  writeFileSync(path, lines.map((line) => JSON.stringify(line)).join("\n") + "\n");
  return path;
}

describe("export_html targets", () => {
  it("refuses the live session file (by any name) and leaves it loadable", async () => {
    const c = start();
    const file = writeSession(join(c.cwd, "live.jsonl"), ["hello", "hi there"]);
    await c.ok({ type: "switch_session", sessionPath: file });
    await c.ok({ type: "set_session_name", name: "kept" });
    symlinkSync(file, join(c.cwd, "alias.html"));
    let before: string | undefined; // read after the first attempt, which flushes the session
    for (const outputPath of [file, "live.jsonl", "./sub/../live.jsonl", "alias.html"]) {
      const response = await c.request({ type: "export_html", outputPath });
      expect(response, outputPath).toMatchObject({ success: false, error: `Cannot export to ${resolve(c.cwd, outputPath)}: it is the live session file` });
      before ??= readFileSync(file, "utf8");
    }
    expect(before).toContain('"name":"kept"');
    expect(readFileSync(file, "utf8")).toBe(before);
    await c.ok({ type: "switch_session", sessionPath: file });
    expect((await c.ok({ type: "get_state" })).sessionName).toBe("kept");
  });

  it("refuses any other session file (another conversation, a compaction backup) and leaves it untouched; an ordinary file is replaced", async () => {
    const c = start();
    await c.ok({ type: "switch_session", sessionPath: writeSession(join(c.cwd, "live.jsonl"), ["hello", "hi"]) });
    const other = writeSession(join(c.cwd, "other.jsonl"), ["another conversation", "its answer"]);
    const backup = writeSession(join(c.cwd, "live.jsonl.2026-01-01T00-00-00-000Z.compact.bak"), ["before compaction", "answer"]);
    for (const file of [other, backup]) {
      const before = readFileSync(file, "utf8");
      const response = await c.request({ type: "export_html", outputPath: file });
      expect(response).toMatchObject({ success: false, error: `Cannot export to ${file}: it is a session file, which the page would replace` });
      expect(readFileSync(file, "utf8")).toBe(before);
    }
    writeFileSync(join(c.cwd, "old.html"), "an older export");
    const { path } = await c.ok({ type: "export_html", outputPath: "old.html" });
    expect(readFileSync(path, "utf8")).toContain("hello");
  });

  it.skipIf(process.platform === "win32")("refuses /dev/stdout, a FIFO and a device at once, and keeps serving", async () => {
    const c = start();
    await c.ok({ type: "switch_session", sessionPath: writeSession(join(c.cwd, "s.jsonl"), ["hello", "hi"]) });
    const fifo = join(c.cwd, "pipe.html");
    execFileSync("mkfifo", [fifo]);
    // The client's pipe is a FIFO or a socket pair, depending on how it spawned us.
    const expected: [string, string | RegExp][] = [
      ["/dev/stdout", /^Cannot export to \/dev\/stdout: it is a (FIFO|socket), not a regular file$/],
      [fifo, `Cannot export to ${fifo}: it is a FIFO, not a regular file`],
      ["/dev/null", "Cannot export to /dev/null: it is a character device, not a regular file"],
      [c.cwd, `Cannot export to ${c.cwd}: it is a directory, not a regular file`],
    ];
    for (const [outputPath, error] of expected) {
      const response = await c.request({ type: "export_html", outputPath }, 5_000);
      expect(response.success).toBe(false);
      expect(response.error).toMatch(error);
    }
    expect((await c.request({ type: "get_state" })).success).toBe(true);
    expect(c.records.filter((r) => r.type === "__non_json__")).toEqual([]);
  });

  it("creates the export 0600, in new folders 0700", async () => {
    const c = start();
    await c.ok({ type: "switch_session", sessionPath: writeSession(join(c.cwd, "s.jsonl"), ["hello", "hi"]) });
    const { path } = await c.ok({ type: "export_html", outputPath: "exports/today/page.html" });
    expect(path).toBe(join(c.cwd, "exports", "today", "page.html"));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(c.cwd, "exports")).mode & 0o777).toBe(0o700);
    expect(statSync(join(c.cwd, "exports", "today")).mode & 0o777).toBe(0o700);
  });
});

/**
 * Exports, pinging the immediate lane (`abort`, answered at once when idle) every 100 ms until
 * the export answers; returns the response and every ping's response.
 */
async function exportWhilePinging(c: RpcClient, outputPath: string): Promise<{ response: Record_; pings: Record_[] }> {
  let done = false;
  const answered: Record_[] = [];
  const exported = c.request({ type: "export_html", outputPath }, 60_000).finally(() => (done = true));
  const pings = (async () => {
    while (!done) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answered.push(await c.request({ type: "abort" }, 60_000));
    }
  })();
  const response = await exported;
  await pings;
  return { response, pings: answered };
}

describe("export_html on hostile markdown", () => {
  const cases: [string, string][] = [
    ["2,000 '>' characters", ">".repeat(2000)],
    ["a 10 MiB one-line message", "a".repeat(10 * 1024 * 1024)],
    ["1,000 nested list levels", Array.from({ length: 1000 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n")],
    ["3,000 nested list levels", Array.from({ length: 3000 }, (_, i) => `${"  ".repeat(i)}- level ${i}`).join("\n")],
    ["100 KB of alternating emphasis (quadratic in marked)", "_a".repeat(50_000)],
  ];

  it.each(cases)(
    "%s: exported as escaped plain text, the event loop never blocked for long",
    async (_, text) => {
      const c = start();
      const file = writeSession(join(c.cwd, "hostile.jsonl"), [text, "**fine** <b>"]);
      await c.ok({ type: "switch_session", sessionPath: file }, 30_000);
      const { response, pings } = await exportWhilePinging(c, "hostile.html");
      expect(response.success, String(response.error)).toBe(true);
      const html = readFileSync(join(c.cwd, "hostile.html"), "utf8");
      expect(html).toContain('<pre class="markdown-source">');
      expect(html).toContain("<strong>fine</strong> &lt;b&gt;"); // the other message still renders as markdown
      // Before: a stack overflow, or 8 s to over 240 s with the loop blocked throughout (marked
      // alone takes ~59 s on the emphasis case: the test's timeout catches that). The markdown
      // source kept as escaped text above is the fix; how long the loop blocks is measured by
      // bench/export-html, not asserted here (a busy machine is not a bug).
      expect(pings.every((ping) => ping.success === true)).toBe(true);
    },
    60_000,
  );
});
