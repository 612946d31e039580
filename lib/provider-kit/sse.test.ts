import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FetchResponse } from "./fetch-response.js";
import { httpFetch } from "./http-fetch.js";
import { sseBatches, type SseMessage } from "./sse.js";

let server: Server;
let base: string;
/** Each route writes its pieces one by one, a few ms apart, so they arrive as separate chunks. */
const routes: Record<string, (string | Buffer)[]> = {};

beforeAll(async () => {
  server = createServer((req, res) => void writeSlowly(res, routes[req.url!] ?? []));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function writeSlowly(res: ServerResponse, pieces: (string | Buffer)[]): Promise<void> {
  res.writeHead(200, { "content-type": "text/event-stream" });
  for (const piece of pieces) {
    res.write(piece);
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  res.end();
}

async function served(route: string, pieces: (string | Buffer)[]): Promise<Response> {
  routes[route] = pieces;
  return httpFetch(`${base}${route}`);
}

async function collect(response: Response): Promise<{ messages: SseMessage[]; batches: number }> {
  const messages: SseMessage[] = [];
  let batches = 0;
  for await (const batch of sseBatches(response)) {
    batches++;
    // The parser's own message objects are passed on (an `id` field too): compare what adapters read.
    messages.push(...batch.map(({ event, data }) => ({ event, data })));
  }
  return { messages, batches };
}

describe("sseBatches", () => {
  it("reads the HTTP body as a Node stream: events, named events, multi-line data, comments, CRLF and CR", async () => {
    const response = await served("/mixed", [
      ': a comment\n\ndata: {"a":1}\n\n',
      'event: content_block_delta\r\ndata: {"b":2}\r\n\r\n',
      "data: line one\rdata: line two\r\r",
      "id: 7\nretry: 100\ndata: last\n\n",
    ]);
    expect(response).toBeInstanceOf(FetchResponse);
    const { messages } = await collect(response);
    expect(messages).toEqual([
      { event: undefined, data: '{"a":1}' },
      { event: "content_block_delta", data: '{"b":2}' },
      { event: undefined, data: "line one\nline two" },
      { event: undefined, data: "last" },
    ]);
    // Read from the Node stream: the web body was never made, and the body counts as used.
    expect(response.bodyUsed).toBe(true);
  });

  it("keeps a character whose UTF-8 bytes are split across chunks, and a field split across chunks", async () => {
    const bytes = Buffer.from('data: {"t":"né ✓ 🙂"}\n\n');
    const cut = bytes.indexOf(Buffer.from("🙂")) + 2;
    const { messages } = await collect(await served("/split", [bytes.subarray(0, 3), bytes.subarray(3, cut), bytes.subarray(cut)]));
    expect(messages).toEqual([{ event: undefined, data: '{"t":"né ✓ 🙂"}' }]);
  });

  it("drops a leading byte-order mark, as the standard decoder does", async () => {
    const { messages } = await collect(await served("/bom", ["\uFEFFdata: first\n\n", "data: second\n\n"]));
    expect(messages.map((message) => message.data)).toEqual(["first", "second"]);
  });

  it("gives up on an event that never ends instead of buffering it without bound", async () => {
    const response = await served("/endless", ["data: " + "x".repeat(3000), "y".repeat(3000), "z".repeat(3000)]);
    const reading = (async () => {
      for await (const _batch of sseBatches(response, { maxEventChars: 5000 })) void _batch;
    })();
    await expect(reading).rejects.toThrow("The server sent an event of more than 5000 characters without ending it");
  });

  it("delivers what one chunk holds as one batch", async () => {
    const many = Array.from({ length: 50 }, (_, i) => `data: ${i}\n\n`).join("");
    const { messages, batches } = await collect(await served("/batch", [many]));
    expect(messages.map((message) => message.data)).toEqual(Array.from({ length: 50 }, (_, i) => String(i)));
    expect(batches).toBe(1);
  });

  it("drops an event the body ends in the middle of, as the SDKs do", async () => {
    const { messages } = await collect(await served("/cut", ["data: whole\n\n", "data: half"]));
    expect(messages).toEqual([{ event: undefined, data: "whole" }]);
  });

  it("reads a standard Response's web body the same way", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const encoded = new TextEncoder().encode("event: ping\ndata: {}\n\ndata: é\n\n");
        controller.enqueue(encoded.subarray(0, 27));
        controller.enqueue(encoded.subarray(27));
        controller.close();
      },
    });
    const { messages } = await collect(new Response(body));
    expect(messages).toEqual([
      { event: "ping", data: "{}" },
      { event: undefined, data: "é" },
    ]);
  });

  it("throws the abort's reason when the request is aborted while the body streams", async () => {
    routes["/long"] = Array.from({ length: 200 }, (_, i) => `data: ${i}\n\n`);
    const controller = new AbortController();
    const response = await httpFetch(`${base}/long`, { signal: controller.signal });
    const seen: string[] = [];
    const reading = (async () => {
      for await (const batch of sseBatches(response)) {
        seen.push(...batch.map((message) => message.data));
        if (seen.length >= 3) controller.abort(new Error("stop now"));
      }
    })();
    await expect(reading).rejects.toThrow("stop now");
    expect(seen.length).toBeGreaterThanOrEqual(3);
    expect(seen.length).toBeLessThan(200);
  });
});

describe("FetchResponse over a Node stream", () => {
  it("gives the Node stream once; after it, the body is used and cannot be read again", async () => {
    const response = (await served("/once", ["data: x\n\n"])) as FetchResponse;
    const source = response.takeNodeBody();
    expect(source).toBeDefined();
    expect(response.takeNodeBody()).toBeUndefined();
    await expect(response.text()).rejects.toThrow(TypeError);
    source!.resume();
  });

  it("still gives the Node stream when `body` was looked at but not read (an SDK keeps a reference to it)", async () => {
    const response = (await served("/looked", ["data: z\n\n"])) as FetchResponse;
    expect(response.body).toBeInstanceOf(ReadableStream);
    const { messages } = await collect(response);
    expect(messages).toEqual([{ event: undefined, data: "z" }]);
    // Cancelling the unread web body afterwards does not cut the Node stream that was taken.
    await response.body!.cancel();
  });

  it("releases the connection when the unread web body is cancelled", async () => {
    const response = (await served("/cancelled", ["data: 1\n\n", "data: 2\n\n"])) as FetchResponse;
    await response.body!.cancel();
    expect(response.takeNodeBody()).toBeUndefined();
  });

  it("makes a web body only when asked for one, and then no longer gives the Node stream", async () => {
    const response = (await served("/web", ["data: y\n\n"])) as FetchResponse;
    const reader = response.body!.getReader();
    expect(response.takeNodeBody()).toBeUndefined();
    let text = "";
    for (let read = await reader.read(); !read.done; read = await reader.read()) text += new TextDecoder().decode(read.value);
    expect(text).toBe("data: y\n\n");
  });
});
