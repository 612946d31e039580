import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, win32 } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { composeSettings, readRawSettings, resolveSettings, unknownSettingsOf } from "./index.js";
import { deepMerge, defineSetting, definePlugin, ErrorCode, isTrustedProject, expandHome, isInsideFolder, resolveAgentDir, type PluginDefinition } from "../kernel/index.js";

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await rm(root, { recursive: true, force: true });
});

function dirs() {
  const root = mkdtempSync(join(tmpdir(), "atomic-config-"));
  roots.push(root);
  const agentDir = join(root, "agent");
  const cwd = join(root, "project");
  mkdirSync(agentDir, { recursive: true });
  mkdirSync(join(cwd, ".atomic"), { recursive: true });
  return { agentDir, cwd, user: join(agentDir, "settings.json"), project: join(cwd, ".atomic", "settings.json") };
}

const owners: PluginDefinition[] = [
  definePlugin({
    name: "retry",
    settings: { retry: defineSetting(() => z.object({ maxRetries: z.number().int().optional(), baseDelayMs: z.number().optional() }), { description: "r" }) },
    apply() {},
  }),
  definePlugin({ name: "agent", settings: { steeringMode: defineSetting(() => z.enum(["all", "one-at-a-time"]), { description: "s" }) }, apply() {} }),
  definePlugin({ name: "bash", settings: { shellPath: defineSetting(() => z.string(), { scope: "trusted", description: "sh" }) }, apply() {} }),
];

async function resolve(files: { user?: object | string; project?: object | string }, trusted = false) {
  const d = dirs();
  if (files.user !== undefined) writeFileSync(d.user, typeof files.user === "string" ? files.user : JSON.stringify(files.user));
  if (files.project !== undefined) writeFileSync(d.project, typeof files.project === "string" ? files.project : JSON.stringify(files.project));
  const [user, project] = await Promise.all([readRawSettings(d.user), readRawSettings(d.project)]);
  return { ...d, ...resolveSettings(composeSettings(owners), { user, project }, { trusted }) };
}

