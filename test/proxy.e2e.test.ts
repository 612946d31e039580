/**
 * Provider requests through the environment's proxy, end to end: the built CLI with HTTPS_PROXY
 * reaches an https model server by CONNECT through a loopback proxy (the server's certificate
 * trusted with NODE_EXTRA_CA_CERTS, as behind a corporate proxy), for each SDK; a loopback base
 * URL goes direct; a proxy that refuses the tunnel is the turn's error. (NO_PROXY's rules are
 * unit-tested in lib/provider-kit/proxy.test.ts: here any other host would need DNS.)
 */
import { createServer, type Server } from "node:http";
import { connect, type AddressInfo, type Socket } from "node:net";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createServer as createTlsServer, type Server as TlsServer } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { runCli } from "./helpers/run-cli.js";
import { tempDir } from "./helpers/temp.js";

const TLS = resolve(import.meta.dirname, "fixtures/tls");
/** The certificate's name: the proxy sends every tunnel for it to the local TLS endpoint. */
const HOST = "llm.proxy.test";
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
/** Whatever proxy the machine running the tests has (lower case wins over upper case). */
const NO_PROXIES = Object.fromEntries(
  ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"].map((name) => [name, undefined]),
);
// A server per test: a reply scripted for a test whose request never came cannot answer the next one.
const fake = useFakeLlm({ perTest: true });
let tlsEndpoint: TlsServer;
let proxy: Server;
let proxyUrl: string;
/** The CONNECT targets the proxy was asked for, in order. */
const tunnels: string[] = [];
/** CONNECT targets the proxy refuses (403). */
const refused = new Set<string>();

beforeAll(async () => {
  // TLS in front of the fake LLM, with the fixture certificate for HOST.
  tlsEndpoint = createTlsServer({ key: readFileSync(resolve(TLS, "key.pem")), cert: readFileSync(resolve(TLS, "cert.pem")) }, (clear) => {
    const upstream = connect(Number(new URL(fake.url).port), "127.0.0.1");
    clear.pipe(upstream).pipe(clear);
    upstream.on("error", () => clear.destroy());
    clear.on("error", () => upstream.destroy());
  });
  await new Promise<void>((done) => tlsEndpoint.listen(0, "127.0.0.1", done));
  const tlsPort = (tlsEndpoint.address() as AddressInfo).port;
  proxy = createServer((_req, res) => res.writeHead(405).end());
  proxy.on("connect", (req, client: Socket, head: Buffer) => {
    tunnels.push(req.url!);
    if (refused.has(req.url!)) {
      client.end("HTTP/1.1 403 Forbidden\r\n\r\n");
      return;
    }
    const upstream = connect(tlsPort, "127.0.0.1", () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on("error", () => client.destroy());
    client.on("error", () => upstream.destroy());
  });
  await new Promise<void>((done) => proxy.listen(0, "127.0.0.1", done));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((done) => proxy.close(done));
  await new Promise((done) => tlsEndpoint.close(done));
});

async function printThroughProxy(model: string, baseUrl: string, env: Record<string, string | undefined> = {}) {
  const agentDir = tempDir("atomic-proxy-agent-");
  await writeModelsJson(agentDir, baseUrl);
  return runCli(["-p", "--model", model, "--no-session", "Hello?"], {
    cwd: tempDir("atomic-proxy-cwd-"),
    agentDir,
    env: { ...NO_KEYS, ...NO_PROXIES, HTTPS_PROXY: proxyUrl, NODE_EXTRA_CA_CERTS: resolve(TLS, "cert.pem"), ...env },
  });
}

describe("provider requests through HTTPS_PROXY", () => {
  for (const model of ["fake-openai/fake-1", "fake-anthropic/fake-1", "fake-google/fake-1"]) {
    it(`${model}: tunnels to the https server by CONNECT and streams the answer`, async () => {
      fake.script({ text: `Through the proxy (${model}).` });
      const before = tunnels.length;
      const run = await printThroughProxy(model, `https://${HOST}`);
      expect(run.stderr).toBe("");
      expect(run).toMatchObject({ code: 0, stdout: `Through the proxy (${model}).\n` });
      expect(tunnels.slice(before)).toEqual([`${HOST}:443`]);
      expect(fake.requests).toHaveLength(1);
    });
  }

  it("goes direct to a loopback base URL (a local model server), proxy or not", async () => {
    fake.script({ text: "Direct." });
    const before = tunnels.length;
    const run = await printThroughProxy("fake-openai/fake-1", fake.url, { HTTP_PROXY: proxyUrl });
    expect(run).toMatchObject({ code: 0, stdout: "Direct.\n" });
    expect(tunnels.length).toBe(before);
  });

  it("reports a proxy that refuses the tunnel as the turn's error", async () => {
    refused.add(`${HOST}:443`);
    try {
      const run = await printThroughProxy("fake-openai/fake-1", `https://${HOST}`);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      // Said as the proxy's refusal, not as a 403 from the model server.
      expect(run.stderr).toMatch(new RegExp(`The proxy http://127\\.0\\.0\\.1:\\d+ refused the connection to ${HOST.replace(/\./g, "\\.")}: 403 Forbidden`));
      expect(fake.requests).toHaveLength(0);
    } finally {
      refused.delete(`${HOST}:443`);
    }
  });
});
