import { readFile } from "node:fs/promises";
import { stat } from "node:fs/promises";
import { dirname } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssistantMessageEvent } from "../../lib/llm/index.js";
import { BASH_TOOL, bootKernel, removeDir, runStream, streamRequest, tempDir } from "../../test/fake-llm/harness.js";
import { startFakeLlm, writeModelsJson, type FakeLlm } from "../../test/fake-llm/server.js";
import anthropicPlugin from "../provider-anthropic/index.js";
import { parseCassette } from "./cassette.js";
import replayPlugin from "./index.js";
import { cassettePath, toCassetteEvent } from "./recorder.js";

let fake: FakeLlm;
let agentDir: string;

// A fresh server per test: generated tool ids count the server's requests, so no test may see another's.
beforeEach(async () => {
  fake = await startFakeLlm();
  agentDir = await tempDir();
  await writeModelsJson(agentDir, fake.url);
});
afterEach(async () => {
  await fake.close();
  await removeDir(agentDir);
});

const strip = (events: AssistantMessageEvent[]) => events.map(toCassetteEvent).filter(Boolean);

describe("--record", () => {
  it("records live provider streams into a cassette that provider-replay plays back identically", async () => {
    const recording = await bootKernel({ agentDir, plugins: [replayPlugin, anthropicPlugin], cli: { record: "session-1" } });
    const model = recording.services.get("models").find("fake-anthropic", "fake-1")!;
    fake.script(
      { thinking: "Plan", text: "Listing files", toolCalls: [{ name: "bash", args: { command: "ls" } }], splitArgs: true, usage: { input: 40, output: 12 } },
      { text: "All done." },
      { status: 529 },
    );
    const turns = [
      await runStream(recording, streamRequest(model, { tools: [BASH_TOOL], thinkingLevel: "low" })),
      await runStream(recording, streamRequest(model)),
      await runStream(recording, streamRequest(model)),
    ];
    await recording.hooks.shutdown.promise({ reason: "exit" });

    const text = await readFile(cassettePath(agentDir, "session-1"), "utf8");
    // A cassette holds the whole conversation: private like auth.json.
    expect((await stat(cassettePath(agentDir, "session-1"))).mode & 0o777).toBe(0o600);
    expect((await stat(dirname(cassettePath(agentDir, "session-1")))).mode & 0o777).toBe(0o700);
    const lines = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines[0]).toMatchObject({ type: "cassette", version: 1, name: "session-1", eventDelayMs: 0 });
    expect(lines.filter((l) => l.type === "turn")).toHaveLength(3);
    expect(text).not.toContain('"partial"');
    expect(lines).toContainEqual({ type: "toolcall_start", contentIndex: 2, id: "toolu_fake_1_0", name: "bash" });
    expect(lines).toContainEqual({ type: "done", reason: "toolUse", usage: { input: 40, output: 12, cacheRead: 0, cacheWrite: 0 } });
    expect(lines.at(-1)).toMatchObject({ type: "error", reason: "error", errorMessage: expect.stringMatching(/^529/) });
    const cassette = parseCassette("session-1", text, "recorded");
    expect(cassette.turns).toHaveLength(3);

    const replaying = await bootKernel({ agentDir, plugins: [replayPlugin], cli: { provider: "replay", model: "session-1" } });
    const replayModel = replaying.services.get("models").find("replay", "session-1")!;
    for (let i = 0; i < turns.length; i++) {
      const request = streamRequest(replayModel, { tools: [BASH_TOOL] });
      request.options.callIndex = i + 1;
      const replayed = await runStream(replaying, request);
      expect(strip(replayed.events)).toEqual(strip(turns[i]!.events));
    }
  });

  it("passes events through unchanged, same partial object", async () => {
    const kernel = await bootKernel({ agentDir, plugins: [anthropicPlugin, replayPlugin], cli: { record: "passthrough" } });
    const model = kernel.services.get("models").find("fake-anthropic", "fake-1")!;
    fake.script({ text: "Hi there" });
    const { events, snapshots } = await runStream(kernel, streamRequest(model));
    expect(new Set(events.map((e) => e.partial)).size).toBe(1);
    expect(JSON.parse(snapshots[2]!).content[0].text).toBe("Hi ");
    // The recording is written as the stream ends: finished before afterEach removes its folder.
    await kernel.hooks.shutdown.promise({ reason: "exit" });
  });
});
