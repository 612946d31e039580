/**
 * `atomic serve --listen ws://...` for end-to-end tests: the built CLI as a real child process on
 * a real loopback port, its URL and token read as a client would (the `{"listening"}` line on
 * stderr, `<agent dir>/serve/token`), and WebSocket clients whose records are checked against the
 * protocol schema like the unix socket clients of ./server.ts.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { type IncomingHttpHeaders, request as httpRequestOf } from "node:http";
import type { Socket } from "node:net";
import { join } from "node:path";
import { WebSocket } from "ws";
import { ProtocolChecker } from "./protocol.js";
import { checkProtocolOf, CLI, type Record_ } from "./rpc-client.js";
import { REPLAY_ARGS, ServerProcess, type ServerStartOptions, withoutEnvelope } from "./server.js";

export interface WsServer {
  server: ServerProcess;
  /** `ws://127.0.0.1:PORT` */
  url: string;
  port: number;
  token: string;
  /** With `--web`: the page's URL, the token in its fragment. */
  page?: string;
}

/** Resolves with the first stderr line matching `pattern` (or rejects when the server exits first). */
export function stderrLine(server: ServerProcess, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const match = pattern.exec(server.stderr);
      if (match) {
        server.child.stderr.off("data", check);
        clearTimeout(timer);
        resolve(match);
      }
    };
    const timer = setTimeout(() => reject(new Error(`no ${pattern} on stderr within ${timeoutMs} ms: ${server.stderr}`)), timeoutMs);
    server.child.stderr.on("data", check);
    void server.exited.then(({ code }) => reject(new Error(`atomic serve exited (${code}): ${server.stderr}`)));
    check();
  });
}

