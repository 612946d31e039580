/**
 * Provider HTTP edge cases over the built CLI (issue 26, items 2, 6, 11, 12): a redirect to
 * another host never takes the key or the conversation there, a same-origin one is followed
 * once; a certificate failure names the host and its cause and is not retried; an error body
 * that inflates to a gigabyte costs the agent nothing; `httpIdleTimeoutMs` bounds a silent
 * connection. A loopback "front" server stands where the provider is; behind it, the fake LLM.
 */
import { readFileSync } from "node:fs";
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, tempDir, type Record_ } from "./helpers/rpc-client.js";

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const NO_PROXIES = Object.fromEntries(
  ["https_proxy", "HTTPS_PROXY", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"].map((name) => [name, undefined]),
);
const fake = useFakeLlm();
const clients: RpcClient[] = [];
let front: Server;
let frontUrl: string;
/** The paths the front server was asked for, in order. */
const frontSeen: string[] = [];

/** Passes a request on to the fake LLM and its answer back. */
function forward(req: IncomingMessage, res: ServerResponse, path: string): void {
  const target = new URL(fake.url);
  const upstream = request({ host: target.hostname, port: target.port, method: req.method, path, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  req.pipe(upstream);
}

beforeAll(async () => {
  const zeros = gzipSync(Buffer.alloc(1024 * 1024));
  front = createServer((req, res) => {
    const [, route, ...rest] = req.url!.split("/");
    const path = `/${rest.join("/")}`;
    frontSeen.push(req.url!);
    if (route === "away") return void res.writeHead(307, { location: `${fake.url}${path}` }).end();
    if (route === "moved") return void res.writeHead(307, { location: `/direct${path}` }).end();
    if (route === "direct") return forward(req, res, path);
    if (route === "bomb") {
      // 1 GiB of zeros as 1,024 gzip members of 1 MiB (1 MB on the wire).
      res.writeHead(429, { "content-encoding": "gzip", "content-type": "application/json" });
      let sent = 0;
      const more = () => {
        while (sent < 1024) {
          sent++;
          if (!res.write(zeros)) return void res.once("drain", more);
        }
        res.end();
      };
      res.on("error", () => undefined);
      return more();
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((done) => front.listen(0, "127.0.0.1", done));
  frontUrl = `http://127.0.0.1:${(front.address() as AddressInfo).port}`;
});

afterAll(async () => {
  front.closeAllConnections();
  await new Promise((done) => front.close(done));
});

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  frontSeen.length = 0;
});

async function start(baseUrl: string, model: string, settings: Record<string, unknown> = {}): Promise<RpcClient> {
  const agentDir = tempDir("atomic-agent-");
  await writeModelsJson(agentDir, baseUrl);
  const client = new RpcClient({
    agentDir,
    settings: { retry: { baseDelayMs: 10 }, ...settings },
    env: { ...NO_KEYS, ...NO_PROXIES },
    args: ["--mode", "rpc", "--no-session", "--model", model],
  });
  clients.push(client);
  // The "really done" signal (retries included), whether or not it is on by default.
  await client.ok({ type: "set_event_options", agentSettled: true });
  return client;
}

/** Prompts and waits until the agent settled; the records since. */
async function promptSettled(client: RpcClient, timeoutMs = 20_000): Promise<Record_[]> {
  const from = client.records.length;
  expect((await client.request({ type: "prompt", message: "Hello?" })).success).toBe(true);
  await client.waitForEvent("agent_settled", timeoutMs, from);
  return client.records.slice(from);
}

const lastAssistant = (records: Record_[]) =>
  records.filter((r) => r.type === "message_end" && (r.message as { role: string }).role === "assistant").at(-1)!.message as {
    stopReason: string;
    errorMessage?: string;
    content: { type: string; text?: string }[];
  };

describe("redirects", () => {
  for (const model of ["fake-openai/fake-1", "fake-google/fake-1", "fake-anthropic/fake-1"]) {
    it(`${model}: a redirect to another host is an error naming both; the key and the conversation stay`, async () => {
      const client = await start(`${frontUrl}/away`, model);
      const records = await promptSettled(client);
      const failed = lastAssistant(records);
      expect(failed.stopReason).toBe("error");
      expect(failed.errorMessage).toContain(`${new URL(frontUrl).host} redirected to another host, ${new URL(fake.url).host}: the redirect was not followed`);
      expect(records.some((r) => r.type === "auto_retry_start")).toBe(false);
      expect(fake.requests).toEqual([]);
    });
  }

  it("a redirect within the provider's origin is followed once, and the request sent once", async () => {
    fake.script({ text: "Moved, and found." });
    const client = await start(`${frontUrl}/moved`, "fake-openai/fake-1");
    const records = await promptSettled(client);
    expect(lastAssistant(records)).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "Moved, and found." }] });
    expect(frontSeen).toEqual(["/moved/v1/chat/completions", "/direct/v1/chat/completions"]);
    expect(fake.requests).toHaveLength(1);
  });
});

describe("connection errors", () => {
  it("a rejected certificate names the host and the cause, and is not retried", async () => {
    const tls = resolve(import.meta.dirname, "fixtures/tls");
    const server = createHttpsServer({ key: readFileSync(resolve(tls, "key.pem")), cert: readFileSync(resolve(tls, "cert.pem")) }, (_req, res) => res.end());
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    try {
      const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
      const client = await start(`https://${host}`, "fake-openai/fake-1");
      const records = await promptSettled(client);
      // Node 24 appends its own hint (`; if the root CA is installed locally, try running Node.js with --use-system-ca`): kept, it is the fix.
      const message = lastAssistant(records).errorMessage ?? "";
      expect(message.replace(/; if the root CA is installed locally, try running Node\.js with --use-system-ca/, "")).toBe(
        `Connection error. (Request to ${host} failed: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT))`,
      );
      expect(records.some((r) => r.type === "auto_retry_start")).toBe(false);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  });

  it("httpIdleTimeoutMs bounds a connection that goes silent, and the error says which setting", async () => {
    fake.script({ text: "one two three four five", stall: 2 });
    const client = await start(fake.url, "fake-openai/fake-1", { httpIdleTimeoutMs: 500, retry: { enabled: false } });
    // The server stays silent for good: the run ends only through the idle timeout.
    const records = await promptSettled(client);
    expect(lastAssistant(records).errorMessage).toMatch(/no data from the server for 0\.5 s, timed out \(settings: httpIdleTimeoutMs\)/);
  });
});

describe("bounded bodies", () => {
  it("an error body that inflates to 1 GiB is read to 1 MiB: the turn fails, the agent stays small and serves", async () => {
    const client = await start(`${frontUrl}/bomb`, "fake-openai/fake-1", { retry: { enabled: false } });
    const records = await promptSettled(client, 30_000);
    expect(lastAssistant(records)).toMatchObject({ stopReason: "error", errorMessage: expect.stringMatching(/^429\b/) });
    expect(lastAssistant(records).errorMessage!.length).toBeLessThan(4096);
    const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${client.child.pid}/status`, "utf8"))![1]);
    console.log(`429 with a 1 GiB gzip body: peak RSS ${(peakKb / 1024).toFixed(0)} MB`);
    expect(peakKb).toBeLessThan(400 * 1024);
    expect((await client.request({ type: "get_state" })).success).toBe(true);
  }, 60_000);
});
