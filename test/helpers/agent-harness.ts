/**
 * Starting the built CLI on a scripted model for the agent-loop tests: writes the cassette and
 * settings (with the loop-probe test plugin) into a fresh agent dir, and offers small readers
 * over the recorded output.
 */
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { ProbeLog } from "../fixtures/loop-probe.js";
import { RpcClient, tempDir, writeCassette, type Record_ } from "./rpc-client.js";
import { hangTimeout } from "./hang.js";
import { seededTranspileCache } from "./transpile-cache.js";

const TRANSPILE_CACHE = "agent-harness";

export const PROBE_PLUGIN = resolve(import.meta.dirname, "../fixtures/loop-probe.ts");

export interface AgentOptions {
  turns: object[][];
  /** Pause before every replayed event, so commands can land mid-stream. */
  eventDelayMs?: number;
  settings?: Record<string, unknown>;
  cwd?: string;
  agentDir?: string;
}

export function startAgent(options: AgentOptions): RpcClient {
  const agentDir = options.agentDir ?? tempDir("atomic-agent-");
  writeCassette(agentDir, "script", options.turns, options.eventDelayMs ? { eventDelayMs: options.eventDelayMs } : {});
  const settings = { plugins: [PROBE_PLUGIN], ...options.settings };
  // The agent's jiti cache seeded from the one kept between runs: cold, every agent loaded jiti's
  // Babel to transpile the probe plugin again, ~0.4 s of CPU each. Kept once the agent has exited,
  // only when its plugins are all files of the repository (a test's temp files would only grow it).
  const keep = seededTranspileCache(TRANSPILE_CACHE, join(agentDir, "cache", "jiti"));
  const client = new RpcClient({
    agentDir,
    ...(options.cwd ? { cwd: options.cwd } : {}),
    args: ["--mode", "rpc", "--provider", "replay", "--model", "script", "--no-session"],
    settings,
  });
  const plugins = Array.isArray(settings.plugins) ? (settings.plugins as unknown[]) : [];
  if (plugins.every((plugin) => typeof plugin === "string" && !resolve(plugin).startsWith(tmpdir()))) {
    // Before the file's cleanup removes the agent dir (it waits for the same exit); a removed one is skipped.
    void client.exited.then(() => {
      try {
        keep();
      } catch {
        // The agent dir went while it was copied: nothing to keep.
      }
    });
  }
  return client;
}

export async function probeLog(client: RpcClient): Promise<ProbeLog> {
  const response = await client.request({ type: "probe_log" });
  if (!response.success) throw new Error(`probe_log failed: ${JSON.stringify(response)}`);
  return response.data as ProbeLog;
}

/** Sends a prompt and waits for the agent_end of the run it started (continuations excluded). */
export async function promptAndSettle(client: RpcClient, message: string, extra: Record<string, unknown> = {}): Promise<{ response: Record_; from: number }> {
  const from = client.records.length;
  const response = await client.request({ type: "prompt", message, ...extra });
  if (!response.success) throw new Error(`prompt rejected: ${String(response.error)}`);
  // agent_settled (on by default, as pi 1.x) closes the prompt: retries and continuations included.
  await client.waitForEvent("agent_settled", 10_000, from);
  return { response, from };
}

/** Waits until get_state says the agent is idle (after retries and continuations). */
export async function waitIdle(client: RpcClient, timeoutMs?: number): Promise<void> {
  const deadline = Date.now() + hangTimeout(timeoutMs);
  for (;;) {
    const state = await client.request({ type: "get_state" });
    if ((state.data as { isStreaming: boolean }).isStreaming === false) return;
    if (Date.now() > deadline) throw new Error("agent did not become idle");
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Index of the first record at or after `from` matching `match` (-1 when none). */
export function indexOf(records: Record_[], match: (r: Record_) => boolean, from = 0): number {
  for (let i = from; i < records.length; i++) if (match(records[i]!)) return i;
  return -1;
}

export const isResponseTo = (id: unknown) => (r: Record_) => r.type === "response" && r.id === id;
export const isType = (type: string) => (r: Record_) => r.type === type;
/** Event records only (responses and probe traffic left out). */
export function eventTypes(records: Record_[], from = 0): string[] {
  return records
    .slice(from)
    .filter((r) => r.type !== "response")
    .map((r) => r.type);
}

export function textOf(message: unknown): string {
  const content = (message as { content: unknown }).content;
  if (typeof content === "string") return content;
  return (content as { type: string; text?: string }[])
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("");
}

/** One assistant turn calling several tools (arguments sent whole), optionally after some text. */
export function callsTurn(calls: { id: string; name: string; args: Record<string, unknown> }[], text?: string): object[] {
  const events: object[] = [];
  const offset = text ? 1 : 0;
  if (text) events.push({ type: "text_start", contentIndex: 0 }, { type: "text_delta", contentIndex: 0, delta: text }, { type: "text_end", contentIndex: 0 });
  calls.forEach((call, i) => {
    const index = offset + i;
    events.push(
      { type: "toolcall_start", contentIndex: index, id: call.id, name: call.name },
      { type: "toolcall_delta", contentIndex: index, delta: JSON.stringify(call.args) },
      { type: "toolcall_end", contentIndex: index },
    );
  });
  events.push({ type: "done", reason: "toolUse", usage: { input: 10, output: 5 } });
  return events;
}

/** A turn whose provider call fails with `errorMessage`. */
export function errorTurn(errorMessage: string): object[] {
  return [{ type: "error", errorMessage }];
}
