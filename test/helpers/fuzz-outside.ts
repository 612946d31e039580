/**
 * Seeded hostile inputs that come from outside the protocol (issue 41), for test/fuzz.e2e.test.ts:
 * model catalogs for `atomic models update --from`, MCP servers flooding tools with hostile
 * names, and processes taking turns (or fighting) over one session file. Each round checks what
 * must hold whatever the input; the caller's seed reproduces it.
 */
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join, resolve } from "node:path";
import { expect } from "vitest";
import { startFakeLlm, writeModelsJson } from "../fake-llm/server.js";
import { declaredTools, waitForServers, writeMcpJson, type ServerReport } from "./mcp.js";
import { RpcClient, runCli, tempDir, textTurn, writeCassette, type Record_ } from "./rpc-client.js";

type Rand = () => number;
const pick = <T>(rand: Rand, items: readonly T[]): T => items[Math.floor(rand() * items.length)]!;
const NO_KEYS = { ANTHROPIC_API_KEY: undefined, OPENAI_API_KEY: undefined, GEMINI_API_KEY: undefined, GROQ_API_KEY: undefined };
/** What a terminal would act on: C0 (but LF), DEL, C1, bidi and zero-width characters. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
/** An id as the test reads the rule, independently of the code: no climbing, no absolute, a known alphabet. */
const CLEAN_ID = /^(?!\/)(?!.*(?:^|\/)\.{0,2}(?:\/|$))[A-Za-z0-9._:@+~/-]{1,128}$/;

const ID_PIECES = [
  "groq",
  "model",
  "llama-3",
  "..",
  ".",
  "/",
  "\\",
  "//",
  "\u001b[2J",
  "\u0007",
  "\u202e",
  "\u200b",
  "\u0000",
  "é",
  "🙂",
  " ",
  ":",
  "@",
  "~",
  "-",
  "_",
  "%2e%2e",
  "\n",
  "x".repeat(150),
];
const NAME_PIECES = ["Llama", " 3", "\u001b]0;title\u0007", "\u001b[31m", "\u202e", "\u200b", "\u0085", "é", "🙂", "\t", "\r", "(preview)", "n".repeat(200)];

function hostileText(rand: Rand, pieces: readonly string[]): string {
  return Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(rand, pieces)).join("");
}

