/**
 * pi 1.6's three `models` examples (docs/codemode.md: classify feedback messages with TypeSafe's
 * Jev, classify a screenshot with GPT-6 Luna, generate an image with OpenRouter) run through pi
 * (its RPC mode, in a Node 22 child) and through Atomic against the same fake LLM: each classifier
 * and image request is the same on the wire (path, key, body), and so are the codemode results
 * (text, call rows) and their usage (the result's `usage`).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { usePiNode } from "./helpers/pi-corpus.js";
import type { RecordedRequest } from "./fake-llm/server.js";
import { NODE } from "./helpers/node.js";
import { converse, type ConversationRecord } from "./helpers/pi-side-by-side.js";
import { tempDir } from "./helpers/rpc-client.js";
import { PAINTER_EXAMPLE, PNG, SCREENSHOT_EXAMPLE, SENTIMENT_EXAMPLE } from "./fixtures/codemode/models-doc-examples.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const piNode = usePiNode();

const MESSAGES = ["I love it", "It broke again, fix it now", "It arrived", "Refund me today"];

const SCRIPTS = [
  `const messages = ${JSON.stringify(MESSAGES)};
${SENTIMENT_EXAMPLE}`,
  SCREENSHOT_EXAMPLE,
  PAINTER_EXAMPLE,
  // A provider's failure is a result; a chat model and an unknown one are errors.
  `const failed = await models.classify({ provider: "typesafe", id: "jev-latest" }, { state: { a: 1 }, questions: { q: { type: "bool", instructions: "?", criteria: { true: "y", false: "n" } } } });
let unknown;
try { await models.classify({ provider: "typesafe", id: "no-such" }, { state: {}, questions: {} }); } catch (error) { unknown = error.message; }
const entries = [await models.getModelOfType("classifier", "openai", "gpt-6-luna"), await models.getModelOfType("image", "openrouter", "google/gemini-2.5-flash-image"), await models.getModelOfType("image", "openrouter", "nothing")];
return [failed.stopReason, failed.errorMessage, unknown, (await models.getModelsOfType("classifier", "typesafe")).map((m) => [m.id, m.api, m.input]), entries];`,
];

const sentiment = (message: string) => (/love/.test(message) ? "positive" : /broke|Refund/.test(message) ? "negative" : "neutral");
const classifierReply = (request: RecordedRequest) => {
  const choice = sentiment(String(request.body.state.message));
  return {
    answers: {
      sentiment: { choice, probabilities: { positive: 0.1, negative: 0.1, neutral: 0.1, [choice]: 0.8 }, confidence: 0.8 },
      urgency: { score: choice === "negative" ? 2 : 0.25, confidence: 0.7 },
    },
    usage: { input: 100, output: 0 },
  };
};

const TEMP_FILE = /\/[^\s()"]*?(pi|atomic)-codemode[^\s()"]*/g;

/** The codemode results without what differs by run (wall time, durations, temp files) or where usage is kept. */
function results(record: ConversationRecord) {
  return record.toolResults.flatMap((result, i) => {
    if (result.toolName !== "codemode") return [];
    const details = JSON.parse(
      JSON.stringify(record.toolDetails[i] ?? null)
        .replace(/"durationMs":[\d.e+-]+/g, '"durationMs":"<ms>"')
        .replace(TEMP_FILE, "<temp file>"),
    ) as { calls: { id: string }[] };
    // pi's usage also says its cost is its own reckoning (\`totalFromProvider\`); Atomic's Usage has no such field.
    const usage = JSON.parse(JSON.stringify(record.toolUsage[i] ?? null).replace(/,"totalFromProvider":false/g, ""));
    // Parallel calls finish in any order; their rows are compared as a set.
    details.calls.sort((a, b) => a.id.localeCompare(b.id));
    const text = result.text
      .replace(/Wall time \d+\.\d seconds/g, "Wall time X seconds")
      .replace(TEMP_FILE, "<temp file>")
      .replace(/"timestamp":\d+/g, '"timestamp":"<ms>"');
    return [{ text, isError: result.isError, details, usage }];
  });
}

/** The classifier and image requests, each as it was sent (bodies by their state, as they arrive in any order). */
function modelsRequests(record: ConversationRecord) {
  return record.requests
    .filter((request) => request.format !== "openai-chat")
    .map((request) => ({ format: request.format, path: request.path, authorization: request.headers.authorization, body: request.body }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}

describe("codemode's models global: pi 1.6 and Atomic send and return the same", () => {
  it("the doc's three examples and the error cases", async () => {
    if (!piNode.node22) return console.log(`skipped: ${piNode.skipReason}`);
    const folder = tempDir("codemode-models-");
    writeFileSync(join(folder, "noop.js"), "export default function () {}\n");
    const conversation = {
      folder: join(folder, "noop.js"),
      args: ["--tools", "+codemode"],
      prompts: ["Run the scripts."],
      projectFiles: { "screenshot.png": Buffer.from(PNG, "base64") },
      providers: {
        typesafe: { baseUrl: `${fake.url}/typesafe/v1/`, apiKey: "typesafe-key" },
        openai: { baseUrl: `${fake.url}/openai/v1`, apiKey: "openai-key" },
        openrouter: { baseUrl: `${fake.url}/openrouter/api/v1`, apiKey: "openrouter-key" },
      },
      replies: [
        { toolCalls: [{ id: "call_1", name: "codemode", args: { code: SCRIPTS[0] } }] },
        ...MESSAGES.map(() => classifierReply),
        { toolCalls: [{ id: "call_2", name: "codemode", args: { code: SCRIPTS[1] } }] },
        { answers: { broken: { probability: 0.9 } }, usage: { input: 1000, output: 0 } },
        { toolCalls: [{ id: "call_3", name: "codemode", args: { code: SCRIPTS[2] } }] },
        { text: "Here is your fox.", images: [{ mimeType: "image/png", data: PNG }], usage: { input: 10, output: 1290 } },
        { toolCalls: [{ id: "call_4", name: "codemode", args: { code: SCRIPTS[3] } }] },
        { status: 401, errorBody: '{"error":"bad key"}' },
        { text: "All done." },
      ],
    };
    const pi = await converse("pi", piNode.node22, fake, conversation);
    const atomic = await converse("atomic", NODE, fake, conversation);
    const expected = results(pi);
    expect(expected).toHaveLength(SCRIPTS.length);
    expect(results(atomic)).toEqual(expected);
    expect(modelsRequests(atomic)).toEqual(modelsRequests(pi));
    expect(modelsRequests(pi).map((request) => request.format)).toEqual(expect.arrayContaining(["system-one", "openai-decisions", "openrouter-images"]));
  }, 180_000);
});
