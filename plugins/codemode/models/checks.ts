/**
 * A script's arguments to `models.*` checked before anything is sent, so a mistake fails with the
 * shape that was expected (pi's messages) instead of a provider's error.
 */
import { MODEL_TYPES, type ClassifierContext, type ImagesContext, type ModelType } from "../../../lib/typed-models/types.js";

/** Where scripts read about the `models` global (pi's doc, installed with pi). */
export const MODELS_DOC = "docs/codemode.md";

export function toModelType(value: unknown): ModelType {
  if ((MODEL_TYPES as readonly unknown[]).includes(value)) return value as ModelType;
  throw new Error(`Unknown model type ${JSON.stringify(value) ?? String(value)}. Use "chat", "image", or "classifier".`);
}

export function toProvider(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new Error("provider must be a string");
  return value;
}

/** `an image`, `a classifier`. */
export function withArticle(word: string): string {
  return `${/^[aeiou]/.test(word) ? "an" : "a"} ${word}`;
}

/** A script value in an error message: `undefined`, `a string`, `an array`, or its keys (`{ prompt }`). */
export function describeValue(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (Array.isArray(value)) return value.length === 0 ? "an empty array" : "an array";
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 0) return "{}";
    return `{ ${keys.slice(0, 6).join(", ")}${keys.length > 6 ? ", ..." : ""} }`;
  }
  return typeof value === "string" ? "a string" : `a ${typeof value}`;
}

const CLASSIFIER_SHAPE =
  '{ state: { ... }, images?: [{ type: "image", data: <base64>, mimeType }], questions: { <id>: { type: "choice", instructions, criteria: { <label>: <meaning> } } | { type: "score", instructions, criteria: [<lowest level>, ..., <highest level>] } | { type: "bool", instructions, criteria: { true: <meaning>, false: <meaning> } } } }';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isStrings = (values: unknown[]) => values.length > 0 && values.every((value) => typeof value === "string");

export function checkClassifierContext(context: unknown): ClassifierContext {
  const fail = (problem: string) => new Error(`models.classify() ${problem}. Expected context: ${CLASSIFIER_SHAPE}. See "Classify" in ${MODELS_DOC}.`);
  if (!isObject(context)) throw fail(`expects a context object as its second argument, got ${describeValue(context)}`);
  const { state, images, questions } = context;
  if (!isObject(state)) throw fail(`context.state must be an object, got ${describeValue(state)}`);
  if (images !== undefined) {
    if (!Array.isArray(images)) throw fail(`context.images must be an array, got ${describeValue(images)}`);
    images.forEach((image: { type?: unknown; data?: unknown; mimeType?: unknown } | null, index) => {
      if (image?.type !== "image" || typeof image.data !== "string" || typeof image.mimeType !== "string")
        throw fail(`context.images[${index}] must be an image block, got ${describeValue(image)}`);
    });
  }
  if (!isObject(questions) || Object.keys(questions).length === 0) throw fail(`context.questions must map question IDs to questions, got ${describeValue(questions)}`);
  for (const [id, question] of Object.entries(questions)) {
    const at = `context.questions.${id}`;
    if (!isObject(question)) throw fail(`${at} must be a question object, got ${describeValue(question)}`);
    const { type, instructions, criteria } = question;
    if (typeof instructions !== "string") throw fail(`${at}.instructions must be a string`);
    if (type === "choice") {
      if (!isObject(criteria) || !isStrings(Object.values(criteria))) throw fail(`${at} is a "choice" question, so criteria must map each label to its meaning`);
    } else if (type === "score") {
      if (!Array.isArray(criteria) || !isStrings(criteria)) throw fail(`${at} is a "score" question, so criteria must list the levels as strings, lowest first`);
    } else if (type === "bool") {
      const labels = criteria as { true?: unknown; false?: unknown } | undefined;
      if (typeof labels?.true !== "string" || typeof labels.false !== "string") throw fail(`${at} is a "bool" question, so criteria must be { true: string, false: string }`);
    } else {
      throw fail(`${at}.type must be "choice", "score", or "bool", got ${JSON.stringify(type) ?? "undefined"}`);
    }
  }
  return context as unknown as ClassifierContext;
}

export function checkImagesContext(context: unknown): ImagesContext {
  const fail = (problem: string) =>
    new Error(
      `models.generateImages() ${problem}. Expected context: { input: [{ type: "text", text: <prompt> }, ...optional { type: "image", data: <base64>, mimeType } references] }. See "Generate images" in ${MODELS_DOC}.`,
    );
  if (!isObject(context)) throw fail(`expects a context object as its second argument, got ${describeValue(context)}`);
  const { input } = context;
  if (!Array.isArray(input) || input.length === 0) throw fail(`context.input must be a non-empty array of blocks, got ${describeValue(input)}`);
  input.forEach((block: { type?: unknown; text?: unknown; data?: unknown; mimeType?: unknown } | null, index) => {
    if (block?.type === "text" && typeof block.text === "string") return;
    if (block?.type === "image" && typeof block.data === "string" && typeof block.mimeType === "string") return;
    throw fail(`context.input[${index}] must be a text or image block, got ${describeValue(block)}`);
  });
  return context as unknown as ImagesContext;
}
