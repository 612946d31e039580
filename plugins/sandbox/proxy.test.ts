/** The allow-listing proxy over a real unix socket, against a real loopback server. */
import { mkdtemp, rm } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy, type RunningProxy } from "./proxy.js";

let target: Server;
let port = 0;
let dir: string;
let proxy: RunningProxy;

beforeAll(async () => {
  target = createServer((req, res) => res.end(`hello ${req.url}`));
  await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
  port = (target.address() as { port: number }).port;
  dir = await mkdtemp(join(tmpdir(), "atomic-proxy-test-"));
  proxy = await startProxy(["127.0.0.1"], { socketPath: join(dir, "proxy.sock") });
});
afterAll(async () => {
  await proxy.close();
  await new Promise<void>((resolve) => target.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

function viaProxy(options: { method: string; path: string }): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath: proxy.address, ...options });
    req.on("connect", (res, socket, head) => {
      if (res.statusCode !== 200) {
        let body = head.toString();
        socket.on("data", (chunk) => (body += chunk));
        socket.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        return;
      }
      socket.write(`GET /tunnel HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      let raw = "";
      socket.on("data", (chunk) => (raw += chunk));
      socket.on("end", () => resolve({ status: 200, body: raw.split("\r\n\r\n")[1] ?? "" }));
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

describe("allow-listing proxy", () => {
  it("forwards absolute-form HTTP and CONNECT to an allowed host", async () => {
    expect(await viaProxy({ method: "GET", path: `http://127.0.0.1:${port}/plain` })).toEqual({ status: 200, body: "hello /plain" });
    expect(await viaProxy({ method: "CONNECT", path: `127.0.0.1:${port}` })).toEqual({ status: 200, body: "hello /tunnel" });
  });

  it("refuses any other host with a 403 that says why, before resolving it", async () => {
    expect(await viaProxy({ method: "GET", path: `http://localhost:${port}/` })).toEqual({
      status: 403,
      body: `blocked by the sandbox: network access to localhost:${port} is not allowed (allowed: 127.0.0.1)\n`,
    });
    expect(await viaProxy({ method: "CONNECT", path: "no-such-host.invalid:443" })).toEqual({
      status: 403,
      body: "blocked by the sandbox: network access to no-such-host.invalid:443 is not allowed (allowed: 127.0.0.1)\n",
    });
    expect((await viaProxy({ method: "GET", path: "/relative" })).status).toBe(400);
  });
});
