/**
 * The slash-command registry in process, with a test plugin shaped like the extensions plugin
 * (issue 12): extension commands registered as a provider, extra skill/prompt paths through
 * `resources_discover`. Checks the get_commands shape for all three sources, extension commands
 * handled by `prompt` and refused by steer/follow_up, and the skills section of the system prompt.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { definePlugin } from "../kernel/index.js";
import type { InputEvent } from "../plugins/agent/api.js";
import type { Kernel } from "../kernel/kernel.js";
import slashCommands from "../plugins/slash-commands/index.js";
import skills from "../plugins/skills/index.js";
import promptTemplates from "../plugins/prompt-templates/index.js";
import tools from "../plugins/tools/index.js";
import { bootKernel, removeDir, tempDir } from "./fake-llm/harness.js";

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeDir(dir);
});

/** What the extensions plugin will do: one provider for its commands, paths through resources_discover. */
function extensionLike(root: string, ran: string[]) {
  return definePlugin({
    name: "extension-like",
    dependsOn: ["slash-commands"],
    apply(k) {
      const agent = k.service("agent");
      k.service("slashCommands").addProvider({
        owner: "/ext/session.ts",
        source: "extension",
        entries: () => [{ name: "session-name", description: "Set or clear session name", source: "extension", location: "user", path: "/ext/session.ts" }],
        invoke: ({ args, input }) => {
          ran.push(`${args}|via=${input.via}|streaming=${agent.isStreaming()}`);
          return { handled: true };
        },
      });
      k.hooks.resources_discover.tap("extension-like", (event) => ({
        ...event,
        skillPaths: [...event.skillPaths, join(root, "ext-skills")],
        promptPaths: [...event.promptPaths, join(root, "ext-prompts")],
      }));
    },
  });
}

async function boot(ran: string[]): Promise<{ kernel: Kernel; root: string }> {
  const root = await tempDir();
  dirs.push(root);
  mkdirSync(join(root, "skills", "brave-search"), { recursive: true });
  writeFileSync(join(root, "skills", "brave-search", "SKILL.md"), "---\nname: brave-search\ndescription: Web search via Brave API\n---\nSearch.\n");
  mkdirSync(join(root, ".atomic", "prompts"), { recursive: true });
  writeFileSync(join(root, ".atomic", "prompts", "fix-tests.md"), "---\ndescription: Fix failing tests\n---\nFix $1");
  mkdirSync(join(root, "ext-skills", "ext-skill"), { recursive: true });
  writeFileSync(join(root, "ext-skills", "ext-skill", "SKILL.md"), "---\nname: ext-skill\ndescription: From an extension\n---\nX\n");
  mkdirSync(join(root, "ext-prompts"), { recursive: true });
  writeFileSync(join(root, "ext-prompts", "ext-prompt.md"), "Extension prompt $@");
  const kernel = await bootKernel({ agentDir: root, plugins: [tools, slashCommands, skills, promptTemplates, extensionLike(root, ran)] });
  return { kernel, root };
}

const info = (path: string, source: string, scope: string) => ({ path, source, scope, origin: "top-level" });