describe("settings composed from their owners", () => {
  it("project wins, objects deep-merge, arrays replace, and sources say who set what", async () => {
    const r = await resolve({ user: { retry: { maxRetries: 5, baseDelayMs: 10 }, trustedProjects: ["/x"] }, project: { retry: { maxRetries: 1 }, steeringMode: "all" } });
    expect(r.settings).toEqual({ retry: { maxRetries: 1, baseDelayMs: 10 }, trustedProjects: ["/x"], steeringMode: "all" });
    expect(r.sources).toEqual({ retry: "project", trustedProjects: "user", steeringMode: "project" });
    expect(r.notes).toEqual([]);
  });

  it("a project cannot name plugins or trusted projects, nor set a trusted key unless trusted", async () => {
    const untrusted = await resolve({ project: { plugins: ["./evil.ts"], trustedProjects: ["/"], shellPath: "./evil.sh", mode: "./evil.mjs" } });
    expect(untrusted.settings).toEqual({});
    expect(untrusted.notes).toHaveLength(4);
    expect(untrusted.notes[0]).toBe(`Ignored "plugins" in ${untrusted.project}: it is honoured only in ${untrusted.user}`);
    expect(untrusted.notes.find((n) => n.includes('"shellPath"'))).toContain("an untrusted project may not set it (pass --approve");
    const trusted = await resolve({ project: { shellPath: "/bin/zsh", plugins: ["x"] } }, true);
    expect(trusted.settings).toEqual({ shellPath: "/bin/zsh" });
  });

  it("a bad value names the file and the key path", async () => {
    const d = dirs();
    writeFileSync(d.user, JSON.stringify({ retry: { maxRetries: "three" } }));
    const user = await readRawSettings(d.user);
    expect(() => resolveSettings(composeSettings(owners), { user, project: { path: d.project, exists: false, value: {} } }, { trusted: false })).toThrow(
      expect.objectContaining({ code: ErrorCode.CONFIG_INVALID, message: `Invalid settings file ${d.user}: Invalid retry.maxRetries: expected number` }),
    );
  });

  it("every bad value of both files is reported at once, a line each", async () => {
    const d = dirs();
    writeFileSync(d.user, JSON.stringify({ retry: { maxRetries: "three", baseDelayMs: "soon" } }));
    writeFileSync(d.project, JSON.stringify({ steeringMode: "some" }));
    const [user, project] = await Promise.all([readRawSettings(d.user), readRawSettings(d.project)]);
    expect(() => resolveSettings(composeSettings(owners), { user, project }, { trusted: false })).toThrow(
      [
        `Invalid settings file ${d.user}: Invalid retry.maxRetries: expected number`,
        `Invalid settings file ${d.user}: Invalid retry.baseDelayMs: expected number`,
        `Invalid settings file ${d.project}: Invalid steeringMode: expected one of "all", "one-at-a-time"`,
      ].join("\n"),
    );
  });

  it("keys nothing reads are named with the nearest known one; pi's own keys are not", async () => {
    const d = dirs();
    writeFileSync(d.user, JSON.stringify({ retyr: {}, retry: { maxRetry: 3, maxRetries: 2 }, theme: "dark", zzzzzz: 1 }));
    writeFileSync(d.project, JSON.stringify({ steringMode: "all" }));
    const [user, project] = await Promise.all([readRawSettings(d.user), readRawSettings(d.project)]);
    expect(unknownSettingsOf(composeSettings(owners), { user, project })).toEqual([
      `Unknown setting "retyr" in ${d.user} (did you mean "retry"?): no plugin reads it, ignored`,
      `Unknown setting "retry.maxRetry" in ${d.user} (did you mean "retry.maxRetries"?): no plugin reads it, ignored`,
      `Unknown setting "zzzzzz" in ${d.user}: no plugin reads it, ignored`,
      `Unknown setting "steringMode" in ${d.project} (did you mean "steeringMode"?): no plugin reads it, ignored`,
    ]);
  });

  it("a key a strict object setting lacks is named as refusing the file, not as ignored (its validation refuses it)", async () => {
    const d = dirs();
    const guard = definePlugin({
      name: "guard",
      settings: { guard: defineSetting(() => z.strictObject({ network: z.boolean().optional() }), { description: "g" }) },
      apply() {},
    });
    writeFileSync(d.user, JSON.stringify({ guard: { netwrok: true } }));
    const [user, project] = await Promise.all([readRawSettings(d.user), readRawSettings(d.project)]);
    expect(unknownSettingsOf(composeSettings([...owners, guard]), { user, project })).toEqual([
      `Unknown setting "guard.netwrok" in ${d.user} (did you mean "guard.network"?): "guard" takes no other key, so the file is refused`,
    ]);
    expect(() => resolveSettings(composeSettings([...owners, guard]), { user, project }, { trusted: false })).toThrow("Invalid guard: expected no extra keys (netwrok)");
  });

  it("invalid JSON and a non-object name the file", async () => {
    const d = dirs();
    writeFileSync(d.project, "{ nope");
    await expect(readRawSettings(d.project)).rejects.toThrow(`Invalid JSON in settings file ${d.project}`);
    // Where, as an editor shows it: line and column, not a character position, counted in the
    // file as written (the comment and the trailing comma before it are allowed).
    writeFileSync(d.project, '{\n  // pinned\n  "mode": "rpc",\n  "steeringMode": "all" "x": 1\n}\n');
    await expect(readRawSettings(d.project)).rejects.toThrow(/^Invalid JSON in settings file .+: [^(]+ at line 4, column 25$/);
    writeFileSync(d.project, "[1]");
    await expect(readRawSettings(d.project)).rejects.toThrow(`Invalid settings file ${d.project}: expected a JSON object`);
  });

  it("// comments and trailing commas are read as in models.json", async () => {
    const d = dirs();
    writeFileSync(d.user, '{\n  // the user\'s\n  "steeringMode": "all",\n  "trustedProjects": ["/a", "//b",],\n}\n');
    expect((await readRawSettings(d.user)).value).toEqual({ steeringMode: "all", trustedProjects: ["/a", "//b"] });
  });

  it("unknown keys (pi's `transport`, other tools' keys) are kept and never stop startup", async () => {
    const r = await resolve({ user: { transport: "auto", theme: "dark", myPlugin: { on: true } } });
    expect(r.settings).toEqual({ transport: "auto", theme: "dark", myPlugin: { on: true } });
  });

  it("two owners of one key fail naming both", () => {
    const twin = definePlugin({ name: "retry-2", settings: { retry: defineSetting(() => z.object({}), { description: "x" }) }, apply() {} });
    expect(() => composeSettings([...owners, twin])).toThrow('Settings key "retry" is declared by both "retry" and "retry-2"');
  });

  it("in-memory overrides are validated like files", async () => {
    const d = dirs();
    const [user, project] = await Promise.all([readRawSettings(d.user), readRawSettings(d.project)]);
    const composed = composeSettings(owners);
    expect(resolveSettings(composed, { user, project }, { trusted: false, overrides: { steeringMode: "all" } }).sources).toEqual({ steeringMode: "override" });
    expect(() => resolveSettings(composed, { user, project }, { trusted: false, overrides: { steeringMode: "some" } })).toThrow("Invalid steeringMode");
  });
});

describe("trust and paths", () => {
  it("a project is trusted by --approve or when it is (inside) a trustedProjects folder", () => {
    expect(isTrustedProject("/work/repo", undefined, true)).toBe(true);
    expect(isTrustedProject("/work/repo", ["/work/repo"], false)).toBe(true);
    expect(isTrustedProject("/work/repo/sub", ["/work/repo/"], false)).toBe(true);
    expect(isTrustedProject("/work/repository", ["/work/repo"], false)).toBe(false);
    expect(isTrustedProject("/home/u/p", ["~/p"], false, { HOME: "/home/u" })).toBe(true);
    expect(isTrustedProject("/work/..repo", ["/work"], false)).toBe(true);
    expect(isTrustedProject("/work", ["/work/repo"], false)).toBe(false);
  });

  it("Windows paths: ~\\ expands to USERPROFILE, folders compare by parts across \\ and letter case", () => {
    const env = { USERPROFILE: "C:\\Users\\me" };
    expect(expandHome("~\\proj", env, win32)).toBe("C:\\Users\\me\\proj");
    expect(expandHome("~/proj", env, win32)).toBe("C:\\Users\\me\\proj");
    expect(isTrustedProject("C:\\Users\\me\\proj\\sub", ["~\\proj"], false, env, win32)).toBe(true);
    expect(isTrustedProject("c:\\users\\ME\\Proj", ["C:\\Users\\me\\proj"], false, env, win32)).toBe(true);
    expect(isTrustedProject("C:\\Users\\me\\project", ["~\\proj"], false, env, win32)).toBe(false);
    expect(isTrustedProject("D:\\proj", ["C:\\proj"], false, env, win32)).toBe(false);
    expect(isInsideFolder("C:\\a\\b", "C:\\a", win32)).toBe(true);
  });

  it("the agent dir honours ATOMIC_CODING_AGENT_DIR", () => {
    expect(resolveAgentDir({ ATOMIC_CODING_AGENT_DIR: "/srv/agent" })).toBe("/srv/agent");
    expect(resolveAgentDir({ HOME: "/home/u" })).toMatch(/\.atomic\/agent$/);
  });

  it("deepMerge does not mutate its inputs and ignores __proto__", () => {
    const base = { a: { b: 1 } };
    const merged = deepMerge(base, JSON.parse('{"a":{"c":2},"__proto__":{"polluted":true}}'));
    expect(merged).toEqual({ a: { b: 1, c: 2 } });
    expect(base).toEqual({ a: { b: 1 } });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
