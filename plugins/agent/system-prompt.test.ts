import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { baseSystemPrompt, promptText } from "./system-prompt.js";

const context = { cwd: "/w", tools: [{ name: "read", description: "Read a file.\nMore.", parameters: {} }], model: null } as never;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "atomic-prompt-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("system prompt frame", () => {
  it("persona and tools by default; --system-prompt replaces both; --append-system-prompt follows either", () => {
    const plain = baseSystemPrompt("", context);
    expect(plain).toMatch(/^You are Atomic/);
    expect(plain).toContain("Available tools:\n- read: Read a file.");
    expect(baseSystemPrompt("", context, { systemPrompt: "You review code. " })).toBe("You review code.");
    expect(baseSystemPrompt("", context, { systemPrompt: "Review.", append: " Be brief. " })).toBe("Review.\n\nBe brief.");
    expect(baseSystemPrompt("", context, { append: "Be brief." })).toMatch(/- read: Read a file\.\n\nBe brief\.$/);
  });

  it("a flag value naming a file is the file's text (relative to the cwd); anything else is the text", async () => {
    await writeFile(join(dir, "SYSTEM.md"), "From the file.");
    expect(await promptText("SYSTEM.md", dir, {})).toBe("From the file.");
    expect(await promptText(join(dir, "SYSTEM.md"), "/", {})).toBe("From the file.");
    expect(await promptText("You are terse.", dir, {})).toBe("You are terse.");
    expect(await promptText(dir, dir, {})).toBe(dir);
    expect(await promptText("x".repeat(5000), dir, {})).toBe("x".repeat(5000));
    expect(await promptText("  ", dir, {})).toBeUndefined();
    expect(await promptText(undefined, dir, {})).toBeUndefined();
    // A path that names no file: still the text, but said (a slip of the name is the likely cause).
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    for (const value of ["./mysystem.md", "~/extra.md", "SYSTEM.txt", "/etc/none", "You are terse.", "Read ./notes.md first."]) await promptText(value, dir, { HOME: dir }, warn);
    expect(warnings).toEqual([
      `"./mysystem.md" names no file (${join(dir, "mysystem.md")}): it is used as the text itself`,
      `"~/extra.md" names no file (${join(dir, "extra.md")}): it is used as the text itself`,
      `"SYSTEM.txt" names no file (${join(dir, "SYSTEM.txt")}): it is used as the text itself`,
      `"/etc/none" names no file (/etc/none): it is used as the text itself`,
    ]);
  });
});
