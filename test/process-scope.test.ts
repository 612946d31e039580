/**
 * The process scope a host hands to its siblings (kernel/shared.ts): one value per key for the
 * host and its siblings, released by the last of them; another host has a scope of its own.
 * (Here rather than in host/: vitest's include list does not cover host/*.test.ts.)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createHost } from "../host/index.js";
import { defineCommand, definePlugin, type Logger } from "../kernel/index.js";

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function dirs() {
  const root = mkdtempSync(join(tmpdir(), "atomic-scope-"));
  roots.push(root);
  return { agentDir: root, cwd: root };
}

const recordingLog = (lines: string[]): Logger => ({ info: (m) => void lines.push(m), warn: (m) => void lines.push(m), error: (m) => void lines.push(m) });

describe("process scope", () => {
  it("siblings share one process scope, released by the last of them; another host has its own", async () => {
    const { agentDir, cwd } = dirs();
    const events: string[] = [];
    let made = 0;
    const pooled = definePlugin({
      name: "pooled",
      apply(k) {
        const pool = k.shared.acquire(
          "pooled.pool",
          () => ({ id: ++made }),
          (value) => void events.push(`disposed ${value.id}`),
        ).value;
        k.registerCommand(defineCommand({ name: "pool", input: () => z.object({}), run: () => pool }));
      },
    });
    const host = await createHost({ cwd, agentDir, env: {}, plugins: [pooled], log: recordingLog([]) });
    const siblings = [await host.openSibling({ cwd }), await host.openSibling({ cwd })];
    for (const agent of [host, ...siblings]) expect(await agent.send({ type: "pool" })).toMatchObject({ data: { id: 1 } });
    const independent = await createHost({ cwd, agentDir, env: {}, plugins: [pooled], log: recordingLog([]) });
    expect(await independent.send({ type: "pool" })).toMatchObject({ data: { id: 2 } });
    await host.shutdown("exit");
    await siblings[0]!.shutdown("exit");
    expect(events).toEqual([]);
    await siblings[1]!.shutdown("exit");
    expect(events).toEqual(["disposed 1"]);
    await independent.shutdown("exit");
    expect(events).toEqual(["disposed 1", "disposed 2"]);
  });
});
