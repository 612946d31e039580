import { createServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { httpFetch, warmTransport } from "./http-fetch.js";

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

/** A loopback listener that counts connections and answers each request with a tiny 200. */
async function countingServer(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  server = createServer((socket) => {
    connections++;
    socket.once("data", () => socket.end("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok"));
  });
  await new Promise<void>((listening) => server!.listen(0, "127.0.0.1", listening));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections };
}

describe("warmTransport", () => {
  it("loads the transport without opening a connection; the first request then connects as usual", async () => {
    const { url, connections } = await countingServer();
    await warmTransport(url);
    await new Promise((settle) => setTimeout(settle, 50));
    expect(connections()).toBe(0);
    const response = await httpFetch(`${url}/v1`);
    expect(await response.text()).toBe("ok");
    expect(connections()).toBe(1);
  });

  it("passes over a base URL it cannot use (replay's empty one, another scheme, no URL) without failing", async () => {
    for (const baseUrl of ["", "not a url", "ftp://example.invalid/", "unix:/tmp/socket"]) await expect(warmTransport(baseUrl)).resolves.toBeUndefined();
  });
});
