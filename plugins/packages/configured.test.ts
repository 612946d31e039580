import { describe, expect, it } from "vitest";
import type { KernelConfig } from "../../kernel/index.js";
import { configuredPackages } from "./configured.js";

function config(over: Partial<KernelConfig>): KernelConfig {
  return { agentDir: "/home/me/.atomic/agent", cwd: "/repo", settings: {}, cli: { positionals: [] }, env: {}, trusted: false, ...over };
}

describe("the packages a process loads", () => {
  it("-e first, then a trusted project's, then the user's; one per package, the first naming wins", () => {
    const list = configuredPackages(
      config({
        trusted: true,
        settingsLayers: { user: { packages: ["npm:shared@1", "./mine", { source: "git:github.com/o/r", skills: [] }] }, project: { packages: ["npm:shared@2", "tools"] } },
      }),
      ["npm:cli-only", "/abs/pkg"],
    );
    expect(list.wanted.map((entry) => [entry.raw, entry.scope])).toEqual([
      ["npm:cli-only", "cli"],
      ["/abs/pkg", "cli"],
      ["npm:shared@2", "project"],
      ["tools", "project"],
      ["./mine", "user"],
      ["git:github.com/o/r", "user"],
    ]);
    // Local paths resolve from the file that names them.
    expect(list.wanted.find((entry) => entry.raw === "tools")?.source).toMatchObject({ path: "/repo/.atomic/tools" });
    expect(list.wanted.find((entry) => entry.raw === "./mine")?.source).toMatchObject({ path: "/home/me/.atomic/agent/mine" });
    expect(list.wanted.find((entry) => entry.raw === "git:github.com/o/r")?.filter).toEqual({ skills: [] });
  });

  it("an untrusted project's list is not read; a bad source is reported, not thrown", () => {
    const list = configuredPackages(config({ settingsLayers: { user: { packages: ["npm:"] }, project: { packages: ["npm:evil"] } } }), []);
    expect(list.wanted).toEqual([]);
    expect(list.invalid).toEqual([{ raw: "npm:", scope: "user", error: 'Invalid npm package source "npm:": expected npm:<name> or npm:<name>@<version>' }]);
  });

  it("settings passed in by an embedder are the user's, relative to the working folder", () => {
    const list = configuredPackages(
      config({
        settings: { packages: ["./here"] },
        settingsSources: { sources: { packages: "override" }, userFile: "", projectFile: "" },
        settingsLayers: { user: {}, project: {} },
      }),
      [],
    );
    expect(list.wanted[0]).toMatchObject({ scope: "user", source: { path: "/repo/here" } });
  });
});
