import { describe, expect, it } from "vitest";
import { bearerProtocol, checkBearer, checkRequest, isLoopbackHost, type RequestHead } from "./http-guard.js";
import { localHttpUrl, parseWsUrl, wsUrl } from "./ws-url.js";

const TOKEN = "A".repeat(43);
const policy = { token: TOKEN, allowRemote: false, allowOrigins: ["https://ui.example"] };
const head = (fields: Partial<RequestHead>): RequestHead => ({ url: "/", host: "127.0.0.1:8080", origin: undefined, authorization: undefined, protocols: undefined, ...fields });

describe("http-guard", () => {
  it("knows loopback names, with or without a port", () => {
    for (const host of ["localhost", "LOCALHOST:80", "127.0.0.1", "127.8.9.1:8080", "[::1]:8080", "[::ffff:127.0.0.1]:1", "localhost.:9"])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [undefined, "", "evil.example", "evil.example:8080", "10.0.0.1:80", "[::2]:80", "127.0.0.1.evil.example", "localhost.evil.example", "0.0.0.0:80"])
      expect(isLoopbackHost(host), String(host)).toBe(false);
  });

  it("refuses a token in the URL, a foreign Host and a foreign Origin; lets the page's own origin and listed ones in", () => {
    expect(checkRequest(head({ url: `/?token=x` }), policy)?.status).toBe(400);
    expect(checkRequest(head({ url: `/?Access_Token=x` }), policy)?.status).toBe(400);
    expect(checkRequest(head({ url: `/healthz?x=${TOKEN}` }), policy)?.status).toBe(400);
    expect(checkRequest(head({ url: "/?page=2" }), policy)).toBeUndefined();
    expect(checkRequest(head({ host: "evil.example:8080" }), policy)?.status).toBe(403);
    expect(checkRequest(head({ host: undefined }), policy)?.status).toBe(403);
    expect(checkRequest(head({ host: "evil.example:8080" }), { ...policy, allowRemote: true })).toBeUndefined();
    expect(checkRequest(head({ origin: "http://127.0.0.1:8080" }), policy)).toBeUndefined();
    expect(checkRequest(head({ origin: "https://ui.example/" }), policy)).toBeUndefined();
    for (const origin of ["http://127.0.0.1:8081", "http://localhost:8080", "null", "file://", "ws://127.0.0.1:8080", "https://ui.example.evil"])
      expect(checkRequest(head({ origin }), policy)?.status, origin).toBe(403);
  });

  it("takes the token from a bearer header or the subprotocol, which it echoes", () => {
    expect(checkBearer(head({}), TOKEN)).toMatchObject({ status: 401, message: expect.stringContaining("A token is required") });
    expect(checkBearer(head({ authorization: `Bearer ${TOKEN}` }), TOKEN)).toEqual({ protocol: undefined });
    expect(checkBearer(head({ authorization: `bearer   ${TOKEN}` }), TOKEN)).toEqual({ protocol: undefined });
    expect(checkBearer(head({ authorization: `Basic ${TOKEN}` }), TOKEN)).toMatchObject({ status: 401 });
    expect(checkBearer(head({ authorization: `Bearer ${TOKEN}x` }), TOKEN)).toMatchObject({ status: 401, message: expect.stringContaining("wrong") });
    expect(checkBearer(head({ protocols: `chat, atomic.bearer.${TOKEN}` }), TOKEN)).toEqual({ protocol: `atomic.bearer.${TOKEN}` });
    expect(checkBearer(head({ protocols: "atomic.bearer.nope", authorization: `Bearer ${TOKEN}` }), TOKEN)).toMatchObject({ status: 401 });
    expect(bearerProtocol("a, b")).toBeUndefined();
  });
});

describe("ws-url", () => {
  it("parses ws://HOST:PORT, loopback unless remote is allowed", () => {
    expect(parseWsUrl("ws://127.0.0.1:0", false)).toEqual({ host: "127.0.0.1", port: 0 });
    expect(parseWsUrl("ws://localhost:8080/", false)).toEqual({ host: "localhost", port: 8080 });
    expect(parseWsUrl("ws://[::1]:80", false)).toEqual({ host: "::1", port: 80 });
    expect(parseWsUrl("ws://0.0.0.0:9000", true)).toEqual({ host: "0.0.0.0", port: 9000 });
    expect(() => parseWsUrl("ws://0.0.0.0:9000", false)).toThrow("not a loopback address; add --allow-remote");
    expect(() => parseWsUrl("ws://192.168.1.2:9000", false)).toThrow("not a loopback address");
    expect(() => parseWsUrl("wss://127.0.0.1:1", true)).toThrow("speaks no TLS itself");
    expect(() => parseWsUrl("ws://127.0.0.1", false)).toThrow("with a port");
    expect(() => parseWsUrl("ws://127.0.0.1:70000", false)).toThrow('Invalid --listen "ws://127.0.0.1:70000": expected ws://HOST:PORT');
    expect(() => parseWsUrl("ws://u:p@127.0.0.1:1", false)).toThrow("no path, query or credentials");
    expect(wsUrl("::1", 5)).toBe("ws://[::1]:5");
    expect(localHttpUrl("0.0.0.0", 5)).toBe("http://127.0.0.1:5/");
    expect(localHttpUrl("::", 5)).toBe("http://[::1]:5/");
  });
});
