/**
 * Sibling agents share one cache of session facts: a session one of them writes is in the
 * others' `list_sessions` (checked by size and mtime, so a cached listing never hides it), and
 * the cache is one for them all.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUILTIN_PLUGINS } from "../../cli/builtins.js";
import { createHost, type HostRuntime } from "../../host/index.js";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Listed = { data: { sessions: { path: string; firstMessage: string }[] } };

async function prompted(agent: HostRuntime, message: string): Promise<void> {
  const ended = new Promise<void>((done) => {
    const off = agent.subscribe((event) => (event as { type: string }).type === "agent_end" && (off(), done()));
  });
  expect(await agent.send({ type: "prompt", message })).toMatchObject({ success: true });
  await ended;
}

describe("session list shared by sibling agents", () => {
  it("a session one agent writes is listed by the others at once", async () => {
    const agentDir = mkdtempSync(join(tmpdir(), "atomic-shared-sessions-"));
    cleanups.push(() => rmSync(agentDir, { recursive: true, force: true }));
    const host = await createHost({
      cwd: agentDir,
      agentDir,
      env: {},
      plugins: BUILTIN_PLUGINS,
      cli: { provider: "replay", model: "demo" },
      readSettingsFiles: false,
      userPlugins: false,
      installDir: resolve(import.meta.dirname, "../.."),
      log: { info() {}, warn() {}, error() {} },
    });
    cleanups.push(() => host.shutdown("exit"));
    const sibling = await host.openSibling({ cwd: agentDir });
    cleanups.push(() => sibling.shutdown("exit"));
    await prompted(host, "first from the host");
    expect(((await sibling.send({ type: "list_sessions" })) as Listed).data.sessions.map((s) => s.firstMessage)).toEqual(["first from the host"]);
    await prompted(sibling, "then from the sibling");
    await prompted(host, "and more from the host");
    const listed = ((await host.send({ type: "list_sessions" })) as Listed).data.sessions;
    expect(listed.map((s) => s.firstMessage).sort()).toEqual(["first from the host", "then from the sibling"]);
    expect(host.kernel.shared.scope.keys()).toContain("session-jsonl.lister");
  });
});
