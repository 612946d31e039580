/**
 * A seeded fuzz run over the built CLI (issue 17): 10,000 hostile lines (wrong types in every
 * field of every command, huge strings, deep nesting, NUL, invalid UTF-8, lone surrogates,
 * `__proto__` keys, numeric and object ids) get exactly one well-formed response each (a reply,
 * `extension_ui_response`, gets none), and the process stays up and answers afterwards. Then
 * seeded hostile inputs from outside the protocol (issue 41): model catalogs for `atomic models
 * update`, MCP servers flooding tools, and processes fighting over one session file. `npm run
 * soak` runs more rounds; ATOMIC_FUZZ_SEED replays a run.
 */
import { rm } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";
import { catalogFuzzRound, mcpFloodFuzzRound, sessionWritersFuzz } from "./helpers/fuzz-outside.js";
import { scale, seededRandom as prng } from "./helpers/soak.js";

/** Commands and their fields (types and ids only: the values here are always the wrong ones). */
const COMMANDS: Record<string, string[]> = {
  prompt: ["message", "images", "streamingBehavior"],
  steer: ["message", "images"],
  follow_up: ["message", "images"],
  abort: [],
  new_session: ["parentSession"],
  get_state: [],
  get_messages: [],
  set_model: ["provider", "modelId"],
  cycle_model: [],
  get_available_models: [],
  set_thinking_level: ["level"],
  cycle_thinking_level: [],
  get_available_thinking_levels: [],
  set_steering_mode: ["mode"],
  set_follow_up_mode: ["mode"],
  compact: ["preserve_recent", "compression_ratio", "query", "customInstructions"],
  set_auto_compaction: ["enabled"],
  set_auto_retry: ["enabled"],
  abort_retry: [],
  bash: ["command"],
  abort_bash: ["requestId"],
  get_session_stats: [],
  export_html: ["outputPath"],
  switch_session: ["sessionPath"],
  fork: ["entryId"],
  clone: [],
  get_fork_messages: [],
  get_entries: ["since"],
  get_tree: [],
  get_last_assistant_text: [],
  set_session_name: ["name"],
  get_commands: [],
  extension_ui_response: ["id", "value", "confirmed", "cancelled"],
  no_such_command: ["x"],
};

/** Values that are the wrong type for every field above (none is a usable string command or path). */
function hostileValue(rand: () => number, depth = 0): unknown {
  const pick = Math.floor(rand() * 12);
  switch (pick) {
    case 0:
      return Math.floor(rand() * 1e9) - 5e8;
    case 1:
      return rand() < 0.5;
    case 2:
      return null;
    case 3:
      return depth < 3 ? [hostileValue(rand, depth + 1), hostileValue(rand, depth + 1)] : [];
    case 4:
      return depth < 3 ? { __proto__x: hostileValue(rand, depth + 1), nested: { deeper: [1, "x"] } } : {};
    case 5:
      return 1e308 * (rand() < 0.5 ? 1 : -1);
    case 6:
      return -0;
    case 7:
      return { type: "image", data: 5, mimeType: [] };
    case 8:
      return [{ type: "image" }];
    case 9:
      return { toString: "x", valueOf: 1 };
    case 10:
      return [[[[[]]]]];
    default:
      return { length: 3, 0: "a" };
  }
}

function hostileId(rand: () => number): unknown {
  const ids = [1, -1, 0, 12345678901234567890, "x", "", { id: 1 }, [1], null, true, 1.5, "\u0000"];
  return ids[Math.floor(rand() * ids.length)];
}

