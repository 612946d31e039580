import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { applyPatterns, npmSatisfied, packageResources, parseSource, sourceIdentity, type NpmSource } from "./index.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "atomic-lib-packages-"));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const rel = (root: string, paths: string[]) => paths.map((path) => path.slice(root.length + 1));

describe("package sources", () => {
  it("npm: scoped names, versions, what is pinned", () => {
    expect(parseSource("npm:pi-mcp-adapter", "/base")).toMatchObject({ type: "npm", name: "pi-mcp-adapter", spec: "pi-mcp-adapter", pinned: false });
    expect(parseSource("npm:@agentuity/pi@2.0.21", "/base")).toMatchObject({ name: "@agentuity/pi", version: "2.0.21", spec: "@agentuity/pi@2.0.21", pinned: true });
    expect(parseSource("npm:@scope/x@^1.2", "/base")).toMatchObject({ name: "@scope/x", version: "^1.2", pinned: false });
    expect(() => parseSource("npm:", "/base")).toThrow('Invalid npm package source "npm:": expected npm:<name> or npm:<name>@<version>');
    expect(() => parseSource("npm:bad name", "/base")).toThrow(/Invalid npm package source/);
    expect(() => parseSource("npm:x@", "/base")).toThrow(/Invalid npm package source/);
  });

  it("git: shorthand, URLs, scp form, local repositories, refs; unsafe paths are refused", () => {
    expect(parseSource("git:github.com/o/r@v1", "/b")).toMatchObject({ type: "git", repo: "https://github.com/o/r", host: "github.com", path: "o/r", ref: "v1" });
    expect(parseSource("https://github.com/o/r.git", "/b")).toMatchObject({ type: "git", repo: "https://github.com/o/r.git", host: "github.com", path: "o/r" });
    expect(parseSource("git:git@github.com:o/r@main", "/b")).toMatchObject({ repo: "git@github.com:o/r", host: "github.com", path: "o/r", ref: "main" });
    expect(parseSource("git:file:///srv/repos/tools@abc123", "/b")).toMatchObject({ repo: "file:///srv/repos/tools", host: "local", path: "srv/repos/tools", ref: "abc123" });
    expect(() => parseSource("git:github.com/o/../../etc", "/b")).toThrow(/unusable repository path/);
    expect(() => parseSource("git:github.com/only", "/b")).toThrow(/expected <owner>\/<repository>/);
    expect(() => parseSource("git:file://elsewhere/x", "/b")).toThrow(/must be on this machine/);
    expect(() => parseSource("git:github.com/o/r@-x", "/b")).toThrow(/unusable ref/);
  });

  it("local paths resolve from the given base; identity ignores versions and refs", () => {
    expect(parseSource("./tools", "/home/me/.atomic/agent")).toEqual({ type: "local", raw: "./tools", path: "/home/me/.atomic/agent/tools" });
    expect(parseSource("~/pkgs/x", "/b", { HOME: "/home/me" })).toMatchObject({ path: "/home/me/pkgs/x" });
    expect(sourceIdentity(parseSource("npm:x@1", "/b"))).toBe(sourceIdentity(parseSource("npm:x@2", "/b")));
    expect(sourceIdentity(parseSource("git:github.com/o/r@v1", "/b"))).toBe(sourceIdentity(parseSource("https://github.com/o/r", "/b")));
    expect(sourceIdentity(parseSource("../x", "/a/b"))).toBe(sourceIdentity(parseSource("/a/x", "/")));
  });

  it("an installed version satisfies a range; a tag or no version takes what is there", () => {
    const npm = (raw: string) => parseSource(raw, "/b") as NpmSource;
    expect(npmSatisfied(npm("npm:x@^1.2.0"), "1.4.0")).toBe(true);
    expect(npmSatisfied(npm("npm:x@^1.2.0"), "2.0.0")).toBe(false);
    expect(npmSatisfied(npm("npm:x@1.2.3"), "1.2.4")).toBe(false);
    expect(npmSatisfied(npm("npm:x@next"), "0.0.1")).toBe(true);
    expect(npmSatisfied(npm("npm:x"), "9.0.0")).toBe(true);
  });
});

describe("selection patterns", () => {
  const root = "/p";
  const files = ["/p/a.ts", "/p/b.ts", "/p/sub/c.ts", "/p/skills/s1/SKILL.md"];
  it("plain patterns keep, ! drops, + puts back, - drops whatever else said", () => {
    expect(applyPatterns(files, ["*.ts"], root)).toEqual(["/p/a.ts", "/p/b.ts", "/p/sub/c.ts"]);
    expect(applyPatterns(files, ["!sub/**"], root)).toEqual(["/p/a.ts", "/p/b.ts", "/p/skills/s1/SKILL.md"]);
    expect(applyPatterns(files, ["a.ts", "+sub/c.ts"], root)).toEqual(["/p/a.ts", "/p/sub/c.ts"]);
    expect(applyPatterns(files, ["*.ts", "-b.ts", "+b.ts"], root)).toEqual(["/p/a.ts", "/p/sub/c.ts"]);
  });
  it("a skill answers to its folder", () => {
    expect(applyPatterns(files, ["!s1"], root)).toEqual(["/p/a.ts", "/p/b.ts", "/p/sub/c.ts"]);
    expect(applyPatterns(files, ["s1"], root)).toEqual(["/p/skills/s1/SKILL.md"]);
  });
});

