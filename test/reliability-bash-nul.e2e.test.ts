/**
 * Command output made of NUL bytes is reported, not lost (issue 26, item 10): NULs are removed
 * from what reaches the client and the model (text never holds one), and the result says how
 * many were, for the user's `bash` command and the model's `bash` tool alike. Before, `head -c
 * 1M /dev/zero` answered an empty output, `truncated: false`, and no file.
 */
import { afterEach, describe, expect, it } from "vitest";
import { writeModelsJson } from "./fake-llm/server.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const NOTE = "[1048576 NUL bytes were removed from the output: it looks like binary data. Redirect it to a file to keep it.]";
const fake = useFakeLlm();
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function start(): Promise<RpcClient> {
  const agentDir = tempDir("atomic-agent-");
  await writeModelsJson(agentDir, fake.url);
  const client = new RpcClient({ agentDir, env: NO_KEYS, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"] });
  clients.push(client);
  return client;
}

describe("NUL-only command output", () => {
  it("the user's bash command says how many NUL bytes it removed, alone or after the text", async () => {
    const c = await start();
    expect(await c.ok({ type: "bash", command: "head -c 1048576 /dev/zero" })).toMatchObject({ output: NOTE, exitCode: 0, truncated: false });
    expect(await c.ok({ type: "bash", command: "echo before; printf 'a\\0b\\n'" })).toMatchObject({
      output: "before\nab\n\n[1 NUL byte was removed from the output: it looks like binary data. Redirect it to a file to keep it.]",
    });
    expect(await c.ok({ type: "bash", command: "printf 'plain\\r\\n'" })).toMatchObject({ output: "plain\n" });
  });

  it("the model's bash tool result carries the same note", async () => {
    fake.script({ toolCalls: [{ id: "call_z", name: "bash", args: { command: "head -c 1048576 /dev/zero" } }] }, { text: "Binary." });
    const c = await start();
    const from = c.records.length;
    expect((await c.request({ type: "prompt", message: "dump zeros" })).success).toBe(true);
    await c.waitForEvent("agent_end", 20_000, from);
    const toolMessage = (fake.requests[1]!.body.messages as { role: string; content: unknown }[]).find((m) => m.role === "tool")!;
    expect(JSON.stringify(toolMessage.content)).toContain(NOTE.replace(/"/g, '\\"'));
  });
});
