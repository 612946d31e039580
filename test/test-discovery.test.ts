/**
 * Every `*.test.ts` in the repository is one vitest runs, once: a folder missing from the config's
 * `include` lists has tests that silently never run (host/ had four failing ones that way).
 */
import { readdirSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import config from "../vitest.config.js";

const ROOT = resolve(import.meta.dirname, "..");
const SKIP = new Set(["node_modules", "dist", ".git"]);

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...testFiles(path));
    else if (name.endsWith(".test.ts")) out.push(relative(ROOT, path));
  }
  return out;
}

type Project = { test?: { name?: string; include?: string[]; exclude?: string[] } };

/** The projects of the config whose include (minus its exclude) matches `file`. */
function projectsOf(file: string): string[] {
  const projects = (config.test?.projects ?? []) as Project[];
  return projects.filter(({ test }) => picomatch(test?.include ?? [])(file) && !picomatch(test?.exclude ?? [])(file)).map(({ test }) => test?.name ?? "?");
}

describe("test discovery", () => {
  it("the vitest config runs every test file in the repository, in exactly one project", () => {
    const files = testFiles(ROOT);
    expect(files.length).toBeGreaterThan(200);
    expect(files.filter((file) => projectsOf(file).length !== 1).map((file) => `${file}: ${projectsOf(file).join(", ") || "none"}`)).toEqual([]);
  });

  it("end-to-end files run in the isolated project, the others in the shared one", () => {
    expect(projectsOf("test/readme.e2e.test.ts")).toEqual(["e2e"]);
    expect(projectsOf("plugins/tools/edit.e2e.test.ts")).toEqual(["e2e"]);
    expect(projectsOf("kernel/admission.test.ts")).toEqual(["unit"]);
  });
});
