import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { deepMerge, ErrorCode, loadSettings, resolveAgentDir } from "./index.js";

function dirs() {
  const root = mkdtempSync(join(tmpdir(), "atomic-config-"));
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(join(cwd, ".atomic"), { recursive: true });
  return { agentDir, cwd };
}

describe("settings", () => {
  it("project wins, objects deep-merge, arrays replace", async () => {
    const { agentDir, cwd } = dirs();
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ retry: { maxRetries: 5, baseDelayMs: 10 }, defaultProvider: "anthropic", trustedProjects: ["/x"] }));
    writeFileSync(join(cwd, ".atomic", "settings.json"), JSON.stringify({ retry: { maxRetries: 1 }, steeringMode: "all" }));
    const { settings, notes } = await loadSettings(agentDir, cwd);
    expect(settings.retry).toEqual({ maxRetries: 1, baseDelayMs: 10 });
    expect(settings.defaultProvider).toBe("anthropic");
    expect(settings.steeringMode).toBe("all");
    expect(settings.trustedProjects).toEqual(["/x"]);
    expect(notes).toEqual([]);
  });

  it("a project cannot name plugins, extensions or trusted projects", async () => {
    const { agentDir, cwd } = dirs();
    writeFileSync(join(cwd, ".atomic", "settings.json"), JSON.stringify({ plugins: ["./evil.ts"], extensions: ["x"], trustedProjects: ["/"] }));
    const { settings, notes } = await loadSettings(agentDir, cwd);
    expect(settings.plugins).toBeUndefined();
    expect(settings.extensions).toBeUndefined();
    expect(settings.trustedProjects).toBeUndefined();
    expect(notes).toHaveLength(3);
    expect(notes[0]).toContain('Ignored "plugins"');
  });

  it("a bad value names the file and the key", async () => {
    const { agentDir, cwd } = dirs();
    const file = join(agentDir, "settings.json");
    writeFileSync(file, JSON.stringify({ retry: { maxRetries: "three" } }));
    await expect(loadSettings(agentDir, cwd)).rejects.toMatchObject({
      code: ErrorCode.CONFIG_INVALID,
      message: `Invalid settings file ${file}: Invalid retry.maxRetries: expected number`,
    });
  });

  it("invalid JSON names the file", async () => {
    const { agentDir, cwd } = dirs();
    const file = join(cwd, ".atomic", "settings.json");
    writeFileSync(file, "{ nope");
    await expect(loadSettings(agentDir, cwd)).rejects.toThrow(`Invalid JSON in settings file ${file}`);
  });

  it("unknown keys are kept for plugins", async () => {
    const { agentDir, cwd } = dirs();
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ myPlugin: { on: true } }));
    expect((await loadSettings(agentDir, cwd)).settings).toEqual({ myPlugin: { on: true } });
  });

  it("the agent dir honours ATOMIC_CODING_AGENT_DIR", () => {
    expect(resolveAgentDir({ ATOMIC_CODING_AGENT_DIR: "/srv/agent" })).toBe("/srv/agent");
    expect(resolveAgentDir({ HOME: "/home/u" })).toMatch(/\.atomic\/agent$/);
  });

  it("deepMerge does not mutate its inputs", () => {
    const base = { a: { b: 1 } };
    const merged = deepMerge(base, { a: { c: 2 } });
    expect(merged).toEqual({ a: { b: 1, c: 2 } });
    expect(base).toEqual({ a: { b: 1 } });
  });
});
