import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { httpFetch } from "./http-fetch.js";
import { isLoopback, proxyFor } from "./proxy.js";

const VARIABLES = ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"];
const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));

function setProxyEnv(values: Record<string, string>): void {
  for (const name of VARIABLES) delete process.env[name];
  Object.assign(process.env, values);
}

afterEach(() => {
  for (const name of VARIABLES) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
});

describe("proxyFor", () => {
  it("uses no proxy when none is set", async () => {
    setProxyEnv({});
    expect(await proxyFor(new URL("https://api.openai.com/v1"))).toBeUndefined();
  });

  it("takes HTTPS_PROXY for https, HTTP_PROXY for http, ALL_PROXY for either, in either case", async () => {
    setProxyEnv({ HTTPS_PROXY: "http://secure:3128", http_proxy: "http://plain:3128" });
    expect(await proxyFor(new URL("https://api.anthropic.com/v1/messages"))).toBe("http://secure:3128");
    expect(await proxyFor(new URL("http://models.internal:8000/v1"))).toBe("http://plain:3128");
    setProxyEnv({ ALL_PROXY: "http://every:3128" });
    expect(await proxyFor(new URL("https://generativelanguage.googleapis.com"))).toBe("http://every:3128");
  });

  it("leaves out what NO_PROXY names: a host, a suffix, a host and port, or everything", async () => {
    setProxyEnv({ HTTPS_PROXY: "http://proxy:3128", NO_PROXY: "models.internal, .corp.example, gateway.example:8443" });
    expect(await proxyFor(new URL("https://models.internal/v1"))).toBeUndefined();
    expect(await proxyFor(new URL("https://llm.corp.example/v1"))).toBeUndefined();
    expect(await proxyFor(new URL("https://gateway.example:8443/v1"))).toBeUndefined();
    expect(await proxyFor(new URL("https://gateway.example/v1"))).toBe("http://proxy:3128");
    setProxyEnv({ HTTPS_PROXY: "http://proxy:3128", no_proxy: "*" });
    expect(await proxyFor(new URL("https://api.openai.com"))).toBeUndefined();
  });

  it("never proxies a loopback host (a local model server)", async () => {
    setProxyEnv({ HTTP_PROXY: "http://proxy:3128", HTTPS_PROXY: "http://proxy:3128" });
    for (const url of ["http://localhost:11434/v1", "http://127.0.0.1:8080", "http://127.1.2.3", "http://[::1]:1234", "https://app.localhost"]) {
      expect(await proxyFor(new URL(url)), url).toBeUndefined();
    }
    expect(isLoopback("128.0.0.1")).toBe(false);
  });
});

describe("httpFetch through a proxy", () => {
  let target: Server;
  let proxy: Server;
  let targetPort: number;
  let proxyPort: number;
  const seen: { url: string; headers: IncomingHttpHeaders }[] = [];

  beforeAll(async () => {
    target = createServer((req, res) => res.writeHead(200, { "content-type": "text/plain" }).end(`answered ${req.method} ${req.url}`));
    // A forwarding proxy for http targets (absolute-form requests): every host name is this machine.
    proxy = createServer((req, res) => {
      seen.push({ url: req.url!, headers: req.headers });
      const forwarded = httpRequest({ host: "127.0.0.1", port: targetPort, path: new URL(req.url!).pathname, method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forwarded);
    });
    for (const server of [target, proxy]) await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    targetPort = (target.address() as AddressInfo).port;
    proxyPort = (proxy.address() as AddressInfo).port;
  });

  afterAll(async () => {
    for (const server of [target, proxy]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("sends an http request to the proxy in absolute form, with the proxy's credentials", async () => {
    setProxyEnv({ HTTP_PROXY: `http://team:s3cret@127.0.0.1:${proxyPort}` });
    const response = await httpFetch(`http://llm.proxy.test:${targetPort}/v1/models`);
    expect(await response.text()).toBe("answered GET /v1/models");
    expect(seen.at(-1)!.url).toBe(`http://llm.proxy.test:${targetPort}/v1/models`);
    expect(seen.at(-1)!.headers["proxy-authorization"]).toBe(`Basic ${Buffer.from("team:s3cret").toString("base64")}`);
  });

  it("fails with a clear error, the password hidden, when the proxy is not a usable URL", async () => {
    setProxyEnv({ HTTP_PROXY: "socks5://team:s3cret@127.0.0.1:1080" });
    const failure = httpFetch(`http://llm.proxy.test:${targetPort}/`);
    await expect(failure).rejects.toThrow("The proxy socks5://team:***@127.0.0.1:1080 uses socks5; only http and https proxies are supported");
    setProxyEnv({ HTTP_PROXY: "http://[bad" });
    await expect(httpFetch(`http://llm.proxy.test:${targetPort}/`)).rejects.toThrow("The proxy set in the environment is not a URL");
  });
});
