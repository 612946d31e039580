/**
 * httpFetch where a server misbehaves or the network does (issue 26): redirects (followed once,
 * through the proxy, never with credentials to another host), bodies that inflate without
 * bound, corrupt and raw-deflate bodies, connection errors that name their host and cause,
 * kept connections (the server's Keep-Alive hint, a kept connection found closed) and the idle
 * timeout. Real loopback servers throughout.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createServer as createNetServer, type AddressInfo, type Socket } from "node:net";
import { resolve } from "node:path";
import { deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isRetryableError } from "./errors.js";
import { httpFetch } from "./http-fetch.js";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface TestServer {
  url: string;
  host: string;
  seen: { method: string; url: string; body: string; headers: IncomingMessage["headers"] }[];
  connections: number;
  server: Server;
}

const servers: Server[] = [];
async function serve(handler: Handler): Promise<TestServer> {
  const state: TestServer = { url: "", host: "", seen: [], connections: 0, server: undefined as unknown as Server };
  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", () => {
      const body = Buffer.concat(parts).toString();
      state.seen.push({ method: req.method!, url: req.url!, body, headers: req.headers });
      handler(req, res, body);
    });
  });
  server.on("connection", () => state.connections++);
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  state.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.url = `http://${state.host}`;
  state.server = server;
  servers.push(server);
  return state;
}

afterAll(async () => {
  for (const server of servers) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

describe("redirects", () => {
  let target: TestServer;
  let front: TestServer;
  beforeAll(async () => {
    target = await serve((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("target"));
    front = await serve((req, res, body) => {
      if (req.url === "/old") return res.writeHead(307, { location: "/new" }).end();
      if (req.url === "/see-other") return res.writeHead(303, { location: "/new" }).end();
      if (req.url === "/found") return res.writeHead(302, { location: "/new" }).end();
      if (req.url === "/twice") return res.writeHead(307, { location: "/old" }).end();
      if (req.url!.startsWith("/away")) return res.writeHead(307, { location: `${target.url}/stolen` }).end();
      if (req.url === "/ftp") return res.writeHead(302, { location: "ftp://files.example/x" }).end();
      res.writeHead(200, { "content-type": "text/plain" }).end(`${req.method} ${req.url} ${body}`);
    });
  });
  afterEach(() => {
    front.seen.length = 0;
    target.seen.length = 0;
  });

  it("follows a same-origin 307 once, with its method and body (the first request is not sent twice)", async () => {
    const response = await httpFetch(`${front.url}/old`, { method: "POST", body: '{"q":1}', headers: { authorization: "Bearer k" } });
    expect([response.status, response.redirected, response.url, await response.text()]).toEqual([200, true, `${front.url}/new`, 'POST /new {"q":1}']);
    expect(front.seen.map((hit) => hit.url)).toEqual(["/old", "/new"]);
    expect(front.seen[1]!.headers.authorization).toBe("Bearer k");
  });

  it("turns a 303, and a 302 after a POST, into a bodiless GET", async () => {
    for (const path of ["/see-other", "/found"]) {
      const response = await httpFetch(`${front.url}${path}`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
      expect(await response.text()).toBe("GET /new ");
    }
    expect(front.seen.filter((hit) => hit.url === "/new").every((hit) => hit.headers["content-type"] === undefined && hit.headers["content-length"] === undefined)).toBe(true);
  });

  it("refuses a cross-origin redirect of a request that carries credentials, naming both hosts; sends nothing there", async () => {
    const credentialed: Record<string, string>[] = [{ authorization: "Bearer sk-1" }, { "x-goog-api-key": "g" }, { "x-api-key": "a" }, { "X-Custom-Token": "t" }];
    for (const headers of credentialed) {
      const failure = httpFetch(`${front.url}/away`, { method: "POST", body: '{"conversation":"secret"}', headers });
      await expect(failure).rejects.toThrow(`${front.host} redirected to another host, ${target.host}: the redirect was not followed`);
    }
    await expect(httpFetch(`${front.url.replace("127.0.0.1", "127.0.0.1")}/away?key=secret`)).rejects.toThrow("the redirect was not followed");
    expect(target.seen).toEqual([]);
    // Said as final, not as a connection error to retry.
    expect(isRetryableError(`Connection error. (${front.host} redirected to another host, ${target.host}: the redirect was not followed (...))`)).toBe(false);
  });

  it("follows a cross-origin redirect of a request without credentials", async () => {
    const response = await httpFetch(`${front.url}/away`);
    expect(await response.text()).toBe("target");
    expect(target.seen.map((hit) => hit.url)).toEqual(["/stolen"]);
  });

  it("follows one redirect, not two, and only to http(s); redirect: error and manual", async () => {
    await expect(httpFetch(`${front.url}/twice`)).rejects.toThrow(`${front.host} redirected again, to ${front.host}: the redirect was not followed`);
    await expect(httpFetch(`${front.url}/ftp`)).rejects.toThrow("redirected to a ftp URL: the redirect was not followed");
    await expect(httpFetch(`${front.url}/old`, { redirect: "error" })).rejects.toThrow("answered with a redirect (307): the redirect was not followed");
    const manual = await httpFetch(`${front.url}/old`, { redirect: "manual" });
    expect([manual.status, manual.headers.get("location")]).toEqual([307, "/new"]);
  });

  it("sends the redirected request through the proxy too", async () => {
    // The proxy answers for a host only it can reach (no DNS name exists for it).
    const proxy = await serve((req, res, body) => {
      if (req.url === "http://llm.only-via-proxy.test/old") return res.writeHead(307, { location: "/new" }).end();
      res.writeHead(200, { "content-type": "text/plain" }).end(`proxied ${req.method} ${req.url} ${body}`);
    });
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy, NO_PROXY: process.env.NO_PROXY, no_proxy: process.env.no_proxy };
    Object.assign(process.env, { HTTP_PROXY: proxy.url, http_proxy: proxy.url, NO_PROXY: "", no_proxy: "" });
    try {
      const response = await httpFetch("http://llm.only-via-proxy.test/old", { method: "POST", body: "hi" });
      expect(await response.text()).toBe("proxied POST http://llm.only-via-proxy.test/new hi");
      expect(proxy.seen.map((hit) => hit.url)).toEqual(["http://llm.only-via-proxy.test/old", "http://llm.only-via-proxy.test/new"]);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});

describe("bodies", () => {
  /** One gzip member of 1 MiB of `byte`: members concatenated are one valid gzip body. */
  const member = (byte: string) => gzipSync(Buffer.alloc(1024 * 1024, byte));
  let server: TestServer;
  /** Members of the bomb written so far (with backpressure: a reader that stops stops them). */
  let bombSent = 0;
  beforeAll(async () => {
    server = await serve((req, res) => {
      if (req.url === "/bomb-error") {
        res.writeHead(429, { "content-encoding": "gzip", "content-type": "application/json" });
        const zeros = member("0");
        bombSent = 0;
        const more = () => {
          while (bombSent < 16384) {
            bombSent++;
            if (!res.write(zeros)) return void res.once("drain", more);
          }
          res.end();
        };
        res.on("error", () => undefined);
        return more();
      }
      if (req.url === "/endless-event") {
        res.writeHead(200, { "content-encoding": "gzip", "content-type": "text/event-stream" });
        res.write(gzipSync("data: {}\n\n"));
        const a = member("a");
        for (let i = 0; i < 70; i++) res.write(a);
        return res.end();
      }
      if (req.url === "/many-events") {
        // 72 MiB in events of 1 KiB: past the per-event bound in total, never in one event.
        const event = `data: ${"x".repeat(1016)}\n\n`;
        const mib = gzipSync(event.repeat(1024));
        res.writeHead(200, { "content-encoding": "gzip", "content-type": "text/event-stream" });
        for (let i = 0; i < 72; i++) res.write(mib);
        return res.end();
      }
      if (req.url === "/corrupt") return res.writeHead(200, { "content-encoding": "gzip" }).end(Buffer.from("this is not gzip at all"));
      if (req.url === "/raw-deflate") return res.writeHead(200, { "content-encoding": "deflate" }).end(deflateRawSync("raw deflate text"));
      if (req.url === "/deflate-stall") return void res.writeHead(200, { "content-encoding": "deflate" }).flushHeaders();
      if (req.url === "/zlib-deflate") return res.writeHead(200, { "content-encoding": "deflate" }).end(deflateSync("zlib deflate text"));
      res.writeHead(404).end();
    });
  });

  it("cuts an error body at 1 MiB however far it inflates, and stops reading it (16 GiB offered)", async () => {
    const response = await httpFetch(`${server.url}/bomb-error`);
    expect(response.status).toBe(429);
    // Read twice, as the provider frame does (a copy for the error text, the body for the SDK).
    const [text, copy] = await Promise.all([response.clone().text(), response.text()]);
    expect([text.length, copy.length]).toEqual([1024 * 1024, 1024 * 1024]);
    await new Promise((done) => setTimeout(done, 100));
    expect(bombSent).toBeLessThan(16384);
  });

  it("stops a compressed stream whose one event inflates past 64 MiB, after delivering what came before", async () => {
    const response = await httpFetch(`${server.url}/endless-event`);
    const reader = response.body!.getReader();
    let received = 0;
    let failure: unknown;
    try {
      for (let read = await reader.read(); !read.done; read = await reader.read()) received += read.value.length;
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).toContain(`The gzip body from ${server.host} inflated to over 64 MiB without ending an event; the stream was stopped`);
    expect(received).toBeGreaterThan(10);
    expect(received).toBeLessThanOrEqual(64 * 1024 * 1024 + 1024 * 1024);
  });

  it("passes a compressed stream of any length whose events are small", async () => {
    const bytes = await (await httpFetch(`${server.url}/many-events`)).bytes();
    expect(bytes.length).toBe(72 * 1024 * 1024);
  });

  it("reports a corrupt gzip body as a retryable decompression error naming the host", async () => {
    const response = await httpFetch(`${server.url}/corrupt`);
    const error = (await response.text().catch((failure: unknown) => failure)) as Error;
    expect(error.message).toBe(`Cannot decompress the gzip body from ${server.host}: incorrect header check (Z_DATA_ERROR)`);
    expect(isRetryableError(error.message)).toBe(true);
  });

  it("decodes deflate bodies raw or zlib-wrapped, as undici does", async () => {
    expect(await (await httpFetch(`${server.url}/raw-deflate`)).text()).toBe("raw deflate text");
    expect(await (await httpFetch(`${server.url}/zlib-deflate`)).text()).toBe("zlib deflate text");
  });

  it("an abort while a deflate body's first bytes are awaited fails the read with the abort's reason", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("stopped waiting")), 100);
    const reading = httpFetch(`${server.url}/deflate-stall`, { signal: controller.signal }).then((response) => response.text());
    await expect(reading).rejects.toThrow("stopped waiting");
  });
});

