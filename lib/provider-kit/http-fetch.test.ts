import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { brotliCompressSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FetchHeaders } from "./fetch-headers.js";
import { FetchResponse } from "./fetch-response.js";
import { httpFetch } from "./http-fetch.js";

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
const routes: Record<string, (res: ServerResponse) => unknown> = {
  "/json": (res) => {
    res.setHeader("Set-Cookie", ["a=1", "b=2"]);
    res.writeHead(201, "Made", { "content-type": "application/json", "X-Mixed-Case": "v" }).end('{"ok":true}');
  },
  "/gzip": (res) => res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync("zipped text")),
  "/br": (res) => res.writeHead(200, { "content-encoding": "br" }).end(brotliCompressSync("brotli text")),
  "/limited": (res) => res.writeHead(429, { "retry-after": "7" }).end('{"error":{"message":"slow down"}}'),
  "/empty": (res) => res.writeHead(204).end(),
  "/redirect": (res) => res.writeHead(302, { location: "/json" }).end(),
  "/stream": async (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    for (const part of ["data: 1\n\n", "data: 2\n\n", "data: 3\n\n"]) {
      res.write(part);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    res.end();
  },
  "/stall": (res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.write("first part");
  },
  "/never": () => undefined,
};

beforeAll(async () => {
  server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(parts).toString() });
      void routes[req.url!]?.(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** What a caller can observe of a response, minus headers that differ per connection. */
async function observe(response: Response) {
  // Typed as FetchHeaders: the standard class has the same interface (its global type is empty where DOM types are declared).
  const all = response.headers as unknown as FetchHeaders;
  const headers = [...all].filter(([name]) => !["date", "keep-alive", "connection"].includes(name));
  return { status: response.status, ok: response.ok, statusText: response.statusText, headers, cookies: all.getSetCookie(), text: await response.text() };
}

describe("httpFetch", () => {
  it("answers as the global fetch does: status, headers, cookies, body; decoded gzip and brotli; an error status; no body", async () => {
    for (const path of ["/json", "/gzip", "/br", "/limited", "/empty"]) {
      const ours = await httpFetch(`${base}${path}`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
      expect(ours).toBeInstanceOf(FetchResponse);
      expect(await observe(ours), path).toEqual(await observe(await fetch(`${base}${path}`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } })));
    }
  });

  it("sends the method, the caller's headers in any form, the body, and what fetch adds (accept, accept-encoding, content-length)", async () => {
    for (const headers of [
      { "X-Key": "k", "content-type": "application/json" },
      [
        ["x-key", "k"],
        ["Content-Type", "application/json"],
      ] as [string, string][],
      new FetchHeaders({ "x-key": "k", "content-type": "application/json" }),
    ]) {
      seen.length = 0;
      await (await httpFetch(new URL(`${base}/json`), { method: "POST", headers, body: '{"é":1}' })).text();
      expect(seen[0]).toMatchObject({ method: "POST", body: '{"é":1}' });
      expect(seen[0]!.headers).toMatchObject({ "x-key": "k", "content-type": "application/json", accept: "*/*", "accept-encoding": "gzip, deflate, br", "content-length": "8" });
    }
  });

  it("reads the body once; clone() gives a second reading; json, bytes, arrayBuffer and blob", async () => {
    const response = await httpFetch(`${base}/json`);
    const copy = response.clone();
    expect(await response.json()).toEqual({ ok: true });
    expect(response.bodyUsed).toBe(true);
    await expect(response.text()).rejects.toThrow(TypeError);
    expect(() => response.clone()).toThrow(TypeError);
    const blob = await copy.clone().blob();
    expect([blob.type, await blob.text()]).toEqual(["application/json", '{"ok":true}']);
    expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe('{"ok":true}');
    expect(response.url).toBe(`${base}/json`);
  });

  it("streams the body as it arrives", async () => {
    const response = await httpFetch(`${base}/stream`);
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: 1\n\n");
    let rest = "";
    for (let read = await reader.read(); !read.done; read = await reader.read()) rest += new TextDecoder().decode(read.value);
    expect(rest).toBe("data: 2\n\ndata: 3\n\n");
  });

  it("follows a redirect itself, as the global fetch would", async () => {
    const response = await httpFetch(`${base}/redirect`);
    expect(response).toBeInstanceOf(FetchResponse);
    expect([response.status, response.redirected, response.url, await response.text()]).toEqual([201, true, `${base}/json`, '{"ok":true}']);
  });

  it("aborts before the response and while the body streams, with the signal's reason", async () => {
    const early = new AbortController();
    const pending = httpFetch(`${base}/never`, { signal: early.signal });
    setTimeout(() => early.abort(), 20);
    await expect(pending).rejects.toMatchObject({ name: "AbortError" });
    await expect(httpFetch(`${base}/json`, { signal: AbortSignal.abort(new Error("gone")) })).rejects.toThrow("gone");
    const late = new AbortController();
    const response = await httpFetch(`${base}/stall`, { signal: late.signal });
    const reading = response.text();
    late.abort(new Error("stopped reading"));
    await expect(reading).rejects.toThrow("stopped reading");
  });

  it("fails with a TypeError, as fetch does, that names the host and the cause when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(httpFetch(`http://127.0.0.1:${port}/`)).rejects.toMatchObject({
      name: "TypeError",
      message: `Request to 127.0.0.1:${port} failed: connect ECONNREFUSED 127.0.0.1:${port}`,
      cause: { code: "ECONNREFUSED" },
    });
  });
});
