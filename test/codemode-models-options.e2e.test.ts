/**
 * Codemode's `models.classify(model, context, options)` over the built CLI against the fake LLM's
 * loopback System One route: a script's data options reach the request (its key and headers on
 * every attempt, `maxRetries` and `maxRetryDelayMs` deciding the retries of a 503), and options
 * the sandbox cannot carry (a function, a wrong type, an unknown name) reject naming the option
 * before anything is sent.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

async function start(): Promise<RpcClient> {
  const agentDir = tempDir("atomic-models-options-");
  const file = await writeModelsJson(agentDir, fake.url);
  const json = JSON.parse(readFileSync(file, "utf8")) as { providers: Record<string, unknown> };
  json.providers.typesafe = { baseUrl: `${fake.url}/typesafe/v1/`, apiKey: "session-key" };
  writeFileSync(file, JSON.stringify(json));
  const client = new RpcClient({
    agentDir,
    args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1", "--tools", "+codemode"],
    env: { TYPESAFE_API_KEY: undefined },
  });
  clients.push(client);
  return client;
}

/** Runs one codemode script as the model's tool call; what the script returned. */
async function runScript(client: RpcClient, code: string, ...replies: Parameters<typeof fake.script>): Promise<any> {
  fake.script({ toolCalls: [{ id: "cm", name: "codemode", args: { code } }] }, ...replies, { text: "done" });
  const from = client.records.length;
  await client.ok({ type: "prompt", message: "go" });
  await client.waitForEvent("agent_settled", 60_000, from);
  const end = client.records.slice(from).find((r) => r.type === "tool_execution_end" && r.toolCallId === "cm") as unknown as {
    result: { content: { type: string; text?: string }[] };
  };
  const text = end.result.content.map((block) => block.text ?? "").join("");
  return JSON.parse(text.split("Output:\n")[1]!.trim());
}

const CLASSIFY = `const jev = await models.getModelOfType("classifier", "typesafe", "jev-latest");
const context = { state: { message: "It broke again" }, questions: { urgent: { type: "bool", instructions: "Urgent?", criteria: { true: "yes", false: "no" } } } };
const outcome = async (options) => {
  try {
    const result = await models.classify(jev, context, options);
    return [result.stopReason, result.errorMessage ?? result.answers];
  } catch (error) {
    return ["threw", error.message];
  }
};`;
const answered = { answers: { urgent: { probability: 0.9 } }, usage: { input: 10, output: 0 } };
const unavailable = (headers: Record<string, string>) => ({ status: 503, headers, errorBody: '{"error":"busy"}' });
const systemOne = () => fake.requests.filter((request) => request.format === "system-one");

describe("codemode's models.classify options", () => {
  it("sends the script's key and headers on every attempt, retrying as maxRetries and maxRetryDelayMs say", async () => {
    const client = await start();
    const code = `${CLASSIFY}
return [
  await outcome({ apiKey: "script-key", headers: { "x-request-tag": "triage" }, timeoutMs: 30000, maxRetries: 1 }),
  await outcome({ maxRetries: 0 }),
  await outcome({ maxRetries: 3, maxRetryDelayMs: 1000 }),
];`;
    const out = await runScript(client, code, unavailable({ "retry-after-ms": "5" }), answered, unavailable({ "retry-after-ms": "5" }), unavailable({ "retry-after": "3" }));
    expect(out).toEqual([
      ["stop", { urgent: { type: "bool", probability: 0.9 } }],
      ["error", 'System One API error (503): {"error":"busy"}'],
      ["error", expect.stringMatching(/^Server requested 3s retry delay \(max: 1s\)\. /)],
    ]);
    const sent = systemOne();
    // One retry for the first call; none for maxRetries 0; the third refuses the server's 3 s wait.
    expect(sent).toHaveLength(4);
    expect(sent.map((request) => [request.headers.authorization, request.headers["x-request-tag"]])).toEqual([
      ["Bearer script-key", "triage"],
      ["Bearer script-key", "triage"],
      ["Bearer session-key", undefined],
      ["Bearer session-key", undefined],
    ]);
  }, 90_000);

  it("refuses a function option, a wrong type and an unknown option by name, sending nothing", async () => {
    const client = await start();
    const code = `${CLASSIFY}
return [
  await outcome({ timeoutMs: 5000, onPayload: (payload) => payload }),
  await outcome({ fetch: async () => null }),
  await outcome({ timeoutMs: "5" }),
  await outcome({ retries: 2 }),
  await outcome("fast"),
];`;
    const out = await runScript(client, code);
    expect(out).toEqual([
      ["threw", expect.stringMatching(/^models\.classify\(\) options\.onPayload cannot be given from a script: it takes a function, and functions cannot cross the sandbox/)],
      ["threw", expect.stringMatching(/^models\.classify\(\) options\.fetch cannot be given from a script/)],
      ["threw", 'models.classify() options.timeoutMs must be a positive number of milliseconds, got "5".'],
      ["threw", expect.stringMatching(/^models\.classify\(\) does not take options\.retries\. A script may give: apiKey, headers, timeoutMs, maxRetries, /)],
      ["threw", "models.classify() expects an options object as its third argument, got a string."],
    ]);
    expect(systemOne()).toHaveLength(0);
  }, 90_000);
});