/** One catalog round: refused with clean text and the file as it was, or written with clean ids and names. */
export async function catalogFuzzRound(rand: Rand, agentDir: string, cwd: string, label: string): Promise<"written" | "refused"> {
  const clean = rand() < 0.3;
  const models: Record<string, unknown> = {};
  for (let i = 0, count = 1 + Math.floor(rand() * 20); i < count; i++) {
    const id = clean ? `groq/fuzz-${i}` : hostileText(rand, ID_PIECES);
    models[id] = {
      id,
      name: clean ? `Fuzz ${i}` : hostileText(rand, NAME_PIECES),
      tool_call: true,
      modalities: { input: ["text"], output: ["text"] },
      cost: { input: rand(), output: rand() },
      limit: { context: 1 + Math.floor(rand() * 1e6), output: 1 + Math.floor(rand() * 1e5) },
    };
  }
  const body = JSON.stringify({ groq: { id: "groq", models } });
  const server = createServer((_, res) => res.writeHead(200, { "content-type": "application/json" }).end(body));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const file = join(agentDir, "catalog", "groq.json");
  const before = existsSync(file) ? readFileSync(file, "utf8") : undefined;
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api.json`;
    const run = await runCli(["models", "update", "groq", "--from", url], { agentDir, cwd, env: NO_KEYS });
    expect(RAW_CONTROL.test(run.stdout + run.stderr), `${label}: raw control characters printed`).toBe(false);
    if (run.code === 1) {
      expect(run.stderr, label).toMatch(/^Refused the catalog at /);
      expect(existsSync(file) ? readFileSync(file, "utf8") : undefined, `${label}: the file changed`).toBe(before);
      return "refused";
    }
    expect(run.code, `${label}: ${run.stderr}`).toBe(0);
    for (const model of JSON.parse(readFileSync(file, "utf8")).models as { id: string; name: string }[]) {
      expect(model.id, label).toMatch(CLEAN_ID);
      expect(RAW_CONTROL.test(model.name), `${label}: name ${JSON.stringify(model.name)}`).toBe(false);
    }
    const listed = await runCli(["--list-models", "groq"], { agentDir, cwd, env: NO_KEYS });
    expect(RAW_CONTROL.test(listed.stdout), label).toBe(false);
    return "written";
  } finally {
    await new Promise<void>((done) => server.close(() => done()));
  }
}

const FLOOD = resolve(import.meta.dirname, "../fixtures/mcp/flood-server.mjs");
const TOOL_NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "a-b", "a_b", "a.b", "x".repeat(100), "ünï", "tool", "tool_0", "🙂", "mcp__x"];

/** One flood round: two servers (a random flood, random hostile names); the first request stays within the caps, and get_mcp_servers accounts for every tool. */
export async function mcpFloodFuzzRound(rand: Rand, label: string): Promise<void> {
  const fake = await startFakeLlm();
  const agentDir = tempDir("atomic-mcp-");
  const tools = Math.floor(rand() * 3000);
  const names = [...new Set(Array.from({ length: 1 + Math.floor(rand() * 8) }, () => pick(rand, TOOL_NAMES)))];
  const client = new RpcClient({ agentDir, args: ["--mode", "rpc", "--no-session", "--model", "fake-openai/fake-1"], env: NO_KEYS });
  try {
    await writeModelsJson(agentDir, fake.url);
    // Direct exposure: the caps apply to what is offered directly (pi's default, codemode, offers none).
    writeMcpJson(agentDir, {
      flood: { command: process.execPath, args: [FLOOD, "--tools", String(tools), "--description-bytes", String(Math.floor(rand() * 6000))], exposure: "direct" },
      names: { command: process.execPath, args: [FLOOD, "--names", names.join(",")], exposure: "direct" },
    });
    // Both listed before the first request, so it shows the caps and not a slow start.
    const { servers } = await waitForServers(client, (list) => list.length === 2 && list.every((server) => server.state === "connected"), 60_000);
    fake.script({ text: "ok" });
    await client.ok({ type: "prompt", message: "go" });
    await client.waitForEvent("agent_end", 120_000);
    const declared = declaredTools(fake.requests[0]!).filter((name) => name.startsWith("mcp__"));
    expect(declared.length, label).toBeLessThanOrEqual(100);
    expect(new Set(declared).size, label).toBe(declared.length);
    for (const name of declared) expect(name, label).toMatch(/^[A-Za-z0-9_]{1,64}$/);
    expect(Buffer.byteLength(JSON.stringify(fake.requests[0]!.body)), label).toBeLessThan(512 * 1024);
    const byName = new Map(servers.map((server): [string, ServerReport] => [server.name, server]));
    expect(byName.get("flood")!.tools, label).toHaveLength(tools);
    expect(
      byName
        .get("names")!
        .tools.map((tool) => tool.name)
        .sort(),
      label,
    ).toEqual([...names].sort());
    // Every tool is offered, or found through tool_search: none is lost.
    const offered = servers.flatMap((server) => server.tools.filter((tool) => tool.exposure === "direct"));
    expect(offered.map((tool) => tool.toolName).sort(), label).toEqual([...declared].sort());
    for (const server of servers) for (const tool of server.tools) expect(["direct", "deferred"], label).toContain(tool.exposure);
    if (offered.length < tools + names.length) expect(declaredTools(fake.requests[0]!), label).toContain("tool_search");
  } finally {
    await client.close();
    await fake.close();
  }
}

/** Random turns of three processes on one session file; afterwards it is one branch, whole. */
export async function sessionWritersFuzz(rand: Rand, steps: number, label: string): Promise<void> {
  const agentDir = tempDir("atomic-agent-");
  const cwd = tempDir("atomic-cwd-");
  writeCassette(
    agentDir,
    "chat",
    Array.from({ length: steps + 1 }, (_, i) => textTurn(`Answer ${i}.`)),
  );
  const start = () => new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--provider", "replay", "--model", "chat"] });
  const clients = [start(), start(), start()];
  try {
    const settled = async (c: RpcClient, message: string) => {
      const from = c.records.length;
      await c.ok({ type: "prompt", message });
      await c.waitForEvent("agent_settled", 20_000, from);
    };
    for (const c of clients) await c.ok({ type: "set_event_options", agentSettled: true });
    await settled(clients[0]!, "first");
    const shared = (await clients[0]!.ok({ type: "get_state" })).sessionFile as string;
    let refusals = 0;
    for (let step = 0; step < steps; step++) {
      const c = pick(rand, clients);
      const op = pick(rand, ["switch", "switch", "prompt", "prompt", "prompt", "new"] as const);
      if (op === "switch") {
        const answer = await c.request({ type: "switch_session", sessionPath: shared });
        if (!answer.success) {
          refusals++;
          expect(String(answer.error), `${label} step ${step}`).toContain(`Session file ${shared} is in use by another process`);
        }
      } else if (op === "new") await c.ok({ type: "new_session" });
      else await settled(c, `step ${step}`);
    }
    for (const c of clients) await c.close();
    const entries = readFileSync(shared, "utf8")
      .split("\n")
      .filter(Boolean)
      .slice(1)
      .map((line) => JSON.parse(line) as Record_);
    const ids = new Set(entries.map((entry) => entry.id));
    for (const entry of entries) if (entry.parentId !== null) expect(ids.has(entry.parentId), `${label}: orphan ${String(entry.id)}`).toBe(true);
    const parents = new Set(entries.map((entry) => entry.parentId));
    expect(
      entries.filter((entry) => !parents.has(entry.id)),
      `${label}: branches (${refusals} refusals)`,
    ).toHaveLength(1);
  } finally {
    for (const c of clients) if (c.child.exitCode === null) c.child.kill("SIGKILL");
  }
}
