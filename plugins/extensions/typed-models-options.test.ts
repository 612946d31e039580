/**
 * pi 1.6's call options of `ctx.modelRegistry.classify()` / `generateImages()` against loopback
 * servers: the caller's key and `env`, headers (and `transformHeaders`, `identity`), `onPayload`,
 * `onResponse`, `fetch`, `timeoutMs`, `maxRetries` and `maxRetryDelayMs`; an option of the wrong
 * type is an error result naming it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Model } from "../../lib/llm/index.js";
import type { ModelsApi } from "../models/api.js";
import { typedModelFunctions } from "./typed-models.js";
import { standInRegistry, UPSET_QUESTION } from "./typed-models.test-support.js";

const registry = (baseUrls: Record<string, string> = {}): ModelsApi => standInRegistry(baseUrls);

const context = UPSET_QUESTION;
const ANSWER = { answers: { upset: { type: "noul", noul: 0.9 } } };
const JEV = { provider: "typesafe", id: "jev-latest" };

interface Seen {
  headers: IncomingHttpHeaders;
  body: any;
}
/** One reply: a status, its headers and body, or none (the request hangs). */
type Reply = { status?: number; headers?: Record<string, string>; body?: unknown } | "hang";

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())).then(() => (server = undefined)));

/** A loopback endpoint answering each request with the next of `replies` (the last repeats). */
async function endpoint(...replies: Reply[]): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => (text += chunk));
    request.on("end", () => {
      seen.push({ headers: request.headers, body: JSON.parse(text) });
      const reply = replies[Math.min(seen.length - 1, replies.length - 1)]!;
      if (reply === "hang") return;
      response.writeHead(reply.status ?? 200, { "content-type": "application/json", ...reply.headers }).end(JSON.stringify(reply.body ?? ANSWER));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1/`, seen };
}

const typedAt = (url: string, env: Record<string, string> = {}) =>
  typedModelFunctions(
    () => registry({ typesafe: url, openrouter: url }),
    () => env,
  );

describe("typed calls: pi 1.6's call options", () => {
  it("the caller's key stands in for a missing credential; headers, transformHeaders and identity shape the request; onPayload replaces the body; onResponse sees the answer", async () => {
    const { url, seen } = await endpoint({ headers: { "x-request-id": "r-1" } });
    const responses: unknown[] = [];
    const result = await typedAt(url).classify(JEV, context, {
      apiKey: "caller-key",
      headers: { "x-team": "blue", "x-drop": "soon" },
      transformHeaders: (headers) => ({ ...headers, "x-drop": "gone", "x-added": String(Object.keys(headers).length) }),
      identity: { userAgent: { custom: "probe/1" } },
      onPayload: (payload) => ({ ...(payload as object), state: { message: "replaced" } }),
      onResponse: (response, model) => {
        responses.push({ status: response.status, id: response.headers["x-request-id"], model: (model as { id: string }).id });
      },
    });
    expect(result).toMatchObject({ stopReason: "stop", answers: { upset: { type: "bool", probability: 0.9 } } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers).toMatchObject({ authorization: "Bearer caller-key", "x-team": "blue", "x-drop": "gone", "x-added": "2", "user-agent": "probe/1" });
    expect(seen[0]!.body.state).toEqual({ message: "replaced" });
    expect(responses).toEqual([{ status: 200, id: "r-1", model: "jev-latest" }]);
  });

  it("a null header removes one the request would send; the caller's fetch carries it", async () => {
    const { url, seen } = await endpoint({});
    const fetched: { url: string; headers: unknown }[] = [];
    const result = await typedAt(url, { TYPESAFE_API_KEY: "ts-key" }).classify(JEV, context, {
      headers: { "content-type": null, "x-extra": "1" },
      fetch: (input, init) => {
        fetched.push({ url: String(input), headers: init?.headers });
        return fetch(input, init);
      },
    });
    expect(result.stopReason).toBe("stop");
    // What the request asked for (the global fetch then adds its own text/plain default).
    expect(fetched).toEqual([{ url: `${url}systemone`, headers: { authorization: "Bearer ts-key", "x-extra": "1" } }]);
    expect(seen[0]!.headers).toMatchObject({ authorization: "Bearer ts-key", "x-extra": "1" });
  });

  it("env's variables stand before the environment: the provider's key variable", async () => {
    const { url, seen } = await endpoint({});
    const result = await typedAt(url, { TYPESAFE_API_KEY: "process-key" }).classify(JEV, context, { env: { TYPESAFE_API_KEY: "call-key" } });
    expect(result.stopReason).toBe("stop");
    expect(seen[0]!.headers.authorization).toBe("Bearer call-key");
    // Without a key anywhere else, the call's variable makes the provider callable.
    const alone = await typedAt(url).classify(JEV, context, { env: { TYPESAFE_API_KEY: "only-key" } });
    expect(alone.stopReason).toBe("stop");
    expect(seen[1]!.headers.authorization).toBe("Bearer only-key");
  });

  it("maxRetries bounds the retries of a 503 (a server's retry-after-ms paces them)", async () => {
    const unavailable: Reply = { status: 503, headers: { "retry-after-ms": "1" }, body: { error: "busy" } };
    const once = await endpoint(unavailable);
    const none = await typedAt(once.url, { TYPESAFE_API_KEY: "k" }).classify(JEV, context, { maxRetries: 0 });
    expect(none).toMatchObject({ stopReason: "error", errorMessage: expect.stringContaining("503") });
    expect(once.seen).toHaveLength(1);
    await new Promise<void>((resolve) => server!.close(() => resolve()));

    const twice = await endpoint(unavailable, unavailable, {});
    const recovered = await typedAt(twice.url, { TYPESAFE_API_KEY: "k" }).classify(JEV, context, { maxRetries: 2 });
    expect(recovered.stopReason).toBe("stop");
    expect(twice.seen).toHaveLength(3);
  });

  it("a server's wait beyond maxRetryDelayMs fails at once, naming both", async () => {
    const { url, seen } = await endpoint({ status: 429, headers: { "retry-after": "5" }, body: { error: "slow down" } });
    const result = await typedAt(url, { TYPESAFE_API_KEY: "k" }).classify(JEV, context, { maxRetryDelayMs: 1000 });
    expect(result.errorMessage).toMatch(/^Server requested 5s retry delay \(max: 1s\)\. System One API error \(429\)/);
    expect(seen).toHaveLength(1);
  });

  it("timeoutMs ends an attempt that gets no answer (each retry gets its own)", async () => {
    const { url, seen } = await endpoint("hang");
    const result = await typedAt(url, { TYPESAFE_API_KEY: "k" }).classify(JEV, context, { timeoutMs: 50, maxRetries: 0 });
    expect(result).toMatchObject({ stopReason: "error", errorMessage: "Request timed out after 50ms" });
    expect(seen).toHaveLength(1);
  });

  it("generateImages takes the same options: key, headers, onPayload, onResponse, maxRetries", async () => {
    const image = { id: "gen-1", choices: [{ message: { content: "", images: [{ image_url: { url: "data:image/png;base64,AAAA" } }] } }] };
    const { url, seen } = await endpoint({ status: 500, headers: { "retry-after-ms": "1" }, body: { error: { message: "hiccup" } } }, { body: image });
    const typed = typedAt(url);
    const model = typed.getModelsOfType("image", "openrouter")[0] as Model;
    const statuses: number[] = [];
    const result = await typed.generateImages(
      model,
      { input: [{ type: "text", text: "a fox" }] },
      {
        apiKey: "or-key",
        headers: { "x-team": "blue" },
        identity: { attribution: { name: "probe", url: "https://probe.example" } },
        onPayload: (payload) => ({ ...(payload as object), seed: 7 }),
        onResponse: (response) => void statuses.push(response.status),
        maxRetries: 1,
        metadata: { user: "u-1" },
      },
    );
    expect(result).toMatchObject({ stopReason: "stop", responseId: "gen-1", output: [{ type: "image", mimeType: "image/png", data: "AAAA" }] });
    expect(seen).toHaveLength(2);
    expect(seen[1]!.headers).toMatchObject({ authorization: "Bearer or-key", "x-team": "blue", "http-referer": "https://probe.example", "x-openrouter-title": "probe" });
    expect(seen[1]!.body).toMatchObject({ model: model.id, seed: 7 });
    expect(statuses).toEqual([200]);
  });

  it("an option of the wrong type is an error result naming it; nothing is sent", async () => {
    const { url, seen } = await endpoint({});
    const typed = typedAt(url, { TYPESAFE_API_KEY: "k" });
    const wrong = async (options: unknown) => (await typed.classify(JEV, context, options as never)).errorMessage;
    expect(await wrong({ timeoutMs: "5" })).toBe('classify: options.timeoutMs must be a positive number of milliseconds, got "5"');
    expect(await wrong({ headers: { "x-n": 1 } })).toBe("classify: options.headers must be an object of string (or null) values, got an object");
    expect(await wrong({ maxRetries: -1 })).toBe("classify: options.maxRetries must be a whole number of 0 or more, got -1");
    expect(await wrong({ onPayload: "x" })).toBe('classify: options.onPayload must be a function, got "x"');
    expect(await wrong({ identity: { userAgent: "tall" } })).toMatch(/^classify: options\.identity must be \{ userAgent\?: "short" \| "detailed"/);
    expect(await wrong({ temperature: 0 })).toBe("classify: options.temperature must be a positive number, got 0");
    expect(await wrong({ env: { KEY: 1 } })).toBe("classify: options.env must be an object of string values, got an object");
    expect(await wrong("fast")).toBe('classify: options must be an object, got "fast"');
    const images = await typed.generateImages({ provider: "openrouter", id: "x" }, { input: [] }, { metadata: "m" } as never);
    expect(images).toMatchObject({ stopReason: "error", output: [], errorMessage: 'generateImages: options.metadata must be an object, got "m"' });
    expect(seen).toHaveLength(0);
  });
});
