import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  checkFile,
  checkFolder,
  cliRoots,
  discoveredRoots,
  FreshScan,
  OnceNotes,
  parseFrontmatter,
  projectAncestry,
  provenanceOf,
  readResourceText,
  settingRoots,
  StampedCache,
} from "./index.js";
import { parseSimpleMapping } from "./frontmatter.js";
import type { KernelConfig } from "../../kernel/index.js";

const dirs: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), "atomic-res-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("readResourceText", () => {
  it("reads UTF-8 text (a BOM dropped) with the stamp of what it read", async () => {
    const dir = temp();
    writeFileSync(join(dir, "a.md"), "\uFEFFhéllo");
    const read = await readResourceText(join(dir, "a.md"));
    expect(read).toMatchObject({ ok: true, text: "héllo", stamp: { size: 9 } });
  });

  it.each([
    ["binary (NUL bytes)", Buffer.from([0x2d, 0x2d, 0x2d, 0x00, 0x01]), "a binary file (it contains NUL bytes)"],
    ["invalid UTF-8", Buffer.from([0x68, 0xff, 0xfe, 0x69]), "not valid UTF-8 text"],
  ])("refuses %s", async (_label, bytes, problem) => {
    const dir = temp();
    writeFileSync(join(dir, "x.md"), bytes);
    expect(await readResourceText(join(dir, "x.md"))).toMatchObject({ ok: false, problem });
  });

  it("refuses a file over the cap without reading it", async () => {
    const dir = temp();
    writeFileSync(join(dir, "big.md"), "x".repeat(1024 * 1024));
    const read = await readResourceText(join(dir, "big.md"));
    expect(read).toMatchObject({ ok: false, problem: "too large (1048576 bytes; the limit is 262144)" });
  });

  it("refuses a FIFO without blocking on it", async () => {
    const dir = temp();
    execFileSync("mkfifo", [join(dir, "pipe.md")]);
    expect(await readResourceText(join(dir, "pipe.md"))).toMatchObject({ ok: false, problem: "not a regular file (a FIFO, socket or device)" });
    expect(await checkFile(join(dir, "pipe.md"))).toMatchObject({ ok: false, problem: "not a regular file (a FIFO, socket or device)" });
  });
});

describe("parseFrontmatter", () => {
  it("splits YAML and body", async () => {
    expect(await parseFrontmatter("---\nname: a\nlist: [1, 2]\n---\nBody\n")).toEqual({ ok: true, present: true, data: { name: "a", list: [1, 2] }, body: "Body\n" });
    expect(await parseFrontmatter("---\r\nname: a\r\n---\r\nBody")).toMatchObject({ ok: true, data: { name: "a" }, body: "Body" });
    expect(await parseFrontmatter("---\n---\nBody")).toEqual({ ok: true, present: true, data: {}, body: "Body" });
  });

  it("text without frontmatter is all body", async () => {
    expect(await parseFrontmatter("Just text\n---\n")).toEqual({ ok: true, present: false, data: {}, body: "Just text\n---\n" });
  });

  it.each([
    ["---\nname: a\nno end", "its frontmatter has no closing --- line"],
    ["---\n- a\n- b\n---\n", "its frontmatter is not a YAML mapping (key: value lines)"],
    ["---\nname: [unclosed\n---\n", "invalid YAML frontmatter"],
  ])("reports %j", async (text, problem) => {
    const result = await parseFrontmatter(text);
    expect(result.ok).toBe(false);
    expect((result as { problem: string }).problem.startsWith(problem)).toBe(true);
  });
});

describe("places", () => {
  it("the project ancestry stops at the repository root, and is the cwd alone outside one", async () => {
    const root = temp();
    mkdirSync(join(root, "repo", ".git"), { recursive: true });
    mkdirSync(join(root, "repo", "a", "b"), { recursive: true });
    expect(await projectAncestry(join(root, "repo", "a", "b"))).toEqual([join(root, "repo", "a", "b"), join(root, "repo", "a"), join(root, "repo")]);
    const outside = temp();
    expect(await projectAncestry(outside)).toEqual([outside]);
  });

  it("setting paths resolve against the folder of the file that set them; a project's stay confined", () => {
    const config = (source: "user" | "project") =>
      ({ agentDir: "/agent", cwd: "/work/p", env: { HOME: "/home/u" }, settingsSources: { sources: { skills: source } } }) as unknown as KernelConfig;
    const user = { source: "local", scope: "user", origin: "top-level" };
    expect(settingRoots(config("user"), "skills", ["mine", "~/s", "/abs"], "/work/p")).toEqual([
      { path: "/agent/mine", location: "path", provenance: user },
      { path: "/home/u/s", location: "path", provenance: user },
      { path: "/abs", location: "path", provenance: user },
    ]);
    expect(settingRoots(config("project"), "skills", ["../shared"], "/work/p")).toEqual([
      { path: "/work/p/shared", location: "path", confineTo: "/work/p", provenance: { source: "local", scope: "project", origin: "top-level" } },
    ]);
  });

  it("provenance (get_commands sourceInfo): conventional folders are auto, flags cli, extension paths extension", () => {
    expect(provenanceOf({ path: "/agent/skills", location: "user" })).toEqual({ source: "auto", scope: "user", origin: "top-level" });
    expect(provenanceOf({ path: "/work/p/.atomic/skills", location: "project" })).toEqual({ source: "auto", scope: "project", origin: "top-level" });
    expect(cliRoots({ cwd: "/work/p", env: { HOME: "/home/u" } }, ["s", "~/t"])).toEqual([
      { path: "/work/p/s", location: "path", provenance: { source: "cli", scope: "temporary", origin: "top-level" } },
      { path: "/home/u/t", location: "path", provenance: { source: "cli", scope: "temporary", origin: "top-level" } },
    ]);
    expect(discoveredRoots("/work/p", ["x"]).map(provenanceOf)).toEqual([{ source: "extension", scope: "temporary", origin: "top-level" }]);
  });

  it("a folder symlink leaving the confinement is refused; a self-loop is reported as such", async () => {
    const root = temp();
    const outside = temp();
    mkdirSync(join(root, "inside"));
    symlinkSync(outside, join(root, "escape"));
    symlinkSync(join(root, "loop"), join(root, "loop"));
    expect(await checkFolder(join(root, "inside"), root)).toMatchObject({ ok: true, isFile: false });
    expect(await checkFolder(join(root, "escape"), root)).toMatchObject({ ok: false, problem: `a symlink leaving the project (it leads to ${outside})` });
    expect(await checkFolder(join(root, "escape"))).toMatchObject({ ok: true });
    expect(await checkFolder(join(root, "loop"))).toMatchObject({ ok: false, problem: "a symlink loop" });
    expect(await checkFolder(join(root, "missing"))).toMatchObject({ ok: false, missing: true });
  });
});