describe("slash-commands in process", () => {
  it("get_commands lists extension commands, templates and skills in the protocol's shape", async () => {
    const { kernel, root } = await boot([]);
    expect(await kernel.commands.invoke("get_commands", {})).toEqual({
      commands: [
        // pi 1.x's sourceInfo on each: the file, and how it was found.
        { name: "session-name", description: "Set or clear session name", source: "extension", path: "/ext/session.ts", sourceInfo: info("/ext/session.ts", "auto", "user") },
        {
          name: "fix-tests",
          description: "Fix failing tests",
          source: "prompt",
          location: "project",
          path: join(root, ".atomic", "prompts", "fix-tests.md"),
          sourceInfo: info(join(root, ".atomic", "prompts", "fix-tests.md"), "auto", "project"),
        },
        {
          name: "ext-prompt",
          description: "Extension prompt $@",
          source: "prompt",
          location: "path",
          path: join(root, "ext-prompts", "ext-prompt.md"),
          sourceInfo: info(join(root, "ext-prompts", "ext-prompt.md"), "extension", "temporary"),
        },
        {
          name: "skill:brave-search",
          description: "Web search via Brave API",
          source: "skill",
          location: "user",
          path: join(root, "skills", "brave-search", "SKILL.md"),
          sourceInfo: info(join(root, "skills", "brave-search", "SKILL.md"), "auto", "user"),
        },
        {
          name: "skill:ext-skill",
          description: "From an extension",
          source: "skill",
          location: "path",
          path: join(root, "ext-skills", "ext-skill", "SKILL.md"),
          sourceInfo: info(join(root, "ext-skills", "ext-skill", "SKILL.md"), "extension", "temporary"),
        },
      ],
    });
  });

  it("prompt runs an extension command (no model needed, nothing sent); steer and follow_up refuse it", async () => {
    const ran: string[] = [];
    const { kernel } = await boot(ran);
    await kernel.commands.invoke("prompt", { message: "/session-name My work" });
    expect(ran).toEqual(["My work|via=prompt|streaming=false"]);
    for (const type of ["steer", "follow_up"]) {
      await expect(kernel.commands.invoke(type, { message: "/session-name x" })).rejects.toThrow(
        'Extension command "/session-name" cannot be queued. Use prompt() or execute the command when not streaming.',
      );
    }
    expect(ran).toHaveLength(1);
    expect(kernel.services.get("agent").pendingMessageCount()).toBe(0);
  });

  it("expansion stages run in order on the input hook: extension taps between commands and skills see the raw text", async () => {
    const seen: string[] = [];
    const root = await tempDir();
    dirs.push(root);
    mkdirSync(join(root, "prompts"), { recursive: true });
    writeFileSync(join(root, "prompts", "t.md"), "expanded $1");
    const observer = definePlugin({
      name: "observer",
      apply(k) {
        k.hooks.input.tap("observer", (event: InputEvent) => (seen.push(event.text), event));
      },
    });
    const kernel = await bootKernel({ agentDir: root, plugins: [slashCommands, promptTemplates, observer] });
    await kernel.commands.invoke("follow_up", { message: "/t one" });
    expect(seen).toEqual(["/t one"]);
    expect(kernel.services.get("agent").pendingMessageCount()).toBe(1);
  });

  it("an extension's own message is not expanded by the hook; slashCommands.expand does it on request", async () => {
    const { kernel } = await boot([]);
    const agent = kernel.services.get("agent");
    let queued: string[] = [];
    kernel.events.subscribe((event) => {
      if (event.type === "queue_update") queued = event.followUp;
    });
    await agent.prompt({ text: "/fix-tests a.ts", via: "follow_up", source: "extension" });
    const expanded = await kernel.services.get("slashCommands").expand({ text: "/fix-tests b.ts", via: "follow_up", source: "extension" });
    await agent.prompt({ text: expanded.text, via: "follow_up", source: "extension" });
    expect(queued).toEqual(["/fix-tests a.ts", "Fix b.ts"]);
  });

  it("the system prompt lists skills between persona and footer, only while the read tool is active", async () => {
    const { kernel, root } = await boot([]);
    const build = () => kernel.hook("system_prompt").promise("", { cwd: root, tools: kernel.tools.specs(), model: null });
    const prompt = await build();
    const skillsAt = prompt.indexOf("<available_skills>");
    expect(skillsAt).toBeGreaterThan(prompt.indexOf("Available tools:"));
    expect(skillsAt).toBeLessThan(prompt.indexOf("Current working directory:"));
    expect(prompt).toContain(
      `<name>brave-search</name>\n    <description>Web search via Brave API</description>\n    <location>${join(root, "skills", "brave-search", "SKILL.md")}</location>`,
    );
    kernel.tools.setActive(["bash", "write"].filter((name) => kernel.tools.get(name)));
    expect(await build()).not.toContain("available_skills");
  });
});
