/**
 * Bedrock's Converse stream through the AWS SDK (`@aws-sdk/client-bedrock-runtime`, loaded on the
 * first request and kept out of the bundle): the SDK signs the request (SigV4 with the
 * environment's keys or the AWS credential chain) or sends a Bedrock API key as a bearer token,
 * and decodes the binary event stream. Its HTTP goes through the frame's fetch (proxy, idle
 * timeout, request hooks, the error body), not the SDK's own client.
 */
import { Readable } from "node:stream";
import { BedrockRuntimeClient, ConverseStreamCommand, type ConverseStreamOutput } from "@aws-sdk/client-bedrock-runtime";
import type { AssistantMessageEvent } from "../../lib/llm/index.js";
import { bedrockTarget } from "../../lib/provider-kit/bedrock-region.js";
import type { ProviderCall, ProviderYield } from "../../lib/provider-kit/provider-stream.js";
import { presentHeaders } from "../../lib/provider-kit/request-headers.js";
import type { AssistantStreamBuilder } from "../../lib/provider-kit/stream-builder.js";
import { buildConverseRequest } from "./converse-request.js";

const STOP: Record<string, "stop" | "length" | "toolUse"> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  tool_use: "toolUse",
  model_context_window_exceeded: "length",
};

export function converseStream(env: NodeJS.ProcessEnv) {
  return async function* streamConverse(call: ProviderCall): AsyncGenerator<ProviderYield, void, undefined> {
    const { region, baseUrl } = bedrockTarget(call.baseUrl, call.request.model.id, env);
    const keys =
      env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
        ? { accessKeyId: env.AWS_ACCESS_KEY_ID, secretAccessKey: env.AWS_SECRET_ACCESS_KEY, ...(env.AWS_SESSION_TOKEN ? { sessionToken: env.AWS_SESSION_TOKEN } : {}) }
        : undefined;
    const client = new BedrockRuntimeClient({
      region,
      endpoint: baseUrl,
      maxAttempts: 1,
      requestHandler: fetchHandler(call),
      ...(call.apiKey ? { token: { token: call.apiKey }, authSchemePreference: ["httpBearerAuth"] } : keys ? { credentials: keys } : {}),
    });
    const headers = presentHeaders(call.headers);
    if (Object.keys(headers).length > 0) {
      client.middlewareStack.add(
        (next) => async (args) => {
          const request = args.request as { headers?: Record<string, string> };
          if (request.headers) Object.assign(request.headers, headers);
          return next(args);
        },
        { step: "build", name: "atomicHeaders" },
      );
    }
    const response = await client.send(new ConverseStreamCommand(buildConverseRequest(call.request) as never), { abortSignal: call.signal });
    const b = call.builder;
    yield b.start();
    const blocks = new Blocks(b);
    for await (const event of response.stream ?? []) {
      yield* blocks.events(event);
      if (blocks.stopReason !== undefined && blocks.sawMetadata) break;
    }
    if (call.signal.aborted) return;
    yield* b.endAll();
    const stop = blocks.stopReason;
    if (stop === undefined) throw new Error("Bedrock stream ended without a stop reason");
    const reason = STOP[stop];
    yield reason ? b.done(reason === "stop" && b.hasToolCalls() ? "toolUse" : reason) : b.error(`Provider stopped with: ${stop}`);
  };
}

/** Tracks Converse's content blocks (by `contentBlockIndex`) onto the builder's. */
class Blocks {
  readonly #b: AssistantStreamBuilder;
  readonly #open = new Map<number, { key: string; kind: "text" | "thinking" | "tool" }>();
  stopReason: string | undefined;
  sawMetadata = false;

  constructor(builder: AssistantStreamBuilder) {
    this.#b = builder;
  }

