import { describe, expect, it } from "vitest";
import type { InputEvent } from "../agent/api.js";
import { parseSlash, type SlashCommandProvider } from "./api.js";
import { SlashCommandRegistry } from "./registry.js";

const input = (text: string, via: InputEvent["via"] = "prompt"): InputEvent => ({ text, via, source: "rpc" });

function setup() {
  const failures: string[] = [];
  const registry = new SlashCommandRegistry((owner, event, error) => failures.push(`${owner}/${event}: ${error}`));
  const calls: string[] = [];
  const provider = (source: SlashCommandProvider["source"], names: string[], run: (name: string, args: string) => unknown): SlashCommandProvider => ({
    owner: `${source}-owner`,
    source,
    entries: () => names.map((name) => ({ name, source })),
    invoke: ({ entry, args }) => {
      calls.push(`${source}:${entry.name}(${args})`);
      return run(entry.name, args) as never;
    },
  });
  return { registry, failures, calls, provider };
}

describe("parseSlash", () => {
  it.each([
    ["/review a b", { name: "review", args: "a b" }],
    ["/skill:x\n\nmore  ", { name: "skill:x", args: "more" }],
    ["/solo", { name: "solo", args: "" }],
    ["/usr/bin/ls -l", { name: "usr/bin/ls", args: "-l" }],
  ])("%j", (text, expected) => {
    expect(parseSlash(text)).toEqual(expected);
  });

  it.each(["hello /x", "/", "/ spaced", "//comment", ""])("%j is not a command", (text) => {
    expect(parseSlash(text)).toBeUndefined();
  });
});

describe("SlashCommandRegistry", () => {
  it("yields a built-in command's name to an extension that registers it, even one registered later (pi-mcp-adapter's /mcp)", async () => {
    const { registry } = setup();
    const ran: string[] = [];
    const owned = (owner: string, names: string[], builtin: boolean): SlashCommandProvider => ({
      owner,
      source: "extension",
      builtin,
      entries: () => names.map((name) => ({ name, source: "extension", description: owner })),
      invoke: ({ entry }) => (ran.push(`${owner}:${entry.name}`), { handled: true }),
    });
    registry.addProvider(owned("builtin", ["llama", "mcp"], true));
    registry.addProvider(owned("adapter", ["mcp"], false));
    expect((await registry.list()).map((e) => `${e.description}:${e.name}`)).toEqual(["adapter:mcp", "builtin:llama"]);
    await registry.dispatch("extension", input("/mcp"));
    await registry.dispatch("extension", input("/llama"));
    expect(ran).toEqual(["adapter:mcp", "builtin:llama"]);
  });

  it("lists extension commands, then templates, then skills, whatever the registration order", async () => {
    const { registry, provider } = setup();
    registry.addProvider(provider("skill", ["skill:a"], () => undefined));
    registry.addProvider(provider("prompt", ["t"], () => undefined));
    registry.addProvider(provider("extension", ["e"], () => undefined));
    expect((await registry.list()).map((e) => `${e.source}:${e.name}`)).toEqual(["extension:e", "prompt:t", "skill:skill:a"]);
  });

  it("expands only names its stage's providers own; unknown /words pass through untouched", async () => {
    const { registry, provider, calls } = setup();
    registry.addProvider(provider("prompt", ["t"], (_n, args) => ({ text: `T(${args})` })));
    expect(await registry.dispatch("prompt", input("/t x y"))).toMatchObject({ text: "T(x y)" });
    expect(await registry.dispatch("skill", input("/t x y"))).toMatchObject({ text: "/t x y" });
    expect(await registry.dispatch("prompt", input("/unknown x"))).toMatchObject({ text: "/unknown x" });
    expect(await registry.dispatch("prompt", input("plain text"))).toMatchObject({ text: "plain text" });
    expect(calls).toEqual(["prompt:t(x y)"]);
  });

  it("an extension command is handled for prompt and refused for steer/follow_up with the documented string", async () => {
    const { registry, provider, calls } = setup();
    registry.addProvider(provider("extension", ["deploy"], () => ({ handled: true })));
    expect(await registry.dispatch("extension", input("/deploy now"))).toMatchObject({ handled: true });
    for (const via of ["steer", "follow_up"] as const) {
      expect(await registry.dispatch("extension", input("/deploy", via))).toMatchObject({
        rejected: 'Extension command "/deploy" cannot be queued. Use prompt() or execute the command when not streaming.',
      });
    }
    expect(calls).toEqual(["extension:deploy(now)"]);
  });

  it("leaves a handled or rejected input alone", async () => {
    const { registry, provider, calls } = setup();
    registry.addProvider(provider("prompt", ["t"], () => ({ text: "expanded" })));
    expect(await registry.dispatch("prompt", { ...input("/t"), handled: true })).toMatchObject({ text: "/t" });
    expect(await registry.dispatch("prompt", { ...input("/t"), rejected: "no" })).toMatchObject({ text: "/t" });
    expect(calls).toEqual([]);
  });

  it("a throwing command is reported and counts as handled; a throwing expansion is reported and rejects the input", async () => {
    const { registry, provider, failures } = setup();
    registry.addProvider(provider("extension", ["boom"], () => Promise.reject(new Error("kaput"))));
    registry.addProvider(
      provider("skill", ["skill:gone"], () => {
        throw new Error("unreadable");
      }),
    );
    expect(await registry.dispatch("extension", input("/boom"))).toMatchObject({ handled: true });
    expect(await registry.dispatch("skill", input("/skill:gone x"))).toEqual({ ...input("/skill:gone x"), rejected: "Cannot expand /skill:gone: unreadable" });
    expect(failures).toEqual(["extension-owner/command: kaput", "skill-owner/skill_expansion: unreadable"]);
  });

  it("a provider whose listing fails is reported and contributes nothing; removal takes a provider out", async () => {
    const { registry, provider, failures } = setup();
    const remove = registry.addProvider(provider("prompt", ["t"], () => ({ text: "x" })));
    registry.addProvider({ owner: "broken", source: "skill", entries: () => Promise.reject(new Error("disk gone")), invoke: () => undefined });
    expect((await registry.list()).map((e) => e.name)).toEqual(["t"]);
    expect(failures).toEqual(["broken/commands: disk gone"]);
    remove();
    expect(await registry.list()).toEqual([]);
  });
});

