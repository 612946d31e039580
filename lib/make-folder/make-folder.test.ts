import { spawn } from "node:child_process";
import { existsSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { hangTimeout } from "../../test/helpers/hang.js";
import { tempDir } from "../../test/helpers/temp.js";
import { FolderError, makeFolder, makeFolderSync } from "./index.js";

const JITI_CLI = join(import.meta.dirname, "../../node_modules/jiti/lib/jiti-cli.mjs");
const LIBRARY = join(import.meta.dirname, "index.ts");

/**
 * Runs `body` (with `makeFolder`, `makeFolderSync` in scope) in a child killed after the hang
 * timeout: a regression to Node's recursive mkdir spins in C++ forever, in a thread the test's
 * own timeout could never stop. Resolves with what the child printed, or "hung".
 */
function inChild(body: string): Promise<string> {
  const script = join(tempDir("atomic-make-folder-"), "probe.ts");
  writeFileSync(script, `import { makeFolder, makeFolderSync } from ${JSON.stringify(LIBRARY)};\n${body}\n`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [JITI_CLI, script], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolve("hung");
    }, hangTimeout());
    child.on("close", () => {
      clearTimeout(timer);
      resolve(out.trim());
    });
  });
}

describe("makeFolder", () => {
  it("makes every missing level with the mode given, and accepts a folder already there", async () => {
    const root = tempDir();
    const deep = join(root, "a", "b", "c");
    await makeFolder(deep, 0o700);
    for (const level of [join(root, "a"), join(root, "a", "b"), deep]) expect(statSync(level).mode & 0o777).toBe(0o700 & ~process.umask());
    await makeFolder(deep, 0o700);
    makeFolderSync(join(root, "a", "x", "y"));
    expect(statSync(join(root, "a", "x", "y")).isDirectory()).toBe(true);
  });

  it("many at once on the same levels all succeed (EEXIST of a race is a folder, so fine)", async () => {
    const deep = join(tempDir(), "p", "q", "r");
    await Promise.all(Array.from({ length: 20 }, () => makeFolder(deep)));
    expect(statSync(deep).isDirectory()).toBe(true);
  });

  it("a file on the way is named as not a folder, sync and async", async () => {
    const root = tempDir();
    writeFileSync(join(root, "file"), "x");
    for (const target of [join(root, "file"), join(root, "file", "x"), join(root, "file", "x", "y")]) {
      const error = await makeFolder(target).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(FolderError);
      expect(error).toMatchObject({ code: "ENOTDIR", message: `${join(root, "file")} is not a folder` });
      expect(() => makeFolderSync(target)).toThrow(`${join(root, "file")} is not a folder`);
    }
  });

  it("a dangling symlink where a level goes is not a folder (never followed into being)", async () => {
    const root = tempDir();
    symlinkSync(join(root, "nowhere"), join(root, "link"));
    await expect(makeFolder(join(root, "link", "x"))).rejects.toThrow(`${join(root, "link")} is not a folder`);
    expect(() => makeFolderSync(join(root, "link", "x"))).toThrow(`${join(root, "link")} is not a folder`);
    expect(existsSync(join(root, "nowhere"))).toBe(false);
  });

  it("a symlink to a folder is a folder", async () => {
    const root = tempDir();
    mkdirSync(join(root, "real"));
    symlinkSync(join(root, "real"), join(root, "link"));
    await makeFolder(join(root, "link", "x"));
    expect(statSync(join(root, "real", "x")).isDirectory()).toBe(true);
  });

  it.runIf(process.platform === "linux")("procfs refusing a child fails at once with ENOENT, where Node's recursive mkdir never settles", async () => {
    const out = await inChild(`
      for (const run of [() => makeFolder("/proc/nope/x"), async () => makeFolderSync("/proc/nope/x/y")]) {
        try { await run(); console.log("made"); } catch (error) { console.log(error.code + " " + error.message); }
      }`);
    expect(out.split("\n")).toEqual([
      "ENOENT Cannot create folder /proc/nope: the file system refuses it (ENOENT)",
      "ENOENT Cannot create folder /proc/nope: the file system refuses it (ENOENT)",
    ]);
  });
});
