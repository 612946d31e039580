/**
 * OpenAI's Decisions API as pi 1.6 speaks it: `POST <base>/decisions` with `{ model, input,
 * questions }`. The state goes as JSON text; with images, one user message of `input_text` and
 * `input_image` data URLs. `choice` questions list their choices, `score` ones their levels, and
 * `bool` ones are predicates whose meanings of true and false follow the instructions.
 */
import { isRecord, requiredNumber } from "./wire-common.js";
import { DECISIONS_API, type ClassifierAnswer, type ClassifierContext, type ClassifierQuestion } from "./types.js";

export { DECISIONS_API };
export const DECISIONS_LABEL = "OpenAI Decisions";
/** The endpoint takes at most this many image parts per request. */
const MAX_IMAGES = 128;

function wireQuestion(name: string, question: ClassifierQuestion): Record<string, unknown> {
  if (question.type === "choice") {
    const choices = Object.entries(question.criteria).map(([value, description]) => (description ? { value, description } : { value }));
    return { type: "choice", name, instructions: question.instructions, choices };
  }
  if (question.type === "score") return { type: "score", name, instructions: question.instructions, levels: question.criteria.map((label) => ({ label })) };
  const meanings = [question.criteria.true ? `True means: ${question.criteria.true}` : "", question.criteria.false ? `False means: ${question.criteria.false}` : ""].filter(
    Boolean,
  );
  return { type: "predicate", name, instructions: meanings.length > 0 ? `${question.instructions}\n\n${meanings.join("\n")}` : question.instructions };
}

export function decisionsRequest(modelId: string, context: ClassifierContext): Record<string, unknown> {
  const state = JSON.stringify(context.state);
  const images = context.images ?? [];
  if (images.length > MAX_IMAGES) throw new Error(`${DECISIONS_LABEL} accepts at most ${MAX_IMAGES} images, got ${images.length}`);
  const input =
    images.length === 0
      ? state
      : [
          {
            role: "user",
            content: [{ type: "input_text", text: state }, ...images.map((image) => ({ type: "input_image", image_url: `data:${image.mimeType};base64,${image.data}` }))],
          },
        ];
  return { model: modelId, input, questions: Object.entries(context.questions).map(([id, question]) => wireQuestion(id, question)) };
}

export function decisionsAnswers(value: unknown, context: ClassifierContext): Record<string, ClassifierAnswer> {
  if (!Array.isArray(value)) throw new Error(`${DECISIONS_LABEL} returned an unexpected response`);
  const byName = new Map<string, Record<string, unknown>>();
  for (const answer of value) if (isRecord(answer) && typeof answer.name === "string") byName.set(answer.name, answer);
  const answers: Record<string, ClassifierAnswer> = {};
  for (const [id, question] of Object.entries(context.questions)) {
    const answer = byName.get(id);
    if (!answer) throw new Error(`${DECISIONS_LABEL} did not return an answer for ${id}`);
    answers[id] = parseAnswer(id, question, answer);
  }
  return answers;
}

function parseAnswer(id: string, question: ClassifierQuestion, answer: Record<string, unknown>): ClassifierAnswer {
  const L = DECISIONS_LABEL;
  if (answer.type === "refusal") throw new Error(`${L} refused to answer ${id}`);
  if (question.type === "choice") {
    if (answer.type !== "choice" || typeof answer.choice !== "string") throw new Error(`${L} did not return a choice answer for ${id}`);
    return {
      type: "choice",
      choice: answer.choice,
      probabilities: choiceProbabilities(answer.probabilities, id),
      confidence: requiredNumber(L, answer.confidence, `confidence for ${id}`),
    };
  }
  if (question.type === "score") {
    if (answer.type !== "score") throw new Error(`${L} did not return a score answer for ${id}`);
    return { type: "score", score: requiredNumber(L, answer.score, `score for ${id}`), confidence: requiredNumber(L, answer.confidence, `confidence for ${id}`) };
  }
  if (answer.type !== "predicate") throw new Error(`${L} did not return a predicate answer for ${id}`);
  return { type: "bool", probability: requiredNumber(L, answer.probability, `probability for ${id}`) };
}

function choiceProbabilities(value: unknown, id: string): Record<string, number> {
  if (!Array.isArray(value)) throw new Error(`${DECISIONS_LABEL} returned invalid probabilities for ${id}`);
  return Object.fromEntries(
    value.map((entry) => {
      if (!isRecord(entry) || typeof entry.value !== "string") throw new Error(`${DECISIONS_LABEL} returned invalid probabilities for ${id}`);
      return [entry.value, requiredNumber(DECISIONS_LABEL, entry.probability, `probability for ${id}.${entry.value}`)];
    }),
  );
}

/** A gateway timeout (504) comes back for very large inputs; retrying the same input meets it again. */
export function decisionsErrorText(status: number | undefined, fallback: string): string {
  return status === 504
    ? `${DECISIONS_LABEL} error (504): the request timed out at the gateway. Very large inputs (above roughly 600K tokens) currently exceed its time limit.`
    : fallback;
}