describe("handles", () => {
  it("a provider that cannot own a name is not asked for its entries", async () => {
    const { registry } = setup();
    let asked = 0;
    registry.addProvider({
      owner: "s",
      source: "skill",
      handles: (name) => name.startsWith("skill:"),
      entries: () => (asked++, [{ name: "skill:a", source: "skill" }]),
      invoke: () => ({ text: "A" }),
    });
    expect(await registry.dispatch("skill", input("/review x"))).toMatchObject({ text: "/review x" });
    expect(asked).toBe(0);
    expect(await registry.dispatch("skill", input("/skill:a"))).toMatchObject({ text: "A" });
    expect(asked).toBe(1);
  });
});

describe("unknown", () => {
  const skills = (names: string[]): SlashCommandProvider => ({
    owner: "skills",
    source: "skill",
    handles: (name) => name.startsWith("skill:"),
    entries: () => names.map((name) => ({ name, source: "skill" as const })),
    unknown: (name) => `Unknown skill "${name.slice(6)}".`,
    invoke: () => ({ text: "expanded" }),
  });

  it("a name the provider claims and no one lists is refused (prompt, steer and follow_up alike); other input passes", async () => {
    const { registry } = setup();
    registry.addProvider(skills(["skill:a"]));
    for (const via of ["prompt", "steer", "follow_up"] as const) {
      expect(await registry.dispatch("skill", input("/skill:nosuch go", via))).toEqual({ ...input("/skill:nosuch go", via), rejected: 'Unknown skill "nosuch".' });
    }
    expect(await registry.dispatch("skill", input("/skill:a"))).toMatchObject({ text: "expanded" });
    expect(await registry.dispatch("skill", input("use /skill:nosuch later"))).toEqual(input("use /skill:nosuch later"));
    expect(await registry.dispatch("skill", input("/review x"))).toEqual(input("/review x"));
  });

  it("a later stage that lists the name keeps it; a refusal that throws is reported and the input passes", async () => {
    const { registry, provider, failures } = setup();
    registry.addProvider(skills([]));
    registry.addProvider(provider("prompt", ["skill:odd"], () => ({ text: "template" })));
    expect(await registry.expand(input("/skill:odd"))).toMatchObject({ text: "template" });

    const other = new SlashCommandRegistry((owner, event, error) => failures.push(`${owner}/${event}: ${error}`));
    other.addProvider({
      ...skills([]),
      unknown: () => {
        throw new Error("no listing");
      },
    });
    expect(await other.dispatch("skill", input("/skill:x"))).toEqual(input("/skill:x"));
    expect(failures).toEqual(["skills/skill_expansion: no listing"]);
  });
});

describe("expand", () => {
  it("runs the stages in order, one pass: an extension command first, else a skill, else a template", async () => {
    const { registry, provider, calls } = setup();
    registry.addProvider(provider("prompt", ["t", "both"], (name) => ({ text: `template ${name}` })));
    registry.addProvider(provider("skill", ["skill:s"], () => ({ text: "/t from the skill" })));
    registry.addProvider(provider("extension", ["both"], () => ({ handled: true })));
    expect(await registry.expand(input("/skill:s"))).toMatchObject({ text: "/t from the skill" });
    expect(await registry.expand(input("/t"))).toMatchObject({ text: "template t" });
    expect(await registry.expand(input("/both"))).toMatchObject({ handled: true });
    // The skill's output starts with /t, but an expansion is not expanded again.
    expect(calls).toEqual(["skill:skill:s()", "prompt:t()", "extension:both()"]);
  });
});
