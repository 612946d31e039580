/**
 * Codemode's `models` global over the built CLI, replaying the three `models` examples of pi 1.6's
 * docs/codemode.md against the fake LLM's loopback routes: TypeSafe's System One classifier
 * (`typesafe/jev-latest`, sentiment and urgency of several messages at once), OpenAI's Decisions
 * API with an image a tool read (`openai/gpt-6-luna`), and OpenRouter's image generation shown with
 * image(). Each request is checked as pi sends it (path, key, body); answers, usage and the call
 * rows come back to the script and the result, and the usage counts in the session's totals. Also: listing, and the clear errors for a chat
 * model, an unknown model and a provider's failure (a result, not a throw).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson, type RecordedRequest } from "./fake-llm/server.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";
import { PAINTER_EXAMPLE, PNG, SCREENSHOT_EXAMPLE, SENTIMENT_EXAMPLE } from "./fixtures/codemode/models-doc-examples.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A 1x1 PNG. */
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, OPENROUTER_API_KEY: undefined, TYPESAFE_API_KEY: undefined, GEMINI_API_KEY: undefined };

async function start(env: Record<string, string | undefined> = {}): Promise<RpcClient> {
  const agentDir = tempDir("atomic-models-");
  const file = await writeModelsJson(agentDir, fake.url);
  const json = JSON.parse(readFileSync(file, "utf8")) as { providers: Record<string, unknown> };
  // pi's way to point a provider elsewhere: its base URL in models.json, classifiers and image models included.
  json.providers.typesafe = { baseUrl: `${fake.url}/typesafe/v1/`, apiKey: "typesafe-key" };
  json.providers.openai = { baseUrl: `${fake.url}/openai/v1`, apiKey: "openai-key" };
  json.providers.openrouter = { baseUrl: `${fake.url}/openrouter/api/v1`, apiKey: "openrouter-key" };
  writeFileSync(file, JSON.stringify(json));
  const client = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", "--tools", "+codemode"], env: { ...NO_KEYS, ...env } });
  clients.push(client);
  return client;
}

/** Runs one codemode script as the model's tool call; the tool_execution_end record of it. */
async function runScript(
  client: RpcClient,
  code: string,
  ...replies: Parameters<typeof fake.script>
): Promise<{ result: { content: any[]; details: any; usage?: any; isError?: boolean } }> {
  fake.script({ toolCalls: [{ id: "cm", name: "codemode", args: { code } }] }, ...replies, { text: "done" });
  const from = client.records.length;
  await client.ok({ type: "prompt", message: "go" });
  await client.waitForEvent("agent_settled", 60_000, from);
  return client.records.slice(from).find((r) => r.type === "tool_execution_end" && r.toolCallId === "cm") as never;
}

const textOf = (result: { content: any[] }) =>
  result.content
    .filter((block) => block.type === "text")
    .map((block) => block.text)
    .join("");
const scriptOutput = (result: { content: any[] }) => textOf(result).split("Output:\n")[1]!.trim();
const modelsRequests = (format: string): RecordedRequest[] => fake.requests.filter((request) => request.format === format);

