/**
 * pi 1.6.0's own `RpcClient` (from the pinned @earendil-works/pi-coding-agent, which needs Node
 * >= 22.19: a Node 22 runtime is installed from the npm registry for it, or the test is skipped
 * saying why) drives every one of its methods against the built CLI, with the loopback fake LLM
 * as the model: the client a pi integrator already has works unchanged, `agent_settled` and
 * dispositions included, and `switch_session` to a forked session's not-yet-written file
 * succeeds as in pi.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { delimiter, dirname, join, resolve } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { nodeRuntime } from "../scripts/node-runtime.mjs";
import { writeModelsJson, type RecordedRequest } from "./fake-llm/server.js";
import { CLI } from "./helpers/rpc-client.js";
import { ServerProcess } from "./helpers/server.js";
import { agentTempDir, registerStopper, tempDir } from "./helpers/temp.js";
import { useFakeLlm } from "./helpers/use-fake-llm.js";
import { viaServer } from "./helpers/via-server.js";

// The package exports only "." for import: its entry, by path (a pinned dev dependency of this repository).
const PI_PKG = resolve(import.meta.dirname, "../node_modules/@earendil-works/pi-coding-agent/dist/index.js");
const SCRIPT = resolve(import.meta.dirname, "fixtures/pi-rpc-client.mjs");
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined };
const fake = useFakeLlm();

let node22: string | undefined;
let unavailable = "";
beforeAll(async () => {
  try {
    node22 = await nodeRuntime(22);
  } catch (error) {
    unavailable = (error as Error).message;
  }
}, 300_000);

type Step = { step: string; value?: any; error?: string };

/** The conversation the script has: a tool call, a planner for compact, a stalled answer to abort, echoes. */
function reply(request: RecordedRequest) {
  const messages = (request.body.messages ?? []) as { role: string; content: unknown }[];
  const text = (content: unknown) => (typeof content === "string" ? content : JSON.stringify(content));
  if (messages.some((m) => text(m.content).includes("<numbered-transcript>"))) {
    const transcript = text(messages.find((m) => m.role === "user")!.content);
    const deletions = transcript.split("\n").flatMap((line) => {
      const match = /^(\d+)\u2192filler line/.exec(line);
      return match ? [`${match[1]},${match[1]}`] : [];
    });
    return { text: deletions.join("\n") };
  }
  const last = messages.at(-1)!;
  const lastText = text(last.content);
  if (last.role === "user" && lastText.startsWith("read the notes")) return { text: "Reading them.", toolCalls: [{ id: "call_notes", name: "read", args: { path: "notes.md" } }] };
  if (last.role === "tool") return { text: "The notes say hello." };
  if (lastText.includes("stream slowly")) return { text: "one two three four five six seven eight", stall: 3 };
  return { text: `echo: ${lastText.slice(0, 40)}` };
}

function runScript(node: string, env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(node, [SCRIPT], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const closed = new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => child.once("close", (code) => done({ code, stdout, stderr })));
  const unregister = registerStopper(() => (child.exitCode === null ? (child.kill("SIGKILL"), closed) : closed));
  const timer = setTimeout(() => child.kill("SIGKILL"), 150_000);
  return closed.finally(() => {
    clearTimeout(timer);
    unregister();
  });
}

