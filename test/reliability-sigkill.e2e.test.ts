/**
 * SIGKILL at random points of a tool-using session (seeded: the seed is printed, ATOMIC_SEED
 * replays it): the session file always reloads, every complete line is an intact entry chained
 * to the ones before it, at most the torn last line is lost, what is on disk is a prefix of what
 * the client saw, and the reloaded session keeps working (its next append starts a new line).
 * `npm run soak` runs 100 kills instead of 4.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { callsTurn } from "./helpers/agent-harness.js";
import { RpcClient, tempDir, textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";
import { runSeed, scale, seededRandom } from "./helpers/soak.js";

const clients: RpcClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => (c.child.kill("SIGKILL"), c.exited)));
});

const KILLS = scale(4, 100);

/** Four tool calls across three turns, then an answer; 3 ms between replayed events. */
function writeScript(agentDir: string): void {
  const turns = [
    callsTurn([{ id: "w1", name: "write", args: { path: "notes/a.txt", content: "alpha\nbeta\n" } }], "Writing a note."),
    callsTurn([
      { id: "r1", name: "read", args: { path: "notes/a.txt" } },
      { id: "l1", name: "ls", args: { path: "notes" } },
    ]),
    callsTurn([{ id: "g1", name: "grep", args: { pattern: "beta", path: "notes" } }]),
    textTurn("All done: the note exists and holds two lines.", 12),
  ];
  writeCassette(agentDir, "script", turns, { eventDelayMs: 3 });
}

function start(agentDir: string, cwd: string): RpcClient {
  const client = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--provider", "replay", "--model", "script"] });
  clients.push(client);
  return client;
}

function sessionFiles(agentDir: string): string[] {
  const root = join(agentDir, "sessions");
  if (!existsSync(root)) return [];
  // A kill between creating a new file and its first write can leave a hidden `.partial`: not a session.
  return readdirSync(root).flatMap((dir) =>
    readdirSync(join(root, dir))
      .filter((name) => !name.startsWith("."))
      .map((file) => join(root, dir, file)),
  );
}

/** The file's complete lines parsed, and whether a torn (unterminated) last line followed them. */
function readLines(file: string): { complete: Record_[]; torn: boolean } {
  const text = readFileSync(file, "utf8");
  const lines = text.split("\n");
  const last = lines.pop()!; // "" when the file ends with a newline
  return { complete: lines.map((line) => JSON.parse(line) as Record_), torn: last !== "" };
}

describe("SIGKILL during a tool-using session", () => {
  const seed = runSeed();

  it(
    `loses at most the torn last line, and the session reloads and goes on (seed ${seed}, ${KILLS} kills)`,
    async () => {
      const random = seededRandom(seed);
      const tally = { noFile: 0, clean: 0, torn: 0, entries: 0 };
      for (let kill = 0; kill < KILLS; kill++) {
        const where = `seed ${seed}, kill ${kill}`;
        const agentDir = tempDir("atomic-agent-");
        const cwd = tempDir("atomic-cwd-");
        writeScript(agentDir);
        const c = start(agentDir, cwd);
        const afterRecords = 1 + Math.floor(random() * 60);
        const extraMs = Math.floor(random() * 20);
        await c.request({ type: "prompt", message: "Make a note, check it, then tell me." });
        await c.waitFor(() => c.records.length >= afterRecords || c.records.some((r) => r.type === "agent_end"), 20_000).catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, extraMs));
        c.child.kill("SIGKILL");
        await c.exited;
        const seen = c.records.filter((r) => r.type === "message_end").map((r) => JSON.stringify(r.message));

        const [file, ...others] = sessionFiles(agentDir);
        expect(others, where).toEqual([]);
        if (file === undefined) {
          tally.noFile++; // killed before the first entry was written: nothing to lose
          continue;
        }
        const { complete, torn } = readLines(file);
        tally[torn ? "torn" : "clean"]++;
        tally.entries += complete.length - 1;
        expect(complete[0], where).toMatchObject({ type: "session" });
        const entries = complete.slice(1);
        const ids = new Set<string>();
        for (const entry of entries) {
          expect(entry.parentId === null || ids.has(String(entry.parentId)), `${where}: ${String(entry.id)} chains to an earlier entry`).toBe(true);
          ids.add(String(entry.id));
        }
        const onDisk = entries.filter((e) => e.type === "message").map((e) => JSON.stringify(e.message));
        // Records written in one tick leave stdout in one batch after the tick, while the file's
        // append is already under way: a kill in between leaves the file a record or two ahead of
        // what the client read. Either way both are the same conversation, in the same order.
        const common = Math.min(seen.length, onDisk.length);
        expect(seen.slice(0, common), `${where}: the file and the stream hold the same conversation`).toEqual(onDisk.slice(0, common));
        expect(onDisk.length - seen.length, `${where}: the file is at most a batch ahead of the stream`).toBeLessThanOrEqual(3);

        // Reload in a fresh process: everything complete is there, and appending still works.
        const again = start(agentDir, cwd);
        await again.ok({ type: "switch_session", sessionPath: file });
        expect(
          (await again.ok({ type: "get_entries" })).entries.map((e: Record_) => e.id),
          where,
        ).toEqual(entries.map((e) => e.id));
        await again.ok({ type: "set_session_name", name: `after kill ${kill}${torn ? " (torn)" : ""}` });
        await again.close();
        const reread = readLines(file);
        expect(reread.torn, where).toBe(false);
        expect(
          reread.complete.slice(1, entries.length + 1).map((e) => e.id),
          where,
        ).toEqual(entries.map((e) => e.id));
        expect(reread.complete.at(-1), where).toMatchObject({ type: "session_info", name: `after kill ${kill}${torn ? " (torn)" : ""}` });
      }
      console.log(`SIGKILL test, seed ${seed}: ${JSON.stringify(tally)}`);
    },
    scale(60_000, 1_800_000),
  );
});
