import { describe, expect, it } from "vitest";
import { ToolRegistry, type CliOptions, type ToolDefinition } from "../../kernel/index.js";
import { piDefaultTools, toolSelection } from "./active-tools.js";

/** A registry with Atomic's seven tools (grep, find, ls inactive by default) and an extension's two. */
function registry(): ToolRegistry {
  const tools = new ToolRegistry();
  const tool = (name: string, extra: Partial<ToolDefinition> = {}): ToolDefinition => ({
    name,
    description: name,
    parameters: { jsonSchema: { type: "object" } },
    execute: async () => ({ content: [] }),
    ...extra,
  });
  for (const name of ["read", "edit", "write", "bash"]) tools.register(tool(name));
  for (const name of ["grep", "find", "ls"]) tools.register(tool(name, { defaultActive: false }));
  tools.register(tool("ext_search"), "ext");
  tools.register(tool("ext_hidden", { defaultActive: false }), "ext");
  return tools;
}

/** The active names with these flags and setting; warnings collected. */
function active(cli: Partial<CliOptions>, setting?: string[]): { names: string[]; warnings: string[] } {
  const tools = registry();
  const warnings: string[] = [];
  tools.setActive(toolSelection({ cli: { positionals: [], ...cli }, setting, registered: tools.names(), warn: (message) => void warnings.push(message) }));
  return { names: tools.activeNames(), warnings };
}

describe("tool selection (pi 1.6's rules)", () => {
  it("defaults: pi's four and every tool registered active; grep, find and ls only when named", () => {
    expect(active({}).names).toEqual(["read", "edit", "write", "bash", "ext_search"]);
  });

  it("--tools names (or patterns) are the whole selection; unknown names are a usage error listing the tools", () => {
    expect(active({ tools: " read, grep,find ,ls,read" }).names).toEqual(["read", "grep", "find", "ls"]);
    expect(active({ tools: "ext_*,read" }).names).toEqual(["read", "ext_search", "ext_hidden"]);
    expect(() => active({ tools: "read,grpe,sh" })).toThrow(
      expect.objectContaining({ code: "E_USAGE", message: "Unknown tools in --tools: grpe, sh. Available: read, edit, write, bash, grep, find, ls, ext_search, ext_hidden" }),
    );
  });

  it("--tools with only +name/-name entries changes the defaults; mixing both kinds is a usage error", () => {
    expect(active({ tools: "+grep,-write" }).names).toEqual(["read", "edit", "bash", "grep", "ext_search"]);
    expect(() => active({ tools: "read,+grep" })).toThrow(
      expect.objectContaining({ code: "E_USAGE", message: expect.stringContaining("--tools mixes tool names with +name/-name entries") }),
    );
  });

  it("--no-tools offers none, and --tools adds some back; --no-builtin-tools keeps only extension tools", () => {
    expect(active({ noTools: true }).names).toEqual([]);
    expect(active({ noTools: true, tools: "bash" }).names).toEqual(["bash"]);
    expect(active({ noTools: true, tools: "+ls" }).names).toEqual(["ls"]);
    expect(active({ noBuiltinTools: true }).names).toEqual(["ext_search"]);
    expect(active({ noBuiltinTools: true, tools: "+read" }).names).toEqual(["read", "ext_search"]);
  });

  it("--exclude-tools removes names and patterns after everything else; an unknown name is a warning", () => {
    expect(active({ excludeTools: "bash,ext_*" }).names).toEqual(["read", "edit", "write"]);
    expect(active({ tools: "read,grep,find", excludeTools: "g*" }).names).toEqual(["read", "find"]);
    expect(active({ excludeTools: "nope" }).warnings).toEqual(["--exclude-tools: no tool is named nope"]);
  });

  it("the tools setting: names choose the built-in tools (extension tools keep their default), +/- entries change the defaults", () => {
    expect(active({}, ["read", "grep"]).names).toEqual(["read", "grep", "ext_search"]);
    expect(active({}, ["read", "ext_hidden"]).names).toEqual(["read", "ext_search", "ext_hidden"]);
    expect(active({}, []).names).toEqual(["ext_search"]);
    expect(active({}, ["+ls", "-bash"]).names).toEqual(["read", "edit", "write", "ls", "ext_search"]);
    // --tools names override the setting; +/- entries of --tools apply on top of it.
    expect(active({ tools: "write" }, ["read", "grep"]).names).toEqual(["write"]);
    expect(active({ tools: "+find" }, ["read", "grep"]).names).toEqual(["read", "grep", "find", "ext_search"]);
  });

  it("a setting naming an unknown tool, or mixing both kinds, is a warning, not a failure", () => {
    expect(active({}, ["read", "gone"])).toEqual({ names: ["read", "ext_search"], warnings: ["The tools setting names a tool that is not registered: gone (left out)"] });
    const mixed = active({}, ["read", "+grep"]);
    expect(mixed.names).toEqual(["read", "edit", "write", "bash", "ext_search"]);
    expect(mixed.warnings[0]).toContain("The tools setting mixes tool names with +name/-name entries");
  });

  it("a tool registered after the selection was made follows the rule (an extension's, at run time)", () => {
    const tools = registry();
    tools.setActive(toolSelection({ cli: { positionals: [], excludeTools: "late_x" }, setting: undefined, registered: tools.names(), warn: () => undefined }));
    const late = (name: string): ToolDefinition => ({ name, description: name, parameters: { jsonSchema: { type: "object" } }, execute: async () => ({ content: [] }) });
    tools.register(late("late_x"), "ext", { late: true });
    tools.register(late("late_y"), "ext", { late: true });
    expect(tools.activeNames()).toEqual(["read", "edit", "write", "bash", "ext_search", "late_y"]);
  });
});

describe("pi's defaultTools", () => {
  it("a project list of only +/- entries changes the user's list; any other replaces it", () => {
    expect(piDefaultTools({ user: ["+codemode"] })).toEqual(["+codemode"]);
    expect(piDefaultTools({ user: ["read", "bash"], project: ["+codemode", "-bash"] })).toEqual(["read", "codemode"]);
    expect(piDefaultTools({ user: ["+grep"], project: ["-write"] })).toEqual(["+grep", "-write"]);
    expect(piDefaultTools({ user: ["read", "bash"], project: ["edit"] })).toEqual(["edit"]);
    expect(piDefaultTools({ project: ["+codemode"] })).toEqual(["+codemode"]);
    expect(piDefaultTools({})).toBeUndefined();
  });

  it("in one list the plain names are the selection and +/- apply to them in order", () => {
    expect(piDefaultTools({ user: ["read", "+codemode", "-read", "+grep", "+read"] })).toEqual(["codemode", "grep", "read"]);
    expect(piDefaultTools({ user: [] })).toEqual([]);
  });
});
