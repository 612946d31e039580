import { afterAll, describe, expect, it } from "vitest";
import type { CatalogTool } from "./catalog.js";
import { outputType, toIdentifier, toolSample } from "./declarations.js";
import { codemodeDescription, listedTools, presentTools, withoutListedTools } from "./description.js";
import { joinTexts, layoutOutput, limitOutput, removeSavedFiles } from "./format.js";

afterAll(() => removeSavedFiles());
import { parseSource } from "./source.js";
import { readStore } from "./store.js";

const tool = (name: string, extra: Partial<CatalogTool> = {}): CatalogTool => {
  const declared = { name, description: `The ${name} tool.`, inputSchema: { type: "object", properties: { q: { type: "string", description: "What" } }, required: ["q"] } };
  return { ...declared, exposure: "codemode", sample: toolSample(declared), ...extra };
};

describe("source", () => {
  it("an options line is cut but its newline kept; misplaced, unknown or bad options fail", () => {
    expect(parseSource('// @options: {"timeout_ms": 5}\nreturn 1')).toEqual({ code: "\nreturn 1", options: { timeoutMs: 5 } });
    expect(parseSource("return 1")).toEqual({ code: "return 1", options: {} });
    expect(() => parseSource("  ")).toThrow(/non-empty/);
    expect(() => parseSource('// @options: {"x": 1}\nreturn 1')).toThrow("@options only supports `max_output_tokens` and `timeout_ms`; got `x`");
    expect(() => parseSource('// @options: {"timeout_ms": 0}\nreturn 1')).toThrow(/positive integer/);
    expect(() => parseSource('return 1\n// @options: {"timeout_ms": 1}')).toThrow("found one on line 2");
    expect(() => parseSource('// @options: {"timeout_ms": 1}')).toThrow(/followed by JavaScript/);
  });
});

describe("output layout", () => {
  it("numbers text items only when there are several, console last, adjacent texts joined on their own lines", () => {
    const items = layoutOutput([
      { type: "text", text: "a" },
      { type: "text", text: "log", console: true },
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "text", text: "b" },
    ]);
    expect(joinTexts(items)).toEqual([
      { type: "text", text: "==> text 1/2 <==\na" },
      { type: "image", data: "AAAA", mimeType: "image/png" },
      { type: "text", text: "==> text 2/2 <==\nb\n<console_output>\nlog\n</console_output>" },
    ]);
    expect(layoutOutput([{ type: "text", text: "only" }])).toEqual([{ type: "text", text: "only" }]);
  });

  it("past the token budget keeps head and tail and names the file with the whole text", async () => {
    const { items, fullOutputPath } = await limitOutput([{ type: "text", text: "x".repeat(100) }], 5);
    expect(fullOutputPath).toMatch(/atomic-codemode-[0-9a-f]+\.txt$/);
    expect((items[0] as { text: string }).text).toBe(
      `Warning: truncated output (original token count: 25)\nTotal output lines: 1\n\n${"x".repeat(10)}…20 tokens truncated…${"x".repeat(10)}\n\n[Full output: ${fullOutputPath} (read with offset/limit)]`,
    );
  });
});

describe("declarations and description", () => {
  it("identifiers, types and samples", () => {
    expect(toIdentifier("mcp__dev-radius__search")).toBe("mcp__dev_radius__search");
    expect(outputType(undefined)).toBe("string");
    expect(outputType({ type: "object", properties: { a: { type: "integer" }, b: { enum: ["x", "y"] } }, required: ["a"] })).toBe(
      '{\n  // @integer\n  a: number;\n  b?: "x" | "y";\n}',
    );
    expect(tool("find").sample).toContain("declare const tools: { find(args: {\n    // What\n    q: string;\n  }): Promise<string>; };");
  });

  it("on lists codemode tools, only lists direct ones too, deferred never; the budget gives each namespace a place", () => {
    const tools = [tool("direct_one", { exposure: "direct" }), tool("scripted"), tool("hidden_away", { exposure: "deferred" })];
    expect(listedTools(tools, "on").map((t) => t.name)).toEqual(["scripted"]);
    expect(listedTools(tools, "only").map((t) => t.name)).toEqual(["direct_one", "scripted"]);
    const many = [
      ...["a1", "a2", "a3"].map((name) => tool(name, { namespace: { name: "mcp__a", description: "Server A" } })),
      ...["b1", "b2"].map((name) => tool(name, { namespace: { name: "mcp__b" } })),
    ];
    const cost = Math.ceil(`### \`a1\`\n${many[0]!.sample.trim()}`.length / 4);
    const description = codemodeDescription(many, cost * 2);
    expect(description).toContain("## mcp__a (some tools not listed)\nServer A");
    expect(description).toContain("## mcp__b (some tools not listed)");
    expect(description.match(/### `/g)).toHaveLength(2);
    expect(codemodeDescription(many, 0)).toContain("## mcp__a (tools not listed)");
  });

  it("presents the request's tools by mode once codemode is offered", () => {
    const specs = [
      { name: "read", description: "Read." },
      { name: "codemode", description: "Scripts." },
    ];
    const callable = new Map([["read", tool("read", { exposure: "direct" })]]);
    expect(presentTools(specs, callable, "only").map((t) => t.name)).toEqual(["codemode"]);
    expect(presentTools(specs, callable, "on")[0]!.description).toBe("Read.\n\nCodemode: `tools.read(args)` resolves to a string.");
    expect(presentTools([specs[0]!], callable, "only")).toEqual([specs[0]]);
  });
});

describe("store", () => {
  it("applies the branch's codemode-store entries from the root, ignoring others and malformed ones", () => {
    const branch = [
      { type: "custom", customType: "codemode-store", data: { set: { a: 1, b: { c: 2 } }, delete: [] } },
      { type: "custom", customType: "other", data: { set: { a: 9 }, delete: [] } },
      { type: "custom", customType: "codemode-store", data: { set: "nope" } },
      { type: "message" },
      { type: "custom", customType: "codemode-store", data: { set: { d: "x" }, delete: ["a"] } },
    ];
    expect(readStore(branch)).toEqual({ b: '{"c":2}', d: '"x"' });
  });
});

describe("withoutListedTools", () => {
  it("drops only the hidden tools' lines of the Available tools list", () => {
    const prompt = "Persona.\n\nAvailable tools:\n- read: Read a file.\n- codemode: Run scripts.\n- bash: Run a command.\n\nGuidelines:\n- read: not a tool line here";
    expect(withoutListedTools(prompt, ["read", "bash"])).toBe("Persona.\n\nAvailable tools:\n- codemode: Run scripts.\n\nGuidelines:\n- read: not a tool line here");
    expect(withoutListedTools("Custom prompt without a list.", ["read"])).toBe("Custom prompt without a list.");
  });
});
