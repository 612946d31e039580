/**
 * The non-chat wire formats of codemode's `models` global, answered as one JSON body each (no
 * stream): TypeSafe's System One (`POST …/systemone`, also OpenRouter's), Cloudflare Workers AI's
 * run endpoint (`POST …/ai/run`, its envelope around System One answers), OpenAI's Decisions API
 * (`POST …/decisions`) and OpenRouter's image generation (`POST …/chat/completions` with
 * `stream: false` and `modalities`). A reply's `answers` use the public answer shapes (choice,
 * score, bool) and are written in each format's own; `images` are returned as data URLs.
 */
import type { FakeAnswer, FakeReply } from "./types.js";

export type ModelsWireFormat = "system-one" | "cloudflare-run" | "openai-decisions" | "openrouter-images";

export function modelsWireFormatOf(path: string, body: unknown): ModelsWireFormat | undefined {
  if (path.endsWith("/systemone")) return "system-one";
  if (path.endsWith("/ai/run")) return "cloudflare-run";
  if (path.endsWith("/decisions")) return "openai-decisions";
  const request = body as { stream?: unknown; modalities?: unknown } | undefined;
  if (path.endsWith("/chat/completions") && request?.stream === false && Array.isArray(request.modalities)) return "openrouter-images";
  return undefined;
}

const classifierUsage = (reply: FakeReply) => ({ input_tokens: reply.usage?.input ?? 10, output_tokens: reply.usage?.output ?? 0 });

function systemOneAnswer(answer: FakeAnswer): Record<string, unknown> {
  if ("choice" in answer) return { type: "choice", choice: answer.choice, probabilities: answer.probabilities, confidence: answer.confidence };
  if ("score" in answer) return { type: "score", score: answer.score, confidence: answer.confidence };
  return { type: "noul", noul: answer.probability };
}

function decisionsAnswer(name: string, answer: FakeAnswer): Record<string, unknown> {
  if ("choice" in answer) {
    const probabilities = Object.entries(answer.probabilities).map(([value, probability]) => ({ value, probability }));
    return { name, type: "choice", choice: answer.choice, probabilities, confidence: answer.confidence };
  }
  if ("score" in answer) return { name, type: "score", score: answer.score, confidence: answer.confidence };
  return { name, type: "predicate", probability: answer.probability };
}

/** The JSON body a `models` request is answered with. */
export function renderModelsReply(format: ModelsWireFormat, reply: FakeReply, model: string, seq: number): unknown {
  const answers = Object.entries(reply.answers ?? {});
  switch (format) {
    case "system-one":
      return { answers: Object.fromEntries(answers.map(([id, answer]) => [id, systemOneAnswer(answer)])), usage: classifierUsage(reply) };
    case "cloudflare-run":
      // Third-party models answer inside a run record; Cloudflare's own (`@cf/…`) directly.
      if (model.startsWith("@cf/"))
        return { success: true, result: { model, answers: Object.fromEntries(answers.map(([id, answer]) => [id, systemOneAnswer(answer)])), usage: classifierUsage(reply) } };
      return {
        success: true,
        result: { state: "Completed", result: { answers: Object.fromEntries(answers.map(([id, answer]) => [id, systemOneAnswer(answer)])), usage: classifierUsage(reply) } },
      };
    case "openai-decisions":
      return { id: `dec_${seq}`, object: "decision", model, answers: answers.map(([name, answer]) => decisionsAnswer(name, answer)), usage: classifierUsage(reply) };
    case "openrouter-images": {
      const input = reply.usage?.input ?? 10;
      const output = reply.usage?.output ?? 5;
      const images = (reply.images ?? []).map((image) => ({ type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } }));
      return {
        id: `gen-${seq}`,
        object: "chat.completion",
        created: 1_700_000_000,
        model,
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: reply.text ?? null, images } }],
        usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output },
      };
    }
  }
}

/** Each format's error body for a status reply. */
export function modelsError(format: ModelsWireFormat, status: number, message: string): string {
  if (format === "cloudflare-run") return JSON.stringify({ success: false, errors: [{ code: status, message }], result: null });
  return JSON.stringify({ error: { message, code: status } });
}