describe("what a package folder provides", () => {
  it("a manifest: exactly what it lists (paths, folders, globs, its own selections)", async () => {
    const root = tree({
      "package.json": JSON.stringify({
        name: "m",
        version: "1.2.3",
        pi: { extensions: ["./src/main.ts", "./more/*.ts", "!./more/skip.ts"], skills: ["./skills"], prompts: ["./prompts"] },
      }),
      "src/main.ts": "",
      "src/other.ts": "",
      "more/a.ts": "",
      "more/skip.ts": "",
      "skills/one/SKILL.md": "",
      "skills/group/two/SKILL.md": "",
      "skills/loose.md": "",
      "prompts/review.md": "",
      "prompts/nested/deep.md": "",
      "extensions/ignored.ts": "",
    });
    const found = await packageResources(root);
    expect(found).toMatchObject({ name: "m", version: "1.2.3", problems: [] });
    expect(rel(root, found.extensions)).toEqual(["src/main.ts", "more/a.ts"]);
    expect(rel(root, found.skills)).toEqual(["skills/group/two/SKILL.md", "skills/loose.md", "skills/one/SKILL.md"]);
    expect(rel(root, found.prompts)).toEqual(["prompts/nested/deep.md", "prompts/review.md"]);
  });

  it("an `atomic` manifest wins over pi's", async () => {
    const root = tree({ "package.json": JSON.stringify({ atomic: { extensions: ["a.ts"] }, pi: { extensions: ["b.ts"] } }), "a.ts": "", "b.ts": "" });
    expect(rel(root, (await packageResources(root)).extensions)).toEqual(["a.ts"]);
  });

  it("entries outside the package are refused, naming the entry, the file and the key", async () => {
    const outside = tree({ "evil.ts": "" });
    const root = tree({
      "package.json": JSON.stringify({ pi: { extensions: ["../evil.ts", join(outside, "evil.ts"), "./link.ts", "./ok.ts"], prompts: ["../*.md"] } }),
      "ok.ts": "",
    });
    symlinkSync(join(outside, "evil.ts"), join(root, "link.ts"));
    const found = await packageResources(root);
    expect(rel(root, found.extensions)).toEqual(["ok.ts"]);
    const file = join(root, "package.json");
    expect(found.problems).toEqual([
      `Refused "../evil.ts" in ${file} (pi.extensions): it points outside the package folder`,
      `Refused "${join(outside, "evil.ts")}" in ${file} (pi.extensions): it points outside the package folder`,
      `Refused "./link.ts" in ${file} (pi.extensions): it leads outside the package folder (a symlink to ${join(outside, "evil.ts")})`,
      `Refused "../*.md" in ${file} (pi.prompts): it points outside the package folder`,
    ]);
  });

  it("conventional folders, honouring .gitignore; extension subfolders by their own entry", async () => {
    const root = tree({
      "package.json": JSON.stringify({ name: "c", pi: { image: "x.png" } }),
      "extensions/a.ts": "",
      "extensions/types.d.ts": "",
      "extensions/tool/index.ts": "",
      "extensions/tool/helper.ts": "",
      "extensions/.gitignore": "generated.ts\n",
      "extensions/generated.ts": "",
      "prompts/p.md": "",
      "prompts/.gitignore": "drafts/\n",
      "prompts/drafts/d.md": "",
    });
    const found = await packageResources(root);
    expect(rel(root, found.extensions)).toEqual(["extensions/a.ts", "extensions/tool/index.ts"]);
    expect(rel(root, found.prompts)).toEqual(["prompts/p.md"]);
  });

  it("no manifest and no folders: one entry, index first, else exports/main; never the sources beside it", async () => {
    const built = tree({
      "package.json": JSON.stringify({ main: "./dist/index.js", exports: { ".": { types: "./dist/index.d.ts", import: "./dist/index.js" } } }),
      "dist/index.js": "",
      "src/index.ts": "",
    });
    expect(rel(built, (await packageResources(built)).extensions)).toEqual(["dist/index.js"]);
    const indexed = tree({ "package.json": JSON.stringify({ main: "./dist/index.js" }), "index.ts": "", "dist/index.js": "" });
    expect(rel(indexed, (await packageResources(indexed)).extensions)).toEqual(["index.ts"]);
    const escaping = tree({ "package.json": JSON.stringify({ main: "../x.js" }) });
    expect((await packageResources(escaping)).problems).toEqual([`Refused "../x.js" in ${join(escaping, "package.json")} (main): it points outside the package folder`]);
    const loose = tree({ "a.ts": "", "b.js": "", "sub/index.ts": "" });
    expect(rel(loose, (await packageResources(loose)).extensions)).toEqual(["a.ts", "b.js", "sub/index.ts"]);
  });

  it("filters narrow per kind: omitted keeps all, [] none, patterns select", async () => {
    const root = tree({ "extensions/a.ts": "", "extensions/b.ts": "", "skills/x/SKILL.md": "", "skills/y/SKILL.md": "" });
    const found = await packageResources(root, { extensions: ["!b.ts"], skills: [] });
    expect(rel(root, found.extensions)).toEqual(["extensions/a.ts"]);
    expect(found.skills).toEqual([]);
  });
});
