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
    expect(await loadConfig(setup(undefined), false)).toEqual({ entries: [], errors: [], problems: [] });
    expect(await anyConfigFile(setup(undefined))).toBe(false);
  });

  it("pi's autoEnableCodemode: the project's value wins; a bad value is reported and the servers still load", async () => {
    expect((await loadConfig(setup({ mcpServers: {} }), true)).autoEnableCodemode).toBeUndefined();
    expect((await loadConfig(setup({ autoEnableCodemode: false, mcpServers: {} }), true)).autoEnableCodemode).toBe(false);
    const both = setup({ autoEnableCodemode: false, mcpServers: { a: { command: "a" } } }, { autoEnableCodemode: true, mcpServers: {} });
    expect((await loadConfig(both, true)).autoEnableCodemode).toBe(true);
    expect((await loadConfig(both, false)).autoEnableCodemode).toBe(false);
    const userOnly = setup({ autoEnableCodemode: false, mcpServers: {} }, { mcpServers: {} });
    expect((await loadConfig(userOnly, true)).autoEnableCodemode).toBe(false);
    const bad = await loadConfig(setup({ autoEnableCodemode: "no", mcpServers: { a: { command: "a" } } }), true);
    expect(bad.entries.map((entry) => entry.name)).toEqual(["a"]);
    expect(bad.autoEnableCodemode).toBeUndefined();
    expect(bad.errors).toEqual([expect.stringMatching(/mcp\.json: Invalid autoEnableCodemode: expected boolean$/)]);
  });

  it("VS Code's servers key is named as what Atomic does not read, with the key it reads; a slip of mcpServers too", async () => {
    const vscode = setup({ servers: { files: { type: "stdio", command: "npx", args: ["-y", "x"] } } });
    const loaded = await loadConfig(vscode, false);
    expect(loaded.entries).toEqual([]);
    const message = `${vscode.user}: "servers" is VS Code's key; Atomic reads "mcpServers" (its entries have the same shape: type, command, args, env, url, headers): rename the key`;
    expect(loaded.errors).toEqual([message]);
    expect(loaded.problems).toEqual([`${message} (no server is read from the file)`]);
    const both = await loadConfig(setup({ mcpServers: { a: { command: "a" } }, servers: {} }), false);
    expect(both.entries.map((entry) => entry.name)).toEqual(["a"]);
    expect(both.problems[0]).toMatch(/rename the key \(its servers are ignored\)$/);
    const slip = await loadConfig(setup({ mcpServer: { a: { command: "a" } } }), false);
    expect(slip.problems).toEqual([expect.stringMatching(/mcp\.json: Unknown key "mcpServer" \(did you mean "mcpServers"\?\) \(no server is read from the file\)$/)]);
  });

  it("reads // comments and trailing commas as models.json does; an error is placed in the file as written; entries say they were skipped", async () => {
    const files = setup('{\n  // mine\n  "mcpServers": {\n    "a": { "command": "a", },\n    "b": { "comand": "b" },\n  },\n}\n');
    const loaded = await loadConfig(files, false);
    expect(loaded.entries.map((entry) => entry.name)).toEqual(["a"]);
    expect(loaded.problems).toEqual([
      `${files.user}: Invalid mcpServers.b: expected "command" (a stdio server) or "url" (an HTTP server); found "comand": did you mean "command"? (entry skipped)`,
    ]);
    const broken = await loadConfig(setup('{\n  // mine\n  "mcpServers": { "a": {} "b": {} }\n}'), false);
    expect(broken.problems[0]).toMatch(/mcp\.json: not valid JSON \([^()]+ at line 3, column 27\) \(no server is read from the file\)$/);
  });
});
