/**
 * Gemini streaming through `@google/genai` (this module is loaded on first use), mapped onto the
 * unified events. Parts carry no block boundaries: a thought/text block ends when the other kind
 * starts; a function call arrives whole, so it starts, streams its JSON and ends at once.
 */
import { GoogleGenAI } from "@google/genai";
import type { AssistantMessageEvent } from "../../lib/llm/index.js";
import type { ProviderCall } from "../../lib/provider-kit/provider-stream.js";
import { presentHeaders } from "../../lib/provider-kit/request-headers.js";
import { buildGeminiRequest } from "./request.js";

interface Part {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
}
interface Chunk {
  candidates?: { content?: { parts?: Part[] }; finishReason?: string }[];
  usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number; thoughtsTokenCount?: number; cachedContentTokenCount?: number };
}

/** The client a request goes through: the Gemini API (default) or Vertex AI. */
export type GeminiClientFactory = (call: ProviderCall) => GoogleGenAI;

function geminiApiClient(call: ProviderCall): GoogleGenAI {
  // apiVersion "" keeps the catalog's baseUrl (which already ends in /v1beta) as the whole prefix.
  return new GoogleGenAI({
    apiKey: call.apiKey,
    vertexai: false,
    httpOptions: { baseUrl: call.baseUrl, apiVersion: "", headers: presentHeaders(call.headers), fetch: call.fetch },
  });
}

export async function* streamGemini(call: ProviderCall, clientFor: GeminiClientFactory = geminiApiClient): AsyncGenerator<AssistantMessageEvent, void, undefined> {
  const ai = clientFor(call);
  const request = buildGeminiRequest(call.request);
  const stream = (await ai.models.generateContentStream({
    model: request.model,
    contents: request.contents as never,
    config: { ...request.config, abortSignal: call.signal } as never,
  })) as AsyncIterable<Chunk>;
  const b = call.builder;
  yield b.start();
  let prose: { kind: "text" | "thinking"; key: string } | undefined;
  let count = 0;
  let finish: string | undefined;
  const seenIds = new Set<string>();
  for await (const chunk of stream) {
    const candidate = chunk.candidates?.[0];
    for (const part of candidate?.content?.parts ?? []) {
      if (typeof part.text === "string" && part.text !== "") {
        const kind = part.thought ? "thinking" : "text";
        if (prose?.kind !== kind) {
          if (prose) yield b.end(prose.key);
          prose = { kind, key: `${kind}${count++}` };
          yield kind === "text" ? b.textStart(prose.key) : b.thinkingStart(prose.key);
        }
        yield kind === "text" ? b.textDelta(prose.key, part.text) : b.thinkingDelta(prose.key, part.text);
        if (part.thoughtSignature) b.setSignature(prose.key, part.thoughtSignature);
      } else if (part.functionCall) {
        if (prose) yield b.end(prose.key);
        prose = undefined;
        const key = `call${count++}`;
        const name = part.functionCall.name ?? "";
        // Gemini ids are optional and not always unique: generate one where needed.
        const given = part.functionCall.id;
        const id = given && !seenIds.has(given) ? given : `${name}_${Date.now()}_${count}`;
        seenIds.add(id);
        yield b.toolCallStart(key, { id, name, ...(part.thoughtSignature ? { thoughtSignature: part.thoughtSignature } : {}) });
        yield b.toolCallDelta(key, JSON.stringify(part.functionCall.args ?? {}));
        yield b.end(key);
      } else if (part.thoughtSignature && prose) {
        b.setSignature(prose.key, part.thoughtSignature);
      }
    }
    if (candidate?.finishReason) finish = candidate.finishReason;
    const usage = chunk.usageMetadata;
    if (usage) {
      const cached = usage.cachedContentTokenCount ?? 0;
      b.setUsage({ input: (usage.promptTokenCount ?? 0) - cached, output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0), cacheRead: cached });
    }
  }
  if (call.signal.aborted) return;
  yield* b.endAll();
  if (finish === "STOP") yield b.done(b.hasToolCalls() ? "toolUse" : "stop");
  else if (finish === "MAX_TOKENS") yield b.done("length");
  else if (finish) yield b.error(`Gemini stopped the response: finishReason ${finish}`);
  else throw new Error("Gemini stream ended without a finishReason");
}