describe("pi 1.6's RpcClient against Atomic", () => {
  it("drives every one of its methods", async (ctx) => {
    if (!node22) {
      console.warn(`pi 1.6's RpcClient test skipped: no Node 22 runtime (${unavailable})`);
      ctx.skip();
      return;
    }
    const agentDir = tempDir("atomic-agent-");
    await writeModelsJson(agentDir, fake.url);
    const cwd = tempDir("atomic-cwd-");
    writeFileSync(join(cwd, "notes.md"), "hello from the notes\n");
    fake.setDefault(reply);
    // Through a server (test/pi-rpc-client.via-server.e2e.test.ts): the same client, given `--connect` as extra arguments.
    const server = viaServer() ? await ServerProcess.start({ agentDir, cwd, args: [], env: NO_KEYS }) : undefined;
    // RpcClient spawns `node <cliPath>`: the Node 22 runtime first on PATH, so Atomic runs on 22 too.
    const run = await runScript(node22, {
      ...NO_KEYS,
      PI_PKG,
      ATOMIC_CLI: CLI,
      ATOMIC_ARGS: JSON.stringify(server ? ["--connect", `unix:${server.socket}`, "--close-on-exit"] : []),
      WORK_DIR: cwd,
      ATOMIC_CODING_AGENT_DIR: agentDir,
      TMPDIR: agentTempDir(),
      PATH: `${dirname(node22)}${delimiter}${process.env.PATH ?? ""}`,
    });
    await server?.stop();
    const steps = run.stdout
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Step);
    const failed = steps.filter((s) => s.error !== undefined);
    expect(failed, run.stderr).toEqual([]);
    expect(run.code).toBe(0);
    const value = (name: string) => {
      const found = steps.find((s) => s.step === name);
      if (!found) throw new Error(`step ${name} did not run; stderr:\n${run.stderr}`);
      return found.value;
    };

    // Every public method of the client ran (a new one in a later pi shows up here).
    const { all, called } = value("methods") as { all: string[]; called: string[] };
    expect(all.length).toBeGreaterThanOrEqual(38);
    expect(called).toEqual(all);

    expect(value("getState")).toMatchObject({ model: { provider: "fake-openai", id: "fake-1" }, thinkingLevel: "medium", isStreaming: false, sessionId: expect.any(String) });
    const providers = (value("getAvailableModels") as { provider: string }[]).map((m) => m.provider);
    expect(providers).toEqual(expect.arrayContaining(["fake-openai", "fake-anthropic"]));
    expect(providers).not.toContain("replay");
    expect(value("getAvailableThinkingLevels")).toEqual(["off", "minimal", "low", "medium", "high"]);
    expect(value("cycleThinkingLevel")).toEqual({ level: "off" });
    expect(value("cycleModel")).toMatchObject({ isScoped: false, model: { id: "fake-1" } });
    expect(value("setModel")).toMatchObject({ provider: "fake-openai", id: "fake-1" });

    const prompted = value("promptAndWait");
    expect(prompted.types.slice(0, 2)).toEqual(["agent_start", "turn_start"]);
    expect(prompted.types.slice(-2)).toEqual(["agent_end", "agent_settled"]);
    expect(prompted.toolEnd).toMatchObject({ toolCallId: "call_notes", toolName: "read", isError: false, durationMs: expect.any(Number) });
    expect(JSON.stringify(prompted.toolEnd.result)).toContain("hello from the notes");
    expect(prompted.update.usage).toMatchObject({ input: expect.any(Number), output: expect.any(Number), totalTokens: expect.any(Number) });
    expect(value("getLastAssistantText")).toBe("The notes say hello.");
    expect(value("getMessages")).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(value("collectEvents")).toMatchObject({ disposition: "started", types: expect.arrayContaining(["agent_start", "agent_end"]) });

    expect(value("streamingControls")).toEqual({
      started: "started",
      steered: "queued",
      followed: "queued",
      queued: "queued",
      cleared: { steering: ["steer text"], followUp: ["follow text", "queued prompt"] },
      settled: { type: "agent_settled", aborted: true },
    });

    expect(value("bash")).toMatchObject({ output: "from-bash\n", exitCode: 0, cancelled: false, truncated: false });
    expect(value("compact")).toEqual(expect.arrayContaining(["firstKeptEntryId", "tokensBefore"]));
    expect(value("getSessionStats")).toMatchObject({ sessionId: expect.any(String), userMessages: expect.any(Number), tokens: { total: expect.any(Number) } });
    expect(value("exportHtml")).toEqual({ path: join(cwd, "session.html") });
    expect((value("getCommands") as { name: string }[]).map((command) => command.name)).toEqual(["llama", "mcp"]);
    const forkable = value("getForkMessages") as { entryId: string; text: string }[];
    expect(forkable[0]!.text).toMatch(/^read the notes/);
    expect(value("getEntries").entries.length).toBeGreaterThan(5);
    expect(value("getEntriesSince").entries).toHaveLength(value("getEntries").entries.length - 1);
    expect(value("getTree")).toMatchObject({ roots: 1, leafId: value("getEntries").leafId });
    expect(value("clone")).toEqual({ cancelled: false });
    expect(value("fork")).toEqual({ text: forkable[0]!.text, cancelled: false });
    // The fork at the first message has no entry yet, so no file: pi opens such a path as a new session.
    const forked = value("getStateAfterFork");
    expect(forked).toMatchObject({ messageCount: 0, sessionFile: expect.any(String) });
    expect(value("switchSession")).toEqual({ cancelled: false });
    expect(value("getStateAfterSwitch")).toMatchObject({ messageCount: 0, sessionFile: forked.sessionFile });
    expect(value("newSession")).toEqual({ cancelled: false });
    expect(value("getStderr")).toBe("string");

    const events = value("events") as { type: string; level?: string; name?: string; aborted?: boolean }[];
    expect(events.filter((e) => e.type === "thinking_level_changed")).toEqual([
      { type: "thinking_level_changed", level: "high" },
      { type: "thinking_level_changed", level: "off" },
    ]);
    expect(events.filter((e) => e.type === "session_info_changed")).toEqual([{ type: "session_info_changed", name: "pi client run" }]);
    expect(events.filter((e) => e.type === "agent_settled")).toEqual([
      { type: "agent_settled", aborted: false },
      { type: "agent_settled", aborted: false },
      { type: "agent_settled", aborted: true },
    ]);
  }, 240_000);
});