describe("codemode's models global (pi 1.6 docs/codemode.md, Models)", () => {
  it("classifies several messages at once with TypeSafe's System One (the doc's first example)", async () => {
    const client = await start();
    const messages = ["I love it", "It broke again, fix it now", "It arrived", "Meh", "Refund me today", "Great support"];
    const code = `const messages = ${JSON.stringify(messages)};\n${SENTIMENT_EXAMPLE}`;
    const verdict = (message: string) => (/love|Great/.test(message) ? "positive" : /broke|Refund/.test(message) ? "negative" : "neutral");
    const answer = (request: RecordedRequest) => {
      const message = String(request.body.state.message);
      const choice = verdict(message);
      return {
        answers: {
          sentiment: { choice, probabilities: { positive: 0.1, negative: 0.1, neutral: 0.1, [choice]: 0.8 }, confidence: 0.8 },
          urgency: { score: choice === "negative" ? 2 : 0.25, confidence: 0.7 },
        },
        usage: { input: 100, output: 0 },
      };
    };
    const { result } = await runScript(client, code, ...messages.map(() => answer));
    expect(result.isError).toBeUndefined();
    expect(JSON.parse(scriptOutput(result))).toEqual(messages.map((message) => ({ message, sentiment: verdict(message), urgency: verdict(message) === "negative" ? 2 : 0.25 })));

    const sent = modelsRequests("system-one");
    expect(sent).toHaveLength(messages.length);
    for (const request of sent) {
      expect(request.path).toBe("/typesafe/v1/systemone");
      expect(request.headers.authorization).toBe("Bearer typesafe-key");
      expect(request.headers["typesafe-danger-zone-images"]).toBeUndefined();
      expect(request.body).toEqual({
        model: "jev-latest",
        state: { message: expect.any(String) },
        questions: {
          sentiment: {
            type: "choice",
            instructions: "How does the user feel about the product?",
            criteria: { positive: "Satisfied or happy", negative: "Unhappy or frustrated", neutral: "Neither" },
          },
          urgency: { type: "score", instructions: "How urgently does this need a reply?", criteria: ["no reply needed", "reply this week", "reply today"] },
        },
      });
    }
    expect(sent.map((request) => request.body.state.message).sort()).toEqual([...messages].sort());
    // One row per call; usage summed on the result (TypeSafe's direct Jev has no price: tokens at no cost).
    const rows = result.details.calls.filter((call: { name: string }) => call.name === "models.classify");
    expect(rows).toHaveLength(messages.length);
    expect(rows.every((row: { status: string; args: string }) => row.status === "ok" && row.args === "typesafe/jev-latest")).toBe(true);
    expect(result.usage).toEqual({ input: 600, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 600, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } });
    // `tokens` stays the two LLM calls' (10 input, 5 output each): the protocol defines it as assistant usage (pi adds the script's).
    const stats = await client.ok({ type: "get_session_stats" });
    expect(stats.tokens).toMatchObject({ input: 20, output: 10 });
  }, 90_000);

  it("classifies an image a tool read with OpenAI's Decisions API (the doc's second example)", async () => {
    const client = await start();
    writeFileSync(join(client.cwd, "screenshot.png"), Buffer.from(PNG, "base64"));
    const code = SCREENSHOT_EXAMPLE;
    const { result } = await runScript(client, code, { answers: { broken: { probability: 0.9 } }, usage: { input: 1000, output: 0 } });
    expect(JSON.parse(scriptOutput(result))).toEqual({
      api: "openai-decisions",
      provider: "openai",
      model: "gpt-6-luna",
      answers: { broken: { type: "bool", probability: 0.9 } },
      stopReason: "stop",
      timestamp: expect.any(Number),
      usage: {
        input: 1000,
        output: 0,
        cacheRead: 0,
        cacheWrite: 0,
        totalTokens: 1000,
        cost: { input: 0.0001, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.0001, totalFromProvider: false },
      },
    });
    const [request] = modelsRequests("openai-decisions");
    expect(request!.path).toBe("/openai/v1/decisions");
    expect(request!.headers.authorization).toBe("Bearer openai-key");
    const image = request!.body.input[0].content[1];
    expect(request!.body).toEqual({
      model: "gpt-6-luna",
      input: [
        {
          role: "user",
          content: [
            { type: "input_text", text: '{"task":"Settings page redesign"}' },
            { type: "input_image", image_url: expect.stringMatching(/^data:image\/png;base64,/) },
          ],
        },
      ],
      questions: [
        {
          type: "predicate",
          name: "broken",
          instructions: "Does the screenshot show a broken layout?\n\nTrue means: Overlapping, cut-off, or misaligned elements\nFalse means: Clean layout",
        },
      ],
    });
    expect(image.image_url.length).toBeGreaterThan("data:image/png;base64,".length);
  }, 90_000);

  it("generates images with OpenRouter and shows them with image() (the doc's third example)", async () => {
    const client = await start();
    const code = PAINTER_EXAMPLE;
    const { result } = await runScript(client, code, { text: "Here is your fox.", images: [{ mimeType: "image/png", data: PNG }], usage: { input: 10, output: 1290 } });
    expect(result.isError).toBeUndefined();
    expect(textOf(result)).toContain("Here is your fox.");
    expect(result.content.filter((block) => block.type === "image")).toEqual([{ type: "image", data: PNG, mimeType: "image/png" }]);
    const [request] = modelsRequests("openrouter-images");
    expect(request!.path).toBe("/openrouter/api/v1/chat/completions");
    expect(request!.headers.authorization).toBe("Bearer openrouter-key");
    expect(request!.body).toEqual({
      model: "google/gemini-2.5-flash-image",
      messages: [{ role: "user", content: [{ type: "text", text: "A red fox in the snow, watercolor" }] }],
      stream: false,
      modalities: ["image", "text"],
    });
    // $0.30 / $2.50 per million input / output tokens, on the result and in the session's cost.
    const cost = (10 * 0.3 + 1290 * 2.5) / 1e6;
    expect(result.usage.cost.total).toBeCloseTo(cost, 12);
    const stats = await client.ok({ type: "get_session_stats" });
    expect(stats.cost).toBeCloseTo(cost + 2 * ((10 * 3 + 5 * 15) / 1e6), 12);
    const message = client.records.find((r) => r.type === "message_end" && (r.message as { role: string }).role === "toolResult")!.message as { usage: unknown };
    expect(message.usage).toEqual(result.usage);
    expect(result.details.calls).toEqual([expect.objectContaining({ name: "models.generateImages", args: "openrouter/google/gemini-2.5-flash-image", status: "ok" })]);
  }, 90_000);

  it("lists models by type and credentials; chat and unknown models are clear errors; a provider's failure is a result", async () => {
    const client = await start();
    const code = `const classifiers = await models.getModelsOfType("classifier");
const available = await models.getAvailableOfType("classifier");
const chat = await models.getAvailableOfType("chat", "fake-openai");
const images = await models.getModelsOfType("image", "openrouter");
const errors = [];
for (const call of [
  () => models.classify({ provider: "fake-openai", id: "fake-1" }, { state: {}, questions: { q: { type: "bool", instructions: "?", criteria: { true: "y", false: "n" } } } }),
  () => models.classify({ provider: "typesafe", id: "no-such" }, { state: {}, questions: {} }),
  () => models.generateImages({ provider: "typesafe", id: "jev-latest" }, { input: [] }),
  () => models.classify({ provider: "typesafe", id: "jev-latest" }, { state: "text", questions: {} }),
]) {
  try { await call(); } catch (error) { errors.push(error.message); }
}
const failed = await models.classify({ provider: "typesafe", id: "jev-latest" }, { state: { a: 1 }, questions: { q: { type: "bool", instructions: "?", criteria: { true: "y", false: "n" } } } });
return {
  typesafe: classifiers.filter((m) => m.provider === "typesafe").map((m) => [m.type, m.id, m.api, m.input]),
  availableProviders: [...new Set(available.map((m) => m.provider))].sort(),
  chat: chat.map((m) => [m.type, m.provider, m.id]),
  fox: images.some((m) => m.id === "google/gemini-2.5-flash-image" && m.type === "image"),
  errors,
  failed: [failed.stopReason, failed.errorMessage, Object.keys(failed.answers).length],
};`;
    const { result } = await runScript(client, code, { status: 401, errorBody: '{"error":"bad key"}' });
    const out = JSON.parse(scriptOutput(result));
    expect(out.typesafe).toEqual([["classifier", "jev-latest", "typesafe-system-one", ["text", "image"]]]);
    // Keys from models.json: typesafe, openai, openrouter (GitHub Copilot, Vercel, OpenCode, Workers AI have none here).
    expect(out.availableProviders).toEqual(["openai", "openrouter", "typesafe"]);
    expect(out.chat).toEqual([["chat", "fake-openai", "fake-1"]]);
    expect(out.fox).toBe(true);
    expect(out.errors).toEqual([
      '"fake-openai/fake-1" is a chat model, not a classifier model: chat models cannot be run from scripts. List the classifier models you can use with models.getAvailableOfType("classifier").',
      'Unknown classifier model "typesafe/no-such". List the classifier models you can use with models.getAvailableOfType("classifier").',
      '"typesafe/jev-latest" is a classifier model, not an image model. List the image models you can use with models.getAvailableOfType("image").',
      expect.stringMatching(/^models\.classify\(\) context\.state must be an object, got a string\. Expected context: /),
    ]);
    expect(out.failed).toEqual(["error", 'System One API error (401): {"error":"bad key"}', 0]);
    expect(result.details.calls.at(-1)).toMatchObject({ name: "models.classify", status: "error", error: 'System One API error (401): {"error":"bad key"}' });
  }, 90_000);
});
