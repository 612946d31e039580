import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../../../test/helpers/temp.js";
import { SettingsManager } from "./settings-manager.js";

const temp = () => tempDir("atomic-settings-manager-");
const fileOf = (dir: string) => join(dir, "settings.json");
const readFile = (dir: string) => JSON.parse(readFileSync(fileOf(dir), "utf8")) as Record<string, unknown>;
type Setters = { setTheme(value: string): void; getTheme(): string | undefined; setDefaultThinkingLevel(value: string): void };

describe("pi's SettingsManager writing the settings files", () => {
  it("keeps what another process wrote to the file since the manager was created", () => {
    const agentDir = temp();
    writeFileSync(fileOf(agentDir), JSON.stringify({ theme: "dark" }));
    const manager = SettingsManager.create(temp(), agentDir) as unknown as Setters;
    // Atomic itself persists a choice meanwhile (set_model, set_thinking_level, atomic install).
    writeFileSync(fileOf(agentDir), JSON.stringify({ theme: "dark", defaultModel: "claude-sonnet-4-5", defaultProvider: "anthropic" }));
    manager.setTheme("light");
    expect(readFile(agentDir)).toEqual({ theme: "light", defaultModel: "claude-sonnet-4-5", defaultProvider: "anthropic" });
    expect(manager.getTheme()).toBe("light");
    expect((manager as unknown as SettingsManager).getSettings()).toMatchObject({ defaultModel: "claude-sonnet-4-5" });
    expect(existsSync(`${fileOf(agentDir)}.lock`)).toBe(false);
  });

  it("refuses to rewrite a file holding // comments, and leaves it as it was", () => {
    const agentDir = temp();
    const text = '{\n  // my theme\n  "theme": "dark",\n}\n';
    writeFileSync(fileOf(agentDir), text);
    const manager = SettingsManager.create(temp(), agentDir) as unknown as Setters;
    expect(manager.getTheme()).toBe("dark");
    expect(() => manager.setTheme("light")).toThrow(/Cannot update .*settings\.json: it holds \/\/ comments/);
    expect(readFileSync(fileOf(agentDir), "utf8")).toBe(text);
    expect(manager.getTheme()).toBe("dark");
  });

  it("refuses to write over a file that no longer parses", () => {
    const agentDir = temp();
    const manager = SettingsManager.create(temp(), agentDir) as unknown as Setters;
    writeFileSync(fileOf(agentDir), '{"theme": ');
    expect(() => manager.setDefaultThinkingLevel("high")).toThrow(/Invalid JSON in .*settings\.json/);
    expect(readFileSync(fileOf(agentDir), "utf8")).toBe('{"theme": ');
  });

  it("writes a project's list to the project's file, creating its folder", () => {
    const cwd = temp();
    const manager = SettingsManager.create(cwd, temp()) as unknown as { setProjectSkillPaths(value: string[]): void; getSkillPaths(): string[] };
    manager.setProjectSkillPaths(["./skills"]);
    expect(readFile(join(cwd, ".atomic"))).toEqual({ skills: ["./skills"] });
    expect(manager.getSkillPaths()).toEqual(["./skills"]);
  });

  it("an in-memory manager writes nothing", () => {
    const manager = SettingsManager.inMemory({ theme: "dark" }) as unknown as Setters;
    manager.setTheme("light");
    expect(manager.getTheme()).toBe("light");
  });
});

describe("pi's SettingsManager setters of several keys", () => {
  it("writes a model and its provider together, over the file as it is now", () => {
    const agentDir = temp();
    const manager = SettingsManager.create(temp(), agentDir);
    writeFileSync(fileOf(agentDir), JSON.stringify({ modelThinkingLevels: { "openai/gpt-5": "high" } }));
    manager.setDefaultModelAndProvider("anthropic", "claude-sonnet-4-5");
    const thinking = manager as unknown as { setModelThinkingLevel(p: string, m: string, l: string): void; removeModelThinkingLevel(p: string, m: string): void };
    thinking.setModelThinkingLevel("google", "gemini-3", "low");
    expect(readFile(agentDir)).toEqual({
      defaultProvider: "anthropic",
      defaultModel: "claude-sonnet-4-5",
      modelThinkingLevels: { "openai/gpt-5": "high", "google/gemini-3": "low" },
    });
    thinking.removeModelThinkingLevel("openai", "gpt-5");
    expect(readFile(agentDir).modelThinkingLevels).toEqual({ "google/gemini-3": "low" });
  });
});
