/**
 * The `Response` the frame's fetch returns: the standard interface over a web `ReadableStream`,
 * without loading undici (see fetch-headers.ts). The body can be read once (a second read is a
 * TypeError, as with the standard class); `clone()` tees it. `formData()`, which no provider
 * response needs, hands the bytes to the global `Response`.
 */
import { FetchHeaders } from "./fetch-headers.js";

export interface FetchResponseInit {
  status: number;
  statusText?: string;
  headers: FetchHeaders;
  url?: string;
}

export class FetchResponse implements Response {
  readonly status: number;
  readonly statusText: string;
  readonly headers: FetchHeaders;
  readonly url: string;
  readonly redirected = false;
  readonly type = "basic" as const;
  #body: ReadableStream<Uint8Array<ArrayBuffer>> | null;
  #used = false;

  constructor(body: ReadableStream<Uint8Array<ArrayBuffer>> | null, init: FetchResponseInit) {
    this.#body = body;
    this.status = init.status;
    this.statusText = init.statusText ?? "";
    this.headers = init.headers;
    this.url = init.url ?? "";
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    return this.#body;
  }

  /** True once a reading method ran (a reader taken from `body` directly locks the stream instead). */
  get bodyUsed(): boolean {
    return this.#used;
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const stream = this.#take();
    if (!stream) return new Uint8Array(0);
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    const reader = stream.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    return chunks.length === 1 ? chunks[0]! : new Uint8Array(Buffer.concat(chunks));
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.bytes();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  }

  async text(): Promise<string> {
    // UTF-8 with a leading BOM dropped and malformed bytes replaced, as the standard decodes.
    return new TextDecoder().decode(await this.bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async blob(): Promise<Blob> {
    return new Blob([await this.bytes()], { type: this.headers.get("content-type") ?? "" });
  }

  async formData(): Promise<FormData> {
    const headers = [...this.headers];
    return new Response(await this.bytes(), { status: this.status, headers }).formData();
  }

  clone(): FetchResponse {
    if (this.#used || this.#body?.locked) throw new TypeError("Response.clone: Body has already been consumed.");
    let copy: ReadableStream<Uint8Array<ArrayBuffer>> | null = null;
    if (this.#body) [this.#body, copy] = this.#body.tee();
    return new FetchResponse(copy, { status: this.status, statusText: this.statusText, headers: new FetchHeaders(this.headers), url: this.url });
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }

  #take(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#used || this.#body?.locked) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.#body;
  }
}