describe("connection errors", () => {
  it("name the host and the certificate failure, which is not retried", async () => {
    const tls = resolve(import.meta.dirname, "../../test/fixtures/tls");
    const server = createHttpsServer({ key: readFileSync(resolve(tls, "key.pem")), cert: readFileSync(resolve(tls, "cert.pem")) }, (_req, res) => res.end("never"));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    servers.push(server);
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
    const error = (await httpFetch(`https://${host}/v1`).catch((failure: unknown) => failure)) as Error;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe(`Request to ${host} failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)`);
    expect(isRetryableError(`Connection error. (${error.message})`)).toBe(false);
  });

  it("a name that does not resolve is final; a reset or refused connection is retried", () => {
    expect(isRetryableError("Connection error. (Request to api.nowhere.example failed: getaddrinfo ENOTFOUND api.nowhere.example)")).toBe(false);
    expect(isRetryableError("Connection error. (Request to api.example.com failed: getaddrinfo EAI_AGAIN api.example.com)")).toBe(true);
    expect(isRetryableError("Connection error. (Request to 127.0.0.1:9 failed: connect ECONNREFUSED 127.0.0.1:9)")).toBe(true);
    expect(isRetryableError("Connection error. (Request to api.example.com failed: socket hang up (ECONNRESET))")).toBe(true);
  });
});

