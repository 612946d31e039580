/**
 * Sibling hosts (issue 34): an agent opened beside the launch's takes its own model, session
 * choice, logger and dialog capability, and the launch's own session flags never reach it.
 */
import { describe, expect, it } from "vitest";
import { createHost } from "../host/index.js";
import { definePlugin, silentLogger, type Logger } from "../kernel/index.js";
import { tempDir } from "./helpers/temp.js";

function recordingLog(lines: string[]): Logger {
  return { info: (m) => void lines.push(m), warn: (m) => void lines.push(m), error: (m) => void lines.push(m) };
}

describe("sibling hosts", () => {
  it("take their own model, session choice, logger and dialog capability; the launch's session flags stay the launch's", async () => {
    const cwd = tempDir("atomic-sibling-");
    const seen: Record<string, unknown>[] = [];
    const probe = definePlugin({
      name: "probe",
      flags: [
        { name: "--provider", key: "provider", value: "<p>", description: "p" },
        { name: "--model", key: "model", value: "<m>", description: "m" },
        { name: "--session", key: "session", value: "<s>", description: "s" },
        { name: "--no-session", key: "noSession", description: "n" },
      ],
      apply(k) {
        k.log.info("applied");
        // Dialogs are known once every transport registered: at boot.
        k.hooks.boot_load.tap("probe", () => void seen.push({ ...k.config.cli, dialogs: k.config.dialogs }));
      },
    });
    const dialogs = definePlugin({ name: "dialogs", apply: (k) => k.registerTransport({ name: "rpc", description: "d", dialogs: true, serve: async () => 0 }) });
    const host = await createHost({
      cwd,
      agentDir: cwd,
      env: {},
      plugins: [probe, dialogs],
      argv: ["--provider", "a", "--model", "x", "--session", "launch.jsonl", "--no-session"],
      log: silentLogger,
    });
    expect(seen[0]).toMatchObject({ provider: "a", model: "x", session: "launch.jsonl", noSession: true, dialogs: true });

    const lines: string[] = [];
    const own = await host.openSibling({
      cwd,
      model: "b/y",
      thinkingLevel: "high",
      resume: "abc",
      noSession: false,
      dialogs: false,
      log: recordingLog(lines),
      flags: { extra: 1 },
    });
    expect(seen[1]).toMatchObject({ provider: undefined, model: "b/y", thinking: "high", session: "abc", noSession: false, extra: 1, dialogs: false });
    expect(lines).toEqual(["applied"]);

    const fresh = await host.openSibling({ cwd, sessionId: "s-1" });
    expect(seen[2]).toMatchObject({ provider: "a", model: "x", session: undefined, sessionId: "s-1", noSession: true, dialogs: true });
    await Promise.all([own.shutdown("exit"), fresh.shutdown("exit"), host.shutdown("exit")]);
  });
});
