/**
 * The `Response` the frame's fetch returns: the standard interface without loading undici (see
 * fetch-headers.ts). The body can be read once (a second read is a TypeError, as with the
 * standard class); `clone()` tees it. `formData()`, which no provider response needs, hands the
 * bytes to the global `Response`.
 *
 * Over an HTTP response the body stays a Node stream until someone reads `body`: the web
 * stream adapter costs a few promise hops per chunk, so `takeNodeBody` (the SSE reader) and
 * `bytes()` read the Node stream itself.
 */
import { Readable } from "node:stream";
import { DeferredWebBody } from "./deferred-web-body.js";
import { FetchHeaders } from "./fetch-headers.js";

export interface FetchResponseInit {
  status: number;
  statusText?: string;
  headers: FetchHeaders;
  url?: string;
  /** The response came after following a redirect. */
  redirected?: boolean;
}

export class FetchResponse implements Response {
  readonly status: number;
  readonly statusText: string;
  readonly headers: FetchHeaders;
  readonly url: string;
  readonly redirected: boolean;
  readonly type = "basic" as const;
  #body: ReadableStream<Uint8Array<ArrayBuffer>> | null | undefined;
  /** The Node stream behind the body while no web stream has been made of it. */
  #source: Readable | undefined;
  /** The web body has started reading the Node stream: it is no longer there to take. */
  #webStarted = false;
  #nodeTaken = false;
  #used = false;
  #deferWeb = false;

  constructor(body: ReadableStream<Uint8Array<ArrayBuffer>> | Readable | null, init: FetchResponseInit) {
    if (body instanceof Readable) this.#source = body;
    else this.#body = body;
    this.status = init.status;
    this.statusText = init.statusText ?? "";
    this.headers = init.headers;
    this.url = init.url ?? "";
    this.redirected = init.redirected ?? false;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    if (this.#body === undefined && this.#source) {
      const source = this.#source;
      this.#body = this.#deferWeb ? (new DeferredWebBody(() => this.#webBody(source)) as unknown as ReadableStream<Uint8Array<ArrayBuffer>>) : this.#webBody(source);
    }
    return this.#body ?? null;
  }

  /**
   * `body`, when read, is a stand-in that makes the web stream on first use (deferred-web-body.ts):
   * for a consumer that looks at `body` without reading it, where the standard class would load
   * Node's web streams for nothing.
   */
  deferWebBody(): this {
    this.#deferWeb = true;
    return this;
  }

  /** The body as the Node stream it came as, once (marks the body used); undefined otherwise. */
  takeNodeBody(): Readable | undefined {
    const source = this.#source;
    if (!source || this.#used || this.#webStarted || this.#body?.locked) return undefined;
    this.#used = true;
    this.#nodeTaken = true;
    this.#source = undefined;
    return source;
  }

  /**
   * A web stream over the Node one that starts reading it only when read itself: an SDK may
   * look at `body` without reading it (Anthropic's keeps it for a clean-up backstop), and
   * `takeNodeBody` must still work then.
   */
  #webBody(source: Readable): ReadableStream<Uint8Array<ArrayBuffer>> {
    let reader: ReadableStreamDefaultReader<Uint8Array<ArrayBuffer>> | undefined;
    const open = () => {
      this.#webStarted = true;
      this.#source = undefined;
      return (reader ??= (Readable.toWeb(source) as ReadableStream<Uint8Array<ArrayBuffer>>).getReader());
    };
    return new ReadableStream<Uint8Array<ArrayBuffer>>(
      {
        pull: async (controller) => {
          const read = await open().read();
          if (read.done) controller.close();
          else controller.enqueue(read.value);
        },
        cancel: async (reason) => {
          if (reader) return reader.cancel(reason);
          // Cancelled before any read: release the connection, unless the Node stream was taken.
          if (this.#nodeTaken) return;
          this.#source = undefined;
          source.destroy();
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** True once a reading method ran (a reader taken from `body` directly locks the stream instead). */
  get bodyUsed(): boolean {
    return this.#used;
  }

  async bytes(): Promise<Uint8Array<ArrayBuffer>> {
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    const source = this.takeNodeBody();
    if (source) {
      for await (const chunk of source) chunks.push(chunk as Uint8Array<ArrayBuffer>);
    } else {
      const stream = this.#take();
      if (!stream) return new Uint8Array(0);
      const reader = stream.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    }
    if (chunks.length === 0) return new Uint8Array(0);
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
    const body = this.body;
    // Both copies read the web body now: the Node stream under it is no longer anyone's to take.
    this.#source = undefined;
    if (body) [this.#body, copy] = body.tee();
    return new FetchResponse(copy, { status: this.status, statusText: this.statusText, headers: new FetchHeaders(this.headers), url: this.url, redirected: this.redirected });
  }

  get [Symbol.toStringTag](): string {
    return "Response";
  }

  #take(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
    const body = this.body;
    if (this.#used || body?.locked) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return body;
  }
}

/** `fetch` whose responses defer their web body (see `deferWebBody`), for an SDK that only looks. */
export function deferringWebBodies(fetch: typeof globalThis.fetch): typeof globalThis.fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    return response instanceof FetchResponse ? response.deferWebBody() : response;
  };
}
