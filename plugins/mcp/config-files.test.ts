import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { anyConfigFile, configFiles, loadConfig } from "./config-files.js";

const root = mkdtempSync(join(tmpdir(), "atomic-mcp-config-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function setup(user: unknown, project?: unknown) {
  const dir = mkdtempSync(join(root, "case-"));
  const files = configFiles(join(dir, "agent"), join(dir, "project"));
  mkdirSync(join(dir, "agent"), { recursive: true });
  if (user !== undefined) writeFileSync(files.user, typeof user === "string" ? user : JSON.stringify(user));
  if (project !== undefined) {
    mkdirSync(join(dir, "project", ".atomic"), { recursive: true });
    writeFileSync(files.project, JSON.stringify(project));
  }
  return files;
}

describe("mcp.json files", () => {
  it("a trusted project replaces or overrides user entries; an untrusted one is not read", async () => {
    const files = setup({ mcpServers: { a: { command: "a" }, b: { command: "b" } } }, { mcpServers: { a: { url: "https://x/mcp" }, b: { enabled: false }, c: { command: "c" } } });
    const trusted = await loadConfig(files, true);
    expect(trusted.errors).toEqual([]);
    expect(trusted.entries.map((entry) => [entry.name, entry.source, entry.config.type, entry.config.enabled])).toEqual([
      ["a", "project", "http", true],
      ["b", "user", "stdio", false],
      ["c", "project", "stdio", true],
    ]);
    const untrusted = await loadConfig(files, false);
    expect(untrusted.entries.map((entry) => entry.name)).toEqual(["a", "b"]);
    expect(untrusted.untrustedProject).toBe(files.project);
    expect(await anyConfigFile(files)).toBe(true);
  });

  it("reports bad files and entries with the file's path; names equal up to - and _ clash; an override needs a user server", async () => {
    const files = setup({ mcpServers: { "my-tools": { command: "a" }, my_tools: { command: "b" } } }, { mcpServers: { ghost: { enabled: false } } });
    const loaded = await loadConfig(files, true);
    expect(loaded.entries.map((entry) => entry.name)).toEqual(["my-tools"]);
    expect(loaded.errors).toEqual([
      `${files.user}: Invalid mcpServers.my_tools: the name clashes with server "my-tools" (names that differ only in "-" and "_" give the same tool names)`,
      `${files.project}: Invalid mcpServers.ghost: expected "command" or "url", or the name of a server in the user's mcp.json to override`,
    ]);
    expect((await loadConfig(setup("{ not json"), false)).errors[0]).toMatch(/mcp\.json: not valid JSON \([^()]+ at line 1, column 3\)$/);
    expect((await loadConfig(setup({ mcpServers: [] }), false)).errors).toEqual([expect.stringMatching(/mcp\.json: Invalid mcpServers: expected record/)]);
    expect(await loadConfig(setup(undefined), false)).toEqual({ entries: [], errors: [] });
    expect(await anyConfigFile(setup(undefined))).toBe(false);
  });
});
