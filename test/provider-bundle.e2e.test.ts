/**
 * Every SDK provider through the built CLI, over real HTTP to the fake LLM. Only the bundle runs
 * the SDKs' minified code with the web globals scripts/bundle.mjs gives them and the frame's own
 * fetch end to end, so each wire format is driven here: thinking, text and a streamed tool call
 * run as one tool-using turn, an HTTP error keeps the server's message, and a malformed record
 * mid-stream ends the answer as an error.
 */
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, tempDir, type Record_ } from "./helpers/rpc-client.js";

const fake = useFakeLlm();
const clients: RpcClient[] = [];
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const PROVIDERS = ["fake-anthropic", "fake-openai", "fake-responses", "fake-google"];

afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

async function start(provider: string): Promise<RpcClient> {
  const agentDir = tempDir();
  await writeModelsJson(agentDir, fake.url);
  const client = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--model", `${provider}/fake-1`], env: NO_KEYS });
  clients.push(client);
  return client;
}

const assistantEnds = (c: RpcClient) => c.records.filter((r) => r.type === "message_end" && (r.message as { role: string }).role === "assistant").map((r) => r.message as Record_);

describe.each(PROVIDERS)("%s through the built CLI", (provider) => {
  it("streams thinking, text and a tool call split across deltas, runs the tool and answers", async () => {
    fake.script({ thinking: "Plan it", text: "Listing.", toolCalls: [{ name: "bash", args: { command: "echo bundled-ok" } }], splitArgs: true }, { text: "Done." });
    const c = await start(provider);
    await c.request({ type: "set_thinking_level", level: "low" });
    await c.request({ type: "prompt", message: "go" });
    await c.waitFor((r) => r.type === "agent_end");
    const [first, second] = assistantEnds(c);
    expect(first).toMatchObject({ stopReason: "toolUse" });
    expect(first!.content).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: "text", text: "Listing." }),
        expect.objectContaining({ type: "toolCall", name: "bash", arguments: { command: "echo bundled-ok" } }),
      ]),
    );
    expect(second).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "Done." }] });
    const toolEnd = c.records.find((r) => r.type === "tool_execution_end")!;
    expect(JSON.stringify(toolEnd.result)).toContain("bundled-ok");
    // The deltas reassemble the arguments; every request carried the key and a JSON body.
    const argDeltas = c.records.filter((r) => r.type === "message_update" && (r.assistantMessageEvent as { type: string }).type === "toolcall_delta");
    expect(argDeltas.length).toBeGreaterThan(provider === "fake-google" ? 0 : 1);
    expect(fake.requests).toHaveLength(2);
    for (const request of fake.requests) {
      expect(String(request.headers["content-type"])).toContain("application/json");
      expect(JSON.stringify(request.headers)).toContain("test-key");
    }
  });

  it("keeps the server's message of an HTTP error", async () => {
    fake.script({ status: 400, errorMessage: "Bundled bad request 4711" });
    const c = await start(provider);
    await c.request({ type: "prompt", message: "go" });
    await c.waitFor((r) => r.type === "agent_end");
    const [end] = assistantEnds(c);
    expect(end).toMatchObject({ stopReason: "error" });
    expect(String(end!.errorMessage)).toContain("Bundled bad request 4711");
  });

  it("ends the answer as an error at a malformed record mid-stream", async () => {
    fake.script({ text: "one two three four five six", malformed: true });
    const c = await start(provider);
    await c.request({ type: "prompt", message: "go" });
    await c.waitFor((r) => r.type === "agent_end");
    expect(assistantEnds(c)[0]).toMatchObject({ stopReason: "error" });
  });
});
