import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { encodeCwd, resolveSessionDir, sessionFileName } from "./paths.js";

describe("session paths", () => {
  it("should encode the cwd as a folder name", () => {
    expect(encodeCwd("/a/b")).toBe("--a-b--");
    expect(encodeCwd("/home/me/my project")).toBe("--home-me-my project--");
    expect(encodeCwd("C:\\Users\\me")).toBe("--C--Users-me--");
  });

  it("should name files <ISO with - for : and .>_<id>.jsonl", () => {
    expect(sessionFileName("2026-06-06T00:00:00.000Z", "abc")).toBe("2026-06-06T00-00-00-000Z_abc.jsonl");
  });

  it("should default to <agentDir>/sessions/--<cwd>--", () => {
    expect(resolveSessionDir({ agentDir: "/agent", cwd: "/a/b" })).toBe(join("/agent", "sessions", "--a-b--"));
  });

  it("should prefer CLI, then env, then settings, resolving relative paths against the cwd", () => {
    const base = { agentDir: "/agent", cwd: "/work" };
    expect(resolveSessionDir({ ...base, cliDir: "/cli", envDir: "/env", settingsDir: "/set" })).toBe("/cli");
    expect(resolveSessionDir({ ...base, envDir: "/env", settingsDir: "/set" })).toBe("/env");
    expect(resolveSessionDir({ ...base, envDir: "", settingsDir: "rel/dir" })).toBe("/work/rel/dir");
  });
});