describe("kept connections", () => {
  it("keeps an idle connection as long as the server's Keep-Alive hint says, past undici's 4 s", async () => {
    const server = await serve((_req, res) => res.writeHead(200, { "keep-alive": "timeout=30" }).end("ok"));
    await (await httpFetch(`${server.url}/a`)).text();
    await new Promise((done) => setTimeout(done, 4_600));
    await (await httpFetch(`${server.url}/b`)).text();
    expect(server.connections).toBe(1);
  }, 15_000);

  it("does not keep a connection the server will close within a second", async () => {
    const server = await serve((_req, res) => res.writeHead(200, { "keep-alive": "timeout=1" }).end("ok"));
    await (await httpFetch(`${server.url}/a`)).text();
    await new Promise((done) => setTimeout(done, 50));
    await (await httpFetch(`${server.url}/b`)).text();
    expect(server.connections).toBe(2);
  });

  it("sends a request once more on a new connection when the kept one turns out closed", async () => {
    // Answers the first request of each connection and drops the connection at its second.
    const sockets: Socket[] = [];
    const raw = createNetServer((socket: Socket) => {
      sockets.push(socket);
      let requests = 0;
      let pending = "";
      socket.on("data", (chunk: Buffer) => {
        pending += chunk.toString();
        while (pending.includes("\r\n\r\n")) {
          pending = pending.slice(pending.indexOf("\r\n\r\n") + 4);
          if (++requests > 1) return socket.destroy();
          socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok");
        }
      });
      socket.on("error", () => undefined);
    });
    await new Promise<void>((done) => raw.listen(0, "127.0.0.1", done));
    const url = `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
    try {
      expect(await (await httpFetch(`${url}/a`)).text()).toBe("ok");
      expect(await (await httpFetch(`${url}/b`)).text()).toBe("ok");
      expect(sockets).toHaveLength(2);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((done) => raw.close(done));
    }
  });

  it("fails a silent connection after the configured idle timeout, naming the setting", async () => {
    const server = await serve((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).write("first"));
    // The server never ends the body: only the idle timeout ends the read.
    const response = await httpFetch(`${server.url}/stall`, {}, { idleTimeoutMs: 300 });
    await expect(response.text()).rejects.toThrow(`Request to ${server.host} failed: no data from the server for 0.3 s, timed out (settings: httpIdleTimeoutMs)`);
  });
});