describe("OnceNotes", () => {
  it("says each note once per subject until the subject is cleared", () => {
    const said: string[] = [];
    const notes = new OnceNotes({ warn: (message) => said.push(message) });
    notes.note("a", "broken");
    notes.note("a", "broken");
    notes.note("a", "other");
    notes.note("b", "broken");
    notes.clear("a");
    notes.note("a", "broken");
    expect(said).toEqual(["broken", "other", "broken", "broken"]);
  });
});

describe("FreshScan", () => {
  it("shares a running scan; a caller arriving during it gets the next scan, started after it", async () => {
    const releases: (() => void)[] = [];
    let started = 0;
    const scan = new FreshScan(async () => {
      const run = ++started;
      await new Promise<void>((resolve) => releases.push(resolve));
      return run;
    });
    const first = scan.get();
    const again = scan.get();
    const alsoAgain = scan.get();
    expect(started).toBe(1);
    releases.shift()!();
    expect(await first).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toBe(2);
    releases.shift()!();
    expect(await again).toBe(2);
    expect(await alsoAgain).toBe(2);
  });
});

describe("StampedCache", () => {
  it("hits only for the same stamp and forgets files a scan did not visit", () => {
    const cache = new StampedCache<string>();
    const stamp = { mtimeMs: 1, size: 2, ino: 3 };
    cache.set("/a", stamp, "A");
    cache.set("/b", stamp, "B");
    cache.sweep();
    expect(cache.get("/a", stamp)).toBe("A");
    expect(cache.get("/a", { ...stamp, mtimeMs: 2 })).toBeUndefined();
    cache.sweep();
    expect(cache.get("/b", stamp)).toBeUndefined();
  });
});

describe("parseSimpleMapping (the fast path) agrees with the yaml package or declines", () => {
  const samples = [
    "name: a\ndescription: Web search via Brave API",
    "description: Use [brackets], {braces}, commas, and 'quotes' inside",
    "flag: true\nother: False\nnothing: null\nNULLISH: NULL",
    "quoted: \"a: b # c\"\nsingle: 'x y'",
    "description: constructor\nname: toString",
    "a: yes\nb: on\nc: No",
    "a: 2024-01-01",
    "a: foo#bar",
    "a:  spaced   inside  ",
    "a: trailing colon:",
    "a: foo: bar",
    "a: foo # comment",
    "a: 12",
    "a: .5",
    "a: +1",
    "a: -x",
    "a: - x",
    "a: [1, 2]",
    "a: {b: 1}",
    "a: |\n  block",
    "a:\n  nested: 1",
    "a: 'it''s'",
    'a: "esc\\"aped"',
    "a: 'back\\slash'",
    "# comment\na: b",
    "a: b\na: c",
    "__proto__: x",
    "a: ~",
    "a: !tag x",
    "a: &anchor x",
    "a: *alias",
    "a: @reserved",
    "a: `tick",
    "a: %dir",
    "a: ?q",
    "a: x\n\n\nb: y",
    "a: x\r\nb: y",
    "a-b_c: x",
    "a: über naïve",
  ];
  it.each(samples)("%j", async (sample) => {
    const { parse } = await import("yaml");
    const fast = parseSimpleMapping(sample);
    if (fast === undefined) return;
    expect(fast).toEqual(parse(sample));
  });

  it("takes the common frontmatter shapes", () => {
    expect(parseSimpleMapping("name: a\ndescription: Web search via Brave API\ndisable-model-invocation: true")).toEqual({
      name: "a",
      description: "Web search via Brave API",
      "disable-model-invocation": true,
    });
    expect(parseSimpleMapping("a: 12")).toBeUndefined();
    expect(parseSimpleMapping("a: b\na: c")).toBeUndefined();
  });
});
