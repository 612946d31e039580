/**
 * The module pi extensions import as `@earendil-works/pi-coding-agent` exposes every value pi
 * 1.6 exports (the list is read from pi's own `dist/index.d.ts`, so a name pi adds fails here).
 * A name may be missing only when it is listed below with the reason. Terminal-only names are
 * exported as guards (a component class throws a clear error when built), so an extension that
 * imports or subclasses one still loads.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import type { ExtensionHost } from "../host.js";
import { createVirtualModules } from "./modules.js";

const PI = resolve(import.meta.dirname, "../../../node_modules/@earendil-works/pi-coding-agent");

/** Value exports of pi's index.d.ts (`export { a, type B }` and `export type {...}`: only `a`). */
function piValueExports(): string[] {
  const file = ts.createSourceFile("index.d.ts", readFileSync(join(PI, "dist/index.d.ts"), "utf8"), ts.ScriptTarget.Latest);
  const names: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || statement.isTypeOnly || !statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue;
    for (const element of statement.exportClause.elements) if (!element.isTypeOnly) names.push(element.name.text);
  }
  return names;
}

/** Exported as guards: they need a terminal, which a headless agent has not. */
const TERMINAL_ONLY: Record<string, string> = Object.fromEntries([
  ...[
    "ArminComponent",
    "AssistantMessageComponent",
    "BashExecutionComponent",
    "BorderedLoader",
    "BranchSummaryMessageComponent",
    "CompactionSummaryMessageComponent",
    "CustomEditor",
    "CustomMessageComponent",
    "DynamicBorder",
    "ExtensionEditorComponent",
    "ExtensionInputComponent",
    "ExtensionSelectorComponent",
    "FooterComponent",
    "LoginDialogComponent",
    "ModelSelectorComponent",
    "OAuthSelectorComponent",
    "SessionSelectorComponent",
    "SettingsSelectorComponent",
    "ShowImagesSelectorComponent",
    "SkillInvocationMessageComponent",
    "ThemeSelectorComponent",
    "ThinkingSelectorComponent",
    "ToolExecutionComponent",
    "TreeSelectorComponent",
    "UserMessageComponent",
    "UserMessageSelectorComponent",
  ].map((name) => [name, "a component of pi's terminal UI"]),
  ["InteractiveMode", "pi's full-screen terminal UI"],
  ["copyToClipboard", "copies through the terminal (OSC 52) or the desktop clipboard"],
]);

/**
 * Not provided yet (issue 39, item 1, unfinished): each has a meaning without a terminal. The
 * test fails when one of them is added without leaving this list, so the list only shrinks.
 */
const OUTSTANDING: Record<string, string> = Object.fromEntries([
  ...["ExtensionRunner", "wrapRegisteredTool", "wrapRegisteredTools"].map((name) => [
    name,
    "pi's extension host object and its tool wrappers; Atomic's extension host is its extensions plugin, which an extension cannot build a second one of",
  ]),
  ...["main", "runPrintMode", "runRpcMode"].map((name) => [name, "pi's CLI entry points: they take over stdin/stdout, which belong to the running agent's transport"]),
  ...["createCodemodeExtension", "createMcpExtension", "createToolSearchExtension"].map((name) => [
    name,
    "pi 1.6's built-in features as extension factories; in Atomic codemode and MCP are plugins the host loads (no tool search), not extensions",
  ]),
]);

const fakeHost = { k: { config: { agentDir: "/tmp/none", cwd: "/tmp" } }, builtinTools: new Map(), fileQueues: new Map() } as unknown as ExtensionHost;

describe("@earendil-works/pi-coding-agent as extensions get it", () => {
  const names = piValueExports();
  const served = createVirtualModules(
    () => fakeHost,
    "/tmp/none",
    "0",
    async (path) => ({ error: `no loader for ${path}` }),
  )["@earendil-works/pi-coding-agent"]!;

  it("reads pi 1.6's 157 value exports from its .d.ts", () => {
    expect(names).toHaveLength(157);
    expect(names).toContain("parseFrontmatter");
  });

  it("serves every one, except those listed with a reason", () => {
    const missing = names.filter((name) => !(name in served) && !(name in OUTSTANDING));
    expect(missing).toEqual([]);
    // A listed name that is now served must leave the list.
    expect(Object.keys(OUTSTANDING).filter((name) => name in served)).toEqual([]);
    expect(Object.keys(OUTSTANDING).filter((name) => !names.includes(name))).toEqual([]);
  });

  it("terminal-only names are guards with a clear error", () => {
    for (const name of Object.keys(TERMINAL_ONLY)) {
      expect(names, name).toContain(name);
      const value = served[name] as (new () => unknown) | ((text: string) => Promise<void>);
      if (name === "copyToClipboard") continue;
      expect(() => new (value as new () => unknown)(), name).toThrow(/terminal UI components are not available in Atomic/);
    }
    return expect((served.copyToClipboard as (text: string) => Promise<void>)("x")).rejects.toThrow(/no terminal or desktop clipboard/);
  });

  it("the named helpers are real: frontmatter, tokens, lines, highlighting, markdown theme", () => {
    const { parseFrontmatter, stripFrontmatter, estimateTokens, truncateLine, highlightCode, getMarkdownTheme } = served as Record<string, (...args: never[]) => unknown>;
    expect((parseFrontmatter as (text: string) => unknown)("---\nmodel: fake-openai/fake-2\nlist: [a, b]\n---\nBody $@\n")).toEqual({
      frontmatter: { model: "fake-openai/fake-2", list: ["a", "b"] },
      body: "Body $@",
    });
    expect((stripFrontmatter as (text: string) => string)("---\na: 1\n---\n\ntext")).toBe("text");
    expect((estimateTokens as (message: unknown) => number)({ role: "user", content: "12345678" })).toBe(2);
    expect((truncateLine as (line: string, max: number) => unknown)("abcdef", 3)).toEqual({ text: "abc... [truncated]", wasTruncated: true });
    const lines = (highlightCode as (code: string, lang: string) => string[])("const x = 1;\nlet y", "typescript");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("\x1b[38;5;4mconst\x1b[39m");
    expect((getMarkdownTheme as () => { heading(text: string): string })().heading("Title")).toBe("\x1b[38;5;3mTitle\x1b[39m");
  });
});
