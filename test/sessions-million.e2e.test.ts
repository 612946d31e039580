/**
 * A 1,000,000-entry session (~290 MB) resumes: no fixed limit on the boot phase that opens it
 * (it used to end the process after 15 s, exit 1, where 300,000 entries loaded in ~5 s). The file
 * is written as a stream into the test's temp folder, in a few seconds.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { join } from "node:path";
import { expect, it } from "vitest";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const ENTRIES = 1_000_000;
const id = (index: number) => index.toString(16).padStart(8, "0");
const USAGE = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

async function writeSession(path: string, count: number): Promise<void> {
  const out = createWriteStream(path);
  const header = { type: "session", version: 3, id: "million-session", timestamp: new Date(0).toISOString(), cwd: "/tmp" };
  let chunk = `${JSON.stringify(header)}\n`;
  for (let i = 0; i < count; i++) {
    const message =
      i % 2 === 0
        ? { role: "user", content: `question ${i}`, timestamp: i }
        : { role: "assistant", content: [{ type: "text", text: `answer ${i}` }], api: "replay", provider: "replay", model: "demo", usage: USAGE, stopReason: "stop", timestamp: i };
    chunk += `${JSON.stringify({ type: "message", id: id(i), parentId: i === 0 ? null : id(i - 1), timestamp: new Date(i).toISOString(), message })}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await once(out, "drain");
      chunk = "";
    }
  }
  out.end(chunk);
  await once(out, "finish");
}

it("a 1,000,000-entry session resumes with every entry", async () => {
  const dir = tempDir("atomic-million-");
  const file = join(dir, "million.jsonl");
  await writeSession(file, ENTRIES);
  const client = new RpcClient({ args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--session", file] });
  const state = await client.ok({ type: "get_state" }, 240_000);
  expect(state).toMatchObject({ sessionId: "million-session", sessionFile: file, messageCount: ENTRIES });
  const { entries } = (await client.ok({ type: "get_entries", since: id(ENTRIES - 3) }, 60_000)) as { entries: { id: string }[] };
  expect(entries.map((entry) => entry.id)).toEqual([id(ENTRIES - 2), id(ENTRIES - 1)]);
  expect(await client.close(60_000)).toMatchObject({ code: 0 });
}, 300_000);
