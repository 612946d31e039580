import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { FetchHeaders } from "./fetch-headers.js";
import { deferringWebBodies, FetchResponse } from "./fetch-response.js";
import { sseBatches } from "./sse.js";

const response = (chunks: string[]) =>
  new FetchResponse(Readable.from(chunks.map((chunk) => Buffer.from(chunk))), { status: 200, headers: new FetchHeaders({ "content-type": "text/event-stream" }) });
const text = (parts: Uint8Array[]) => Buffer.concat(parts).toString();

describe("a response whose web body is deferred", () => {
  it("looking at `body` makes no web stream, and the SSE reader still takes the Node stream", async () => {
    const deferred = response(["data: one\n\n", "data: two\n\n"]).deferWebBody();
    const body = deferred.body!;
    expect(body).not.toBeInstanceOf(ReadableStream);
    expect(Object.prototype.toString.call(body)).toBe("[object ReadableStream]");
    expect(body.locked).toBe(false);
    const data: string[] = [];
    for await (const batch of sseBatches(deferred)) for (const message of batch) data.push(message.data);
    expect(data).toEqual(["one", "two"]);
  });

  it("read through `body`, gives the bytes as the standard stream does (reader, iteration, tee)", async () => {
    const viaReader = response(["ab", "cd"]).deferWebBody().body!;
    const reader = viaReader.getReader();
    expect(viaReader.locked).toBe(true);
    const parts: Uint8Array[] = [];
    for (let read = await reader.read(); !read.done; read = await reader.read()) parts.push(read.value);
    expect(text(parts)).toBe("abcd");

    const iterated: Uint8Array[] = [];
    for await (const chunk of response(["ef", "gh"]).deferWebBody().body as unknown as AsyncIterable<Uint8Array>) iterated.push(chunk);
    expect(text(iterated)).toBe("efgh");

    const [left, right] = response(["ij"]).deferWebBody().body!.tee();
    expect(left).toBeInstanceOf(ReadableStream);
    expect(await new Response(left).text()).toBe("ij");
    expect(await new Response(right).text()).toBe("ij");
  });

  it("a body used once is used: `text()` after reading `body` fails as the standard class does", async () => {
    const deferred = response(["x"]).deferWebBody();
    await deferred.body!.getReader().read();
    await expect(deferred.text()).rejects.toThrow(TypeError);
  });

  it("cancelled before any read, it releases the connection (the Node stream is destroyed)", async () => {
    const source = Readable.from([Buffer.from("never read")]);
    const deferred = new FetchResponse(source, { status: 200, headers: new FetchHeaders({}) }).deferWebBody();
    await deferred.body!.cancel("abandoned");
    expect(source.destroyed).toBe(true);
    expect(deferred.takeNodeBody()).toBeUndefined();
  });

  it("deferringWebBodies defers the frame's responses and passes any other response through", async () => {
    const frame = deferringWebBodies(async () => response(["y"]));
    expect((await frame("http://127.0.0.1/")).body).not.toBeInstanceOf(ReadableStream);
    const standard = new Response("z");
    expect(await deferringWebBodies(async () => standard)("http://127.0.0.1/")).toBe(standard);
    // Without deferral the body is the standard class, as before.
    expect(response(["w"]).body).toBeInstanceOf(ReadableStream);
  });
});
