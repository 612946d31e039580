import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isTrustedProject } from "../../../kernel/index.js";
import { ProjectTrustStore } from "./trust-store.js";

const dirs: string[] = [];
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), "atomic-trust-"));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const settingsOf = (agentDir: string) => JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")) as { trustedProjects?: string[]; theme?: string };

describe("ProjectTrustStore over trustedProjects", () => {
  it("records trust in the user's settings, where Atomic's startup reads it, keeping the other keys", () => {
    const agentDir = temp();
    const project = temp();
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ theme: "dark" }));
    const store = new ProjectTrustStore(agentDir);
    expect(store.get(project)).toBeNull();
    store.set(project, true);
    expect(settingsOf(agentDir)).toEqual({ theme: "dark", trustedProjects: [project] });
    expect(isTrustedProject(join(project, "sub"), settingsOf(agentDir).trustedProjects, false)).toBe(true);
    expect(store.get(join(project, "sub"))).toBe(true);
    expect(store.getEntry(join(project, "sub"))).toEqual({ path: project, decision: true });
    store.set(project, null);
    expect(store.get(project)).toBeNull();
    expect(settingsOf(agentDir)).toEqual({ theme: "dark", trustedProjects: [] });
    expect(existsSync(`${join(agentDir, "settings.json")}.lock`)).toBe(false);
  });

  it("cannot distrust a folder a parent entry trusts, and writes nothing then", () => {
    const agentDir = temp();
    const parent = temp();
    const store = new ProjectTrustStore(agentDir);
    store.setMany([
      { path: parent, decision: true },
      { path: join(parent, "child"), decision: true },
    ]);
    expect(() => store.set(join(parent, "child"), false)).toThrow(`still trusts ${parent}`);
    expect(settingsOf(agentDir).trustedProjects).toEqual([parent, join(parent, "child")]);
    store.setMany([
      { path: parent, decision: null },
      { path: join(parent, "child"), decision: false },
    ]);
    expect(settingsOf(agentDir).trustedProjects).toEqual([]);
  });

  it("never replaces a settings file it cannot parse", () => {
    const agentDir = temp();
    writeFileSync(join(agentDir, "settings.json"), "{broken");
    expect(() => new ProjectTrustStore(agentDir).set(temp(), true)).toThrow(/Invalid JSON in .*settings\.json/);
    expect(readFileSync(join(agentDir, "settings.json"), "utf8")).toBe("{broken");
  });

  it("reads a settings file with // comments as startup does, and does not rewrite it without them", () => {
    const agentDir = temp();
    const project = temp();
    const text = `{\n  // mine\n  "trustedProjects": [${JSON.stringify(project)},],\n}\n`;
    writeFileSync(join(agentDir, "settings.json"), text);
    const store = new ProjectTrustStore(agentDir);
    expect(store.get(join(project, "sub"))).toBe(true);
    expect(() => store.set(temp(), true)).toThrow(`Cannot update ${join(agentDir, "settings.json")}: it holds // comments, which writing it would drop`);
    expect(readFileSync(join(agentDir, "settings.json"), "utf8")).toBe(text);
  });
});