  *events(event: ConverseStreamOutput): Generator<AssistantMessageEvent> {
    const b = this.#b;
    if (event.contentBlockStart?.start?.toolUse) {
      const { toolUseId, name } = event.contentBlockStart.start.toolUse;
      const key = `tool${event.contentBlockStart.contentBlockIndex ?? 0}`;
      this.#open.set(event.contentBlockStart.contentBlockIndex ?? 0, { key, kind: "tool" });
      yield b.toolCallStart(key, { id: toolUseId ?? "", name: name ?? "" });
    } else if (event.contentBlockDelta) {
      const index = event.contentBlockDelta.contentBlockIndex ?? 0;
      const delta = event.contentBlockDelta.delta;
      if (delta?.text !== undefined) yield* this.#prose(index, "text", delta.text);
      else if (delta?.reasoningContent?.text !== undefined) yield* this.#prose(index, "thinking", delta.reasoningContent.text);
      else if (delta?.toolUse?.input !== undefined) {
        const open = this.#open.get(index);
        if (open?.kind === "tool") yield b.toolCallDelta(open.key, delta.toolUse.input);
      }
    } else if (event.contentBlockStop) {
      const open = this.#open.get(event.contentBlockStop.contentBlockIndex ?? 0);
      if (open && b.isOpen(open.key)) yield b.end(open.key);
    } else if (event.messageStop) {
      this.stopReason = event.messageStop.stopReason ?? "end_turn";
    } else if (event.metadata) {
      this.sawMetadata = true;
      const usage = event.metadata.usage;
      if (usage)
        b.setUsage({ input: usage.inputTokens ?? 0, output: usage.outputTokens ?? 0, cacheRead: usage.cacheReadInputTokens ?? 0, cacheWrite: usage.cacheWriteInputTokens ?? 0 });
    } else {
      const failure =
        event.internalServerException ?? event.modelStreamErrorException ?? event.validationException ?? event.throttlingException ?? event.serviceUnavailableException;
      if (failure) throw failure;
    }
  }

  *#prose(index: number, kind: "text" | "thinking", delta: string): Generator<AssistantMessageEvent> {
    let open = this.#open.get(index);
    if (!open) {
      open = { key: `${kind}${index}`, kind };
      this.#open.set(index, open);
      yield kind === "text" ? this.#b.textStart(open.key) : this.#b.thinkingStart(open.key);
    }
    if (delta !== "") yield kind === "text" ? this.#b.textDelta(open.key, delta) : this.#b.thinkingDelta(open.key, delta);
  }
}

interface SmithyRequest {
  protocol: string;
  hostname: string;
  port?: number;
  path: string;
  method: string;
  query?: Record<string, string | string[] | null>;
  headers: Record<string, string>;
  body?: unknown;
}

/** The SDK's HTTP handler, sending through the frame's fetch. */
function fetchHandler(call: ProviderCall) {
  return {
    metadata: { handlerProtocol: "http/1.1" },
    async handle(request: SmithyRequest, options?: { abortSignal?: AbortSignal }) {
      const url = new URL(`${request.protocol}//${request.hostname}${request.port ? `:${request.port}` : ""}${request.path}`);
      for (const [name, value] of Object.entries(request.query ?? {})) {
        for (const item of Array.isArray(value) ? value : [value]) if (item !== null) url.searchParams.append(name, item);
      }
      const { host: _host, ...headers } = request.headers;
      const response = await call.fetch(url, {
        method: request.method,
        headers,
        ...(request.body !== undefined && request.method !== "GET" ? { body: request.body as BodyInit } : {}),
        ...(options?.abortSignal ? { signal: options.abortSignal as AbortSignal } : {}),
      });
      const responseHeaders: Record<string, string> = {};
      response.headers.forEach((value, name) => {
        responseHeaders[name] = value;
      });
      const body = response.body ? Readable.fromWeb(response.body as never) : Readable.from([]);
      return { response: { statusCode: response.status, reason: response.statusText, headers: responseHeaders, body } };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
    destroy() {},
  };
}
