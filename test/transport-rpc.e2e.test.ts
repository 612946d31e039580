/** Framing, envelope and lifecycle of the RPC transport, over the built CLI's real stdin/stdout. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir, textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";
import { viaServer } from "./helpers/via-server.js";

const clients: RpcClient[] = [];
function start(options: ConstructorParameters<typeof RpcClient>[0] = {}): RpcClient {
  const client = new RpcClient(options);
  clients.push(client);
  return client;
}
afterEach(() => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
});

function replayArgs(model: string) {
  return ["--mode", "rpc", "--provider", "replay", "--model", model, "--no-session"];
}

describe("framing", () => {
  it("answers parse errors, unknown commands and bad fields with exact envelopes", async () => {
    const c = start();
    c.write(
      'not json\n\n{"type":"nope","id":7}\n{"type":"nope","id":"s"}\n[1,2]\n{"id":"q"}\n{"type":"prompt","id":3}\n{"type":"prompt","message":"x","images":[{"type":"image","data":1,"mimeType":"image/png"}],"id":4}\n{"type":"get_state"}\n',
    );
    await c.waitFor((r) => r.command === "get_state");
    const responses = c.records.filter((r) => r.type === "response");
    expect(responses.slice(0, 2).map((r) => [r.command, r.success, "id" in r])).toEqual([
      ["parse", false, false],
      ["parse", false, false],
    ]);
    expect(String(responses[0]!.error)).toMatch(/^Failed to parse command: /);
    expect(responses[2]).toEqual({ id: 7, type: "response", command: "nope", success: false, error: "Unknown command: nope" });
    expect(responses[3]).toEqual({ id: "s", type: "response", command: "nope", success: false, error: "Unknown command: nope" });
    expect(responses[4]).toEqual({ type: "response", command: "unknown", success: false, error: 'Invalid command: expected a JSON object with a string "type"' });
    expect(responses[5]).toEqual({ id: "q", type: "response", command: "unknown", success: false, error: 'Invalid command: expected a JSON object with a string "type"' });
    expect(responses[6]).toEqual({ id: 3, type: "response", command: "prompt", success: false, error: "Invalid message: expected string" });
    expect(responses[7]).toMatchObject({ id: 4, success: false, error: "Invalid images.0.data: expected string" });
    expect(responses[8]).toMatchObject({ command: "get_state", success: true });
    expect("id" in responses[8]!).toBe(false);
  });

  it("tools are not commands and context_compact is unknown", async () => {
    const c = start();
    expect(await c.request({ type: "write", path: "x", content: "y" }, undefined, { unchecked: true })).toMatchObject({ success: false, error: "Unknown command: write" });
    expect(await c.request({ type: "context_compact" }, undefined, { unchecked: true })).toMatchObject({ success: false, error: "Unknown command: context_compact" });
  });

  it("strips one CR, keeps U+2028/U+2029 inside strings, and reassembles byte-split UTF-8", async () => {
    const agentDir = tempDir();
    writeCassette(agentDir, "echo", [textTurn("ok")]);
    const c = start({ agentDir, args: replayArgs("echo") });
    // A byte order mark first (.NET's writers add one): not part of the record.
    c.child.stdin.write(Buffer.from([0xef, 0xbb, 0xbf]));
    c.write('{"type":"get_state","id":"crlf"}\r\n');
    expect(await c.waitFor((r) => r.id === "crlf")).toMatchObject({ success: true });
    const text = "line\u2028sep\u2029para — ünïcödé 🎉";
    const bytes = Buffer.from(JSON.stringify({ type: "prompt", id: "u", message: text }) + "\n");
    for (const byte of bytes) c.child.stdin.write(Buffer.from([byte]));
    expect(await c.waitFor((r) => r.id === "u")).toMatchObject({ success: true });
    const user = await c.waitFor((r) => r.type === "message_start" && (r.message as { role: string }).role === "user");
    expect((user.message as { content: string }).content).toBe(text);
    await c.waitForEvent("agent_end");
  });

  it("two commands in one write both get answered, in order", async () => {
    const c = start();
    c.write('{"type":"get_state","id":"a"}\n{"type":"get_messages","id":"b"}\n');
    await c.waitFor((r) => r.id === "b");
    expect(c.records.filter((r) => r.type === "response").map((r) => r.id)).toEqual(["a", "b"]);
  });

  it("echoes ids exactly, keeping their JSON type", async () => {
    const c = start();
    c.write('{"type":"get_state","id":0}\n{"type":"get_state","id":"0"}\n{"type":"get_state","id":1.5}\n');
    await c.waitFor((r) => r.id === 1.5);
    expect(c.records.map((r) => r.id)).toEqual([0, "0", 1.5]);
  });

  it("gives exactly one response per command over a mixed script; UI replies get none", async () => {
    const c = start();
    const script: string[] = [];
    for (let i = 0; i < 10; i++) {
      script.push(JSON.stringify({ type: "get_state", id: `s${i}` }));
      script.push(JSON.stringify({ type: "bogus", id: `b${i}` }));
      script.push(JSON.stringify({ type: "set_steering_mode", mode: i % 2 ? "all" : "bad", id: `m${i}` }));
    }
    script.push(JSON.stringify({ type: "extension_ui_response", id: "nobody-asked", value: "x" }));
    script.push(JSON.stringify({ type: "get_messages", id: "last" }));
    c.write(script.join("\n") + "\n");
    await c.waitFor((r) => r.id === "last");
    const ids = c.records.filter((r) => r.type === "response").map((r) => r.id);
    expect(ids).toHaveLength(31);
    expect(new Set(ids).size).toBe(31);
    expect(ids).not.toContain("nobody-asked");
  });

  it("passes a 50 MB command and a 50 MB response intact", async () => {
    const c = start();
    const big = "x".repeat(50 * 1024 * 1024 - 7) + "é\u2028end";
    c.send({ type: "steer", message: big, id: "big" });
    expect(await c.waitFor((r) => r.id === "big", 30_000)).toMatchObject({ success: true });
    const update = await c.waitForEvent("queue_update");
    expect((update.steering as string[])[0]).toBe(big);
    const state = await c.request({ type: "get_state" }, 30_000);
    expect((state.data as { pendingMessageCount: number }).pendingMessageCount).toBe(1);
  }, 60_000);
});

describe("stdout ownership and backpressure", () => {
  it("routes console.log and process.stdout.write from plugins to stderr", async () => {
    const agentDir = tempDir();
    const plugin = join(agentDir, "noisy.ts");
    writeFileSync(
      plugin,
      `console.log("import-time noise");
export default { name: "noisy", apply(k: any) {
  console.log("apply-time noise"); process.stdout.write("raw noise\\n");
  k.hooks.agent_start.tap("noisy", () => { console.info("run-time noise"); });
} };\n`,
    );
    writeCassette(agentDir, "quiet", [textTurn("fine")]);
    const c = start({ agentDir, args: replayArgs("quiet"), settings: { plugins: [plugin] } });
    await c.request({ type: "prompt", message: "go" });
    await c.waitForEvent("agent_end");
    await c.close();
    expect(c.stderr).toContain("import-time noise");
    expect(c.stderr).toContain("apply-time noise");
    expect(c.stderr).toContain("raw noise");
    expect(c.stderr).toContain("run-time noise");
    expect(c.records.every((r) => typeof r.type === "string")).toBe(true);
  });

  // Through a server (test/*.via-server.e2e.test.ts) this 15 MB burst in one event-loop turn is
  // over the server's per-connection bound (serve.outboundBytes, 8 MiB) by design: the bridge's
  // connection is closed as a slow consumer (test/server-slow.e2e.test.ts covers that policy).
  it.skipIf(viaServer())(
    "writes 100k events in order as whole lines",
    async () => {
      const agentDir = tempDir();
      const plugin = join(agentDir, "spam.ts");
      writeFileSync(
        plugin,
        `import { z } from "zod";
export default { name: "spam", apply(k: any) {
  k.registerEvent("spam", () => z.object({ n: z.number(), pad: z.string() }));
  k.registerCommand({ name: "spam", input: z.object({ count: z.number() }), run: ({ count }: { count: number }) => {
    for (let n = 0; n < count; n++) k.events.emit("spam", { n, pad: "p".repeat(n % 200) });
    return { sent: count };
  } });
} };\n`,
      );
      const c = start({ agentDir, settings: { plugins: [plugin] } });
      const response = await c.request({ type: "spam", count: 100_000 }, 60_000);
      expect(response.data).toEqual({ sent: 100_000 });
      const spam = c.records.filter((r) => r.type === "spam");
      expect(spam).toHaveLength(100_000);
      expect(spam.every((r, i) => r.n === i && (r.pad as string).length === i % 200)).toBe(true);
      expect(c.records.at(-1)).toBe(response);
    },
    60_000,
  );
});

describe("lifecycle", () => {
  function streamingCassette(agentDir: string) {
    const long = Array.from({ length: 200 }, (_, i) => `word${i} `).join("");
    writeCassette(agentDir, "slow", [textTurn(long, 200)], { eventDelayMs: 10 });
  }

  it("replays a prompt with the protocol's event sequence, response before agent_start", async () => {
    const agentDir = tempDir();
    writeCassette(agentDir, "hello", [textTurn("Hello there, world!", 4)]);
    const c = start({ agentDir, args: replayArgs("hello") });
    const response = await c.request({ type: "prompt", message: "hi" });
    expect(response.data).toEqual({ disposition: "started" });
    const end = await c.waitForEvent("agent_end");
    // pi 1.x: agent_settled closes the prompt (docs/decisions.md: on by default).
    expect(await c.waitForEvent("agent_settled")).toEqual({ type: "agent_settled", aborted: false });
    const from = c.records.indexOf(response);
    const types = c.types(from);
    expect(types.slice(0, 7)).toEqual(["response", "agent_start", "turn_start", "message_start", "message_end", "message_start", "message_update"]);
    expect(types.slice(-5)).toEqual(["message_update", "message_end", "turn_end", "agent_end", "agent_settled"]);
    const updates = c.records.filter((r) => r.type === "message_update");
    let text = "";
    for (const update of updates) {
      const event = update.assistantMessageEvent as { type: string; delta?: string; partial: { content: { text?: string }[] } };
      if (event.type === "text_delta") text += event.delta;
      const snapshotText = (update.message as { content: { text?: string }[] }).content[0]?.text ?? "";
      expect(snapshotText).toBe(text);
      expect(event.partial).toEqual(update.message);
    }
    expect(text).toBe("Hello there, world!");
    expect((end.messages as Record_[]).map((m) => m.role)).toEqual(["user", "assistant"]);
    const turnEnd = c.records.find((r) => r.type === "turn_end")!;
    expect(turnEnd).toMatchObject({ toolResults: [], message: { stopReason: "stop", content: [{ type: "text", text }] } });
    expect(await c.request({ type: "get_last_assistant_text" })).toMatchObject({ data: { text: "Hello there, world!" } });
  });

  it("get_last_assistant_text is null before any answer", async () => {
    const c = start();
    expect(await c.request({ type: "get_last_assistant_text" })).toMatchObject({ success: true, data: { text: null } });
  });

  it("stdin EOF aborts the run with its closing events and exits 0", async () => {
    const agentDir = tempDir();
    streamingCassette(agentDir);
    const c = start({ agentDir, args: replayArgs("slow") });
    await c.request({ type: "prompt", message: "go" });
    await c.waitFor((r) => r.type === "message_update");
    c.send({ type: "get_state", id: "before-eof" });
    const result = await c.close();
    expect(result.code).toBe(0);
    expect(c.records.find((r) => r.id === "before-eof")).toMatchObject({ success: true });
    expect(c.types().slice(-4)).toEqual(["message_end", "turn_end", "agent_end", "agent_settled"]);
    expect((c.records.at(-2)!.messages as Record_[]).at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
    expect(c.records.at(-1)).toEqual({ type: "agent_settled", aborted: true });
  });

  it("SIGTERM tears down the same way and exits 143", async () => {
    const agentDir = tempDir();
    streamingCassette(agentDir);
    const c = start({ agentDir, args: replayArgs("slow") });
    await c.request({ type: "prompt", message: "go" });
    await c.waitFor((r) => r.type === "message_update");
    c.child.kill("SIGTERM");
    const result = await c.exited;
    expect(result.code).toBe(143);
    expect(c.types().slice(-2)).toEqual(["agent_end", "agent_settled"]);
  });

  it("SIGTERM still tears down after a settings file was written under its lock (signal-exit must not re-raise it)", async () => {
    const agentDir = tempDir();
    streamingCassette(agentDir);
    const c = start({ agentDir, args: replayArgs("slow") });
    await c.ok({ type: "set_auto_compaction", enabled: false });
    await c.request({ type: "prompt", message: "go" });
    await c.waitFor((r) => r.type === "message_update");
    c.child.kill("SIGTERM");
    expect(await c.exited).toEqual({ code: 143, signal: null });
    expect(c.types().slice(-2)).toEqual(["agent_end", "agent_settled"]);
  });

  it("SIGTERM with a bash command running still aborts the run: the command is cancelled and stored after the run stopped", async () => {
    const agentDir = tempDir();
    streamingCassette(agentDir);
    const c = start({ agentDir, args: replayArgs("slow") });
    await c.request({ type: "prompt", message: "go" });
    c.send({ type: "bash", id: "long", command: "sleep 30" });
    await c.waitFor((r) => r.type === "message_update");
    c.child.kill("SIGTERM");
    expect(await c.exited).toEqual({ code: 143, signal: null });
    expect(c.records.find((r) => r.type === "agent_settled")).toEqual({ type: "agent_settled", aborted: true });
    expect(c.records.find((r) => r.id === "long")).toMatchObject({ success: true, data: { cancelled: true } });
  });

  it("abort mid-stream: aborted assistant, closing events, then the abort response", async () => {
    const agentDir = tempDir();
    streamingCassette(agentDir);
    const c = start({ agentDir, args: replayArgs("slow") });
    await c.request({ type: "prompt", message: "go" });
    await c.waitFor((r) => r.type === "message_update");
    const response = await c.request({ type: "abort" });
    const at = c.records.indexOf(response);
    expect(c.records.slice(at - 4, at).map((r) => r.type)).toEqual(["message_end", "turn_end", "agent_end", "agent_settled"]);
    expect(c.records[at - 4]).toMatchObject({ message: { stopReason: "aborted" } });
    const idle = await c.request({ type: "abort" });
    expect(c.records.indexOf(idle)).toBe(c.records.indexOf(response) + 1);
    expect(await c.request({ type: "get_state" })).toMatchObject({ data: { isStreaming: false } });
  });

  it("a client that closes its end of stdout ends the session cleanly (no EPIPE crash)", async () => {
    const agentDir = tempDir();
    streamingCassette(agentDir);
    const c = start({ agentDir, args: replayArgs("slow") });
    await c.request({ type: "prompt", message: "go" });
    await c.waitFor((r) => r.type === "message_update");
    c.child.stdout.destroy();
    const result = await c.exited;
    expect(result.code).toBe(0);
    expect(c.stderr).not.toContain("Unhandled");
    expect(c.stderr).not.toContain("EPIPE");
  });

  it("a bad settings file stops startup with an error naming the file and the key", async () => {
    const c = start({ settings: { retry: { maxRetries: "lots" } } });
    expect((await c.exited).code).toBe(1);
    expect(c.stderr).toContain(`Invalid settings file ${join(c.agentDir, "settings.json")}: Invalid retry.maxRetries: expected number`);
    expect(c.records).toEqual([]);
  });

  it("prints help and version on stdout; an unknown flag exits 2 naming it", async () => {
    const help = start({ args: ["--help"] });
    expect((await help.exited).code).toBe(0);
    // --mode names the built-in modes, not "another registered one".
    const mode = help.records.map((record) => String(record.line ?? "")).find((line) => line.trimStart().startsWith("--mode"))!;
    for (const name of ["rpc", "json", "print", "acp"]) expect(mode).toContain(`${name} (`);
    const version = start({ args: ["--version"] });
    expect((await version.exited).code).toBe(0);
    const bad = start({ args: ["--mode", "rpc", "--frobnicate"] });
    expect((await bad.exited).code).toBe(2);
    expect(bad.stderr).toContain("Unknown option: --frobnicate");
  });
});