/** One hostile line; `reply` says whether it is an extension_ui_response (no response expected). */
function hostileLine(rand: () => number): { text: Buffer; reply: boolean } {
  const kind = Math.floor(rand() * 20);
  const names = Object.keys(COMMANDS);
  const type = names[Math.floor(rand() * names.length)]!;
  if (kind === 0) return { text: Buffer.concat([Buffer.from('{"type":"get_state","x":"'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from('"}')]), reply: false };
  if (kind === 1) return { text: Buffer.from(`{"type":"${type}","id":"\\ud800","message":"\\udfff\\u0000"}`), reply: type === "extension_ui_response" };
  if (kind === 2) return { text: Buffer.from("[".repeat(5000) + "]".repeat(5000)), reply: false };
  if (kind === 3) return { text: Buffer.from('{"type":"get_state","__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}'), reply: false };
  if (kind === 4) return { text: Buffer.from(`{"type":"set_session_name","name":${JSON.stringify("n".repeat(20_000))},"id":7}`), reply: false };
  if (kind === 5) return { text: Buffer.from(["", "   ", "null", "42", '"str"', "{", '{"type":', '{"type":null}', "{}"][Math.floor(rand() * 9)]!), reply: false };
  if (kind === 6) return { text: Buffer.from(`{"type":"get_state"}\u0000`), reply: false };
  const record: Record<string, unknown> = { type };
  for (const field of COMMANDS[type]!) if (rand() < 0.8) record[field] = hostileValue(rand);
  if (rand() < 0.6) record.id = hostileId(rand);
  // A reply whose id is a valid string would be a valid reply: still no response, by design.
  return { text: Buffer.from(JSON.stringify(record)), reply: type === "extension_ui_response" };
}

const dirs: string[] = [];
const clients: RpcClient[] = [];
afterEach(async () => {
  for (const c of clients.splice(0)) if (c.child.exitCode === null) c.child.kill("SIGKILL");
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe("fuzz", () => {
  it("10,000 hostile lines: exactly one well-formed response each, and the agent still answers", async () => {
    const seed = Number(process.env.ATOMIC_FUZZ_SEED ?? 20261130);
    const rand = prng(seed);
    const agentDir = tempDir("atomic-agent-");
    const cwd = tempDir("atomic-cwd-");
    dirs.push(agentDir, cwd);
    // No provider is configured: a prompt that slips through validation fails fast ("No model selected").
    const c = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--no-session"], env: { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", GEMINI_API_KEY: "" } });
    clients.push(c);
    let expected = 0;
    const chunks: Buffer[] = [];
    for (let i = 0; i < 10_000; i++) {
      const line = hostileLine(rand);
      if (!line.reply) expected++;
      chunks.push(line.text, Buffer.from("\n"));
    }
    c.child.stdin.write(Buffer.concat(chunks));
    const final = await c.request({ type: "get_state" }, 120_000);
    expect(final).toMatchObject({ success: true });
    const responses = c.records.filter((r) => r.type === "response");
    expect(c.records.filter((r) => r.type === "__non_json__")).toEqual([]);
    expect(responses.length, `seed ${seed}`).toBe(expected + 1);
    for (const r of responses) {
      expect(typeof r.command).toBe("string");
      expect(typeof r.success).toBe("boolean");
      if (!r.success) expect(typeof r.error).toBe("string");
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await c.close()).code).toBe(0);
  }, 180_000);

  const seed = Number(process.env.ATOMIC_FUZZ_SEED ?? 20261205);

  it("hostile model catalogs: refused with a clear, escape-free error and nothing written, or written with only clean ids and names", async () => {
    const rand = prng(seed);
    const agentDir = tempDir("atomic-agent-");
    const cwd = tempDir("atomic-cwd-");
    dirs.push(agentDir, cwd);
    const outcomes = { written: 0, refused: 0 };
    for (let round = 0; round < scale(4, 40); round++) outcomes[await catalogFuzzRound(rand, agentDir, cwd, `seed ${seed} round ${round}`)]++;
    console.log(`catalog fuzz (seed ${seed}): ${outcomes.written} written, ${outcomes.refused} refused`);
    expect(outcomes.refused).toBeGreaterThan(0);
  }, 300_000);

  it("MCP servers flooding tools (random counts, sizes and names): what is offered stays within the caps and every tool stays reachable", async () => {
    const rand = prng(seed + 1);
    for (let round = 0; round < scale(2, 12); round++) await mcpFloodFuzzRound(rand, `seed ${seed + 1} round ${round}`);
  }, 600_000);

  it("three processes switching to, prompting in and leaving one session file at random: it stays one branch", async () => {
    await sessionWritersFuzz(prng(seed + 2), scale(20, 200), `seed ${seed + 2}`);
  }, 600_000);
});
