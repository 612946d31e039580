/**
 * One writer per session file. Two processes on one file used to keep every line but split it
 * into two branches; now the second is refused (`--continue`, `--session`, `switch_session`),
 * naming the file and the owner's pid, and a SIGKILLed owner's lock is taken over. Processes
 * started together on one file race for it (seeded rounds; `npm run soak` runs 40): exactly one
 * serves, every time.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir, textTurn, writeCassette, type Record_ } from "./helpers/rpc-client.js";
import { runSeed, scale, seededRandom } from "./helpers/soak.js";

const clients: RpcClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => (c.child.kill("SIGKILL"), c.exited)));
});

function start(agentDir: string, cwd: string, extraArgs: string[] = []): RpcClient {
  const client = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--provider", "replay", "--model", "chat", ...extraArgs] });
  clients.push(client);
  return client;
}

function setup(): { agentDir: string; cwd: string } {
  const agentDir = tempDir("atomic-agent-");
  writeCassette(agentDir, "chat", [textTurn("First answer."), textTurn("Second answer."), textTurn("Third answer.")]);
  return { agentDir, cwd: tempDir("atomic-cwd-") };
}

async function promptAndWait(c: RpcClient, message: string): Promise<void> {
  await c.ok({ type: "set_event_options", agentSettled: true });
  const from = c.records.length;
  await c.ok({ type: "prompt", message });
  await c.waitForEvent("agent_settled", 10_000, from);
}

/** The entries of a session file, and how many leaves its tree has (1: one branch). */
function branches(file: string): { entries: Record_[]; leaves: number } {
  const entries = readFileSync(file, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record_)
    .slice(1);
  const parents = new Set(entries.map((entry) => entry.parentId));
  return { entries, leaves: entries.filter((entry) => !parents.has(entry.id)).length };
}

const lockOf = (file: string) => join(dirname(file), `.${basename(file)}.lock`);

describe("two writers on one session file", () => {
  it("a second process is refused by --continue, --session and switch_session, naming the file and the pid; the file stays one branch", async () => {
    const { agentDir, cwd } = setup();
    const owner = start(agentDir, cwd);
    await promptAndWait(owner, "one");
    const { sessionFile } = await owner.ok({ type: "get_state" });
    expect(existsSync(lockOf(sessionFile))).toBe(true);
    const inUse = `Session file ${sessionFile} is in use by another process (pid ${owner.child.pid}`;

    const continued = start(agentDir, cwd, ["--continue"]);
    expect((await continued.exited).code).toBe(1);
    expect(continued.stderr).toContain(inUse);
    expect(continued.stderr).toContain("(--continue)");
    const named = start(agentDir, cwd, ["--session", sessionFile]);
    expect((await named.exited).code).toBe(1);
    expect(named.stderr).toContain("(--session)");

    const second = start(agentDir, cwd);
    const refused = await second.request({ type: "switch_session", sessionPath: sessionFile });
    expect(refused).toMatchObject({ success: false });
    expect(String(refused.error)).toContain(inUse);
    // Nothing changed for the one refused: it is still in its own session.
    expect((await second.ok({ type: "get_state" })).sessionFile).not.toBe(sessionFile);
    // A reader needs no lock.
    expect((await second.ok({ type: "list_sessions" })).sessions.map((s: { path: string }) => s.path)).toContain(sessionFile);

    await promptAndWait(owner, "two");
    expect(branches(sessionFile)).toMatchObject({ leaves: 1 });
    expect(branches(sessionFile).entries.filter((e) => e.type === "message")).toHaveLength(4);
  });

  it("a SIGKILLed owner's lock is taken over: the next process opens the file, says so, and appends to the one branch", async () => {
    const { agentDir, cwd } = setup();
    const owner = start(agentDir, cwd);
    await promptAndWait(owner, "one");
    const { sessionFile } = await owner.ok({ type: "get_state" });
    const pid = owner.child.pid;
    owner.child.kill("SIGKILL");
    await owner.exited;
    expect(existsSync(lockOf(sessionFile))).toBe(true);

    const next = start(agentDir, cwd, ["--continue"]);
    expect((await next.ok({ type: "get_state" })).sessionFile).toBe(sessionFile);
    expect(next.stderr).toContain(`Took over the lock of ${sessionFile}: its owner (pid ${pid}) is no longer running`);
    await promptAndWait(next, "two");
    expect(branches(sessionFile)).toMatchObject({ leaves: 1 });
  });

  it("the lock goes when its owner switches away or exits", async () => {
    const { agentDir, cwd } = setup();
    const owner = start(agentDir, cwd);
    await promptAndWait(owner, "one");
    const { sessionFile } = await owner.ok({ type: "get_state" });
    const other = start(agentDir, cwd);
    await owner.ok({ type: "new_session" });
    expect(existsSync(lockOf(sessionFile))).toBe(false);
    await other.ok({ type: "switch_session", sessionPath: sessionFile });
    // ...and back: now the owner is the one refused.
    expect(String((await owner.request({ type: "switch_session", sessionPath: sessionFile })).error)).toContain(`(pid ${other.child.pid}`);
    expect((await other.close()).code).toBe(0);
    expect(existsSync(lockOf(sessionFile))).toBe(false);
    await owner.ok({ type: "switch_session", sessionPath: sessionFile });
  });

  it("processes started together on one file: exactly one serves it, every round (seeded)", async () => {
    const seed = runSeed();
    console.log(`session lock race seed: ${seed} (ATOMIC_SEED=${seed} replays it)`);
    const random = seededRandom(seed);
    const { agentDir, cwd } = setup();
    const first = start(agentDir, cwd);
    await promptAndWait(first, "one");
    const { sessionFile } = await first.ok({ type: "get_state" });
    await first.close();
    const rounds = scale(3, 40);
    for (let round = 0; round < rounds; round++) {
      const count = 2 + Math.floor(random() * 3);
      const racers = Array.from({ length: count }, () => start(agentDir, cwd, ["--session", sessionFile]));
      // Each either serves (answers get_state) or exits refused.
      const outcomes = await Promise.all(
        racers.map((c) => Promise.race([c.exited.then(() => "refused" as const), c.request({ type: "get_state" }).then(() => "serving" as const)]).catch(() => "refused" as const)),
      );
      expect(
        outcomes.filter((o) => o === "serving"),
        `round ${round} of seed ${seed}`,
      ).toHaveLength(1);
      for (const [i, c] of racers.entries()) if (outcomes[i] === "refused") expect(c.stderr).toContain(`Session file ${sessionFile} is in use`);
      // Kill or close the winner at random: either way the next round gets the file.
      const winner = racers[outcomes.indexOf("serving")]!;
      if (random() < 0.5) winner.child.kill("SIGKILL");
      else winner.child.stdin.end();
      await Promise.all(racers.map((c) => c.exited));
      clients.splice(0, clients.length, ...clients.filter((c) => !racers.includes(c)));
    }
    expect(readdirSync(dirname(sessionFile)).filter((name) => name.endsWith(".jsonl"))).toEqual([basename(sessionFile)]);
  }, 120_000);
});
