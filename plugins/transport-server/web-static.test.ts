/**
 * The web page's files as the ws listener serves them (web-static.ts), over real HTTP on 127.0.0.1:
 * every file in web/ is answered with its content, its type and the strict headers, and every file
 * the page loads (index.html's script and stylesheet, each module's imports) is one of them. A
 * module left out of the FILES table would only show in a browser, where the page runs none of its
 * modules: the browser tests are skipped on a machine without Chromium, this one is not.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebFiles, webRoot } from "./web-static.js";

const ROOT = webRoot(resolve(import.meta.dirname, "../.."))!;
const ON_DISK = readdirSync(ROOT).sort();
const TYPES: Record<string, string> = { html: "text/html", js: "text/javascript", css: "text/css" };

let server: Server;
let origin: string;

beforeAll(async () => {
  const web = await WebFiles.load(ROOT);
  server = createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0]!;
    if (!web.answer(path, request.method ?? "GET", request.headers.host ?? "", response)) response.writeHead(404).end();
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((done) => server.close(() => done())));

/** The page's own files a file asks the browser for: `src`/`href` in the HTML, `from "./…"` in a module. */
function loads(file: string): string[] {
  const text = readFileSync(join(ROOT, file), "utf8");
  const pattern = file.endsWith(".html") ? /(?:src|href)="\/([^"]+)"/g : /\bfrom\s+"\.\/([^"]+)"/g;
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

describe("web-static", () => {
  it("serves every file of web/ with its content, its type and the strict headers", async () => {
    expect(ON_DISK).toContain("app.js");
    for (const file of ON_DISK) {
      const response = await fetch(`${origin}/${file}`);
      expect(response.status, file).toBe(200);
      expect(Buffer.from(await response.arrayBuffer()).equals(readFileSync(join(ROOT, file))), file).toBe(true);
      expect(response.headers.get("content-type"), file).toContain(TYPES[file.split(".").pop()!]);
      expect(response.headers.get("content-security-policy"), file).toContain("script-src 'self'");
      expect(response.headers.get("x-content-type-options"), file).toBe("nosniff");
      expect(response.headers.get("cache-control"), file).toBe("no-store");
    }
    expect(await (await fetch(`${origin}/`)).text()).toBe(readFileSync(join(ROOT, "index.html"), "utf8"));
    expect((await fetch(`${origin}/missing.js`)).status).toBe(404);
  });

  it("finds every file the page loads in web/ (its stylesheet and each module's imports), and loads every file there", () => {
    const wanted = new Set<string>();
    const queue = ["index.html"];
    while (queue.length > 0) {
      for (const next of loads(queue.shift()!)) {
        if (wanted.has(next)) continue;
        wanted.add(next);
        queue.push(next);
      }
    }
    expect(wanted.has("app.js") && wanted.has("app.css") && wanted.has("transcript.js")).toBe(true);
    expect([...wanted].filter((file) => !ON_DISK.includes(file))).toEqual([]);
    // And no module is left over in web/, served but loaded by nothing.
    expect(ON_DISK.filter((file) => file !== "index.html" && !wanted.has(file))).toEqual([]);
  });
});