export async function startWsServer(options: ServerStartOptions & { host?: string; port?: number; web?: boolean; extra?: string[] } = {}): Promise<WsServer> {
  const listen = `ws://${options.host ?? "127.0.0.1"}:${options.port ?? 0}`;
  const server = await ServerProcess.start({
    ...options,
    listen: [listen, ...(options.listen ?? [])],
    args: [...(options.args ?? REPLAY_ARGS), ...(options.web ? ["--web"] : []), ...(options.extra ?? [])],
  });
  const [, url] = await stderrLine(server, /\{"listening":"(ws:\/\/[^"]+)"\}/);
  const page = options.web ? (await stderrLine(server, /\{"web":"([^"]+)"\}/))[1] : undefined;
  const token = readFileSync(join(server.agentDir, "serve", "token"), "utf8").trim();
  return { server, url: url!, port: Number(new URL(url!).port), token, ...(page ? { page } : {}) };
}

let nextId = 1;

/** A WebSocket client of the server: records in `records`, checked against the protocol schema. */
export class WsClient {
  readonly socket: WebSocket;
  readonly records: Record_[] = [];
  readonly protocolErrors: string[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  #waiters: { match: (r: Record_) => boolean; resolve: (r: Record_) => void; from: number }[] = [];
  #retired = false;
  readonly #checker = new ProtocolChecker(CLI, []);

  constructor(socket: WebSocket) {
    this.socket = socket;
    checkProtocolOf(this);
    socket.on("message", (data: Buffer) => this.#onRecord(JSON.parse(data.toString("utf8")) as Record_));
    socket.on("error", () => undefined);
    this.closed = new Promise((resolve) => socket.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  /** Connects with the token as a bearer header; resolves once `server_hello` arrived. */
  static async open(url: string, token: string, headers: Record<string, string> = {}): Promise<WsClient> {
    const client = new WsClient(new WebSocket(url, { headers: { Authorization: `Bearer ${token}`, ...headers } }));
    await client.waitFor((r) => r.type === "server_hello");
    return client;
  }

  retire(): void {
    this.#retired = true;
  }

  #onRecord(record: Record_): void {
    this.records.push(record);
    if (!this.#retired) {
      const problem = this.#checker.checkIncoming(withoutEnvelope(record));
      if (problem) this.protocolErrors.push(problem);
    }
    const index = this.records.length - 1;
    this.#waiters = this.#waiters.filter((waiter) => {
      if (index >= waiter.from && waiter.match(record)) {
        waiter.resolve(record);
        return false;
      }
      return true;
    });
  }

  send(command: Record<string, unknown>): void {
    this.socket.send(JSON.stringify(command));
  }

  async request(command: Record<string, unknown>, timeoutMs = 20_000): Promise<Record_> {
    const id = `w${nextId++}`;
    const from = this.records.length;
    this.send({ ...command, id });
    return this.waitFor((r) => r.type === "response" && r.id === id, timeoutMs, from);
  }

  async ok(command: Record<string, unknown>, timeoutMs?: number): Promise<any> {
    const response = await this.request(command, timeoutMs);
    if (!response.success) throw new Error(`${String(command.type)} failed: ${String(response.error)} (${String(response.code)})`);
    return response.data;
  }

  waitFor(match: (r: Record_) => boolean, timeoutMs = 20_000, from = 0): Promise<Record_> {
    for (let i = from; i < this.records.length; i++) if (match(this.records[i]!)) return Promise.resolve(this.records[i]!);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a record; last: ${JSON.stringify(this.records.slice(-4)).slice(0, 1500)}`)), timeoutMs);
      this.#waiters.push({ match, from, resolve: (r) => (clearTimeout(timer), resolve(r)) });
    });
  }

  close(): Promise<{ code: number; reason: string }> {
    this.socket.close();
    return this.closed;
  }
}

export interface HttpAnswer {
  status: number;
  body: string;
  headers: IncomingHttpHeaders;
  /** An accepted upgrade's socket (status 101). */
  socket?: Socket;
}

/** A WebSocket upgrade request made by hand (any headers, any Host), answered by a refusal or a 101. */
export function upgrade(port: number, headers: Record<string, string> = {}, path = "/"): Promise<HttpAnswer> {
  const handshake = { Connection: "Upgrade", Upgrade: "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": randomBytes(16).toString("base64") };
  return httpRequest(port, path, { ...handshake, ...headers });
}

/** A plain GET (a health check, the page). */
export function get(port: number, path: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return httpRequest(port, path, headers);
}

function httpRequest(port: number, path: string, headers: Record<string, string>): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequestOf({ host: "127.0.0.1", port, path, headers, agent: false });
    request.on("response", (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode!, body, headers: response.headers }));
    });
    request.on("upgrade", (response, socket) => resolve({ status: response.statusCode!, body: "", headers: response.headers, socket }));
    request.on("error", reject);
    request.end();
  });
}

/** The frames a server sent on a raw socket (unmasked, as a server sends them), read from `data`. */
export function framesOf(data: Buffer): { opcode: number; payload: Buffer }[] {
  const frames: { opcode: number; payload: Buffer }[] = [];
  let at = 0;
  while (at + 2 <= data.length) {
    const opcode = data[at]! & 0x0f;
    let length = data[at + 1]! & 0x7f;
    let start = at + 2;
    if (length === 126) {
      length = data.readUInt16BE(at + 2);
      start = at + 4;
    } else if (length === 127) {
      length = Number(data.readBigUInt64BE(at + 2));
      start = at + 10;
    }
    if (start + length > data.length) break;
    frames.push({ opcode, payload: data.subarray(start, start + length) });
    at = start + length;
  }
  return frames;
}

/** A client frame's header (masked, as a client must send it) announcing `length` bytes of text. */
export function textFrameHeader(length: number): Buffer {
  const header = Buffer.alloc(14);
  header[0] = 0x81;
  header[1] = 0x80 | 127;
  header.writeBigUInt64BE(BigInt(length), 2);
  randomBytes(4).copy(header, 10);
  return header;
}

/** The server process's open file descriptors. */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The server process's resident memory, in bytes. */
export function residentBytes(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kb) * 1024;
}

/**
 * The server's live JavaScript heap after a full garbage collection, asked through its inspector
 * (start it with NODE_OPTIONS=--inspect=127.0.0.1:0; the address is on its stderr). Resident
 * memory only grows back slowly; this is what a leak would keep.
 */
export async function heapAfterGc(server: ServerProcess): Promise<number> {
  const [, url] = await stderrLine(server, /Debugger listening on (ws:\/\/\S+)/);
  const inspector = new WebSocket(url!);
  await new Promise((done, fail) => {
    inspector.once("open", done);
    inspector.once("error", fail);
  });
  let nextCall = 1;
  const call = (method: string): Promise<any> =>
    new Promise((done) => {
      const id = nextCall++;
      const onMessage = (data: Buffer) => {
        const message = JSON.parse(data.toString()) as { id?: number; result?: unknown };
        if (message.id !== id) return;
        inspector.off("message", onMessage);
        done(message.result);
      };
      inspector.on("message", onMessage);
      inspector.send(JSON.stringify({ id, method }));
    });
  await call("HeapProfiler.collectGarbage");
  await call("HeapProfiler.collectGarbage");
  const { usedSize } = (await call("Runtime.getHeapUsage")) as { usedSize: number };
  inspector.close();
  return usedSize;
}
