/**
 * pi's `highlightCode` and `getLanguageFromPath`: code as ANSI-coloured lines in the theme's
 * syntax colours. highlight.js (loaded on first use) marks the tokens; each token is painted with
 * the theme colour of its scope, line by line, so every line's escapes are balanced. No language,
 * or one highlight.js does not know: every line in the code-block colour (auto-detection
 * colours prose at random, pi leaves it out too).
 */
import { createRequire } from "node:module";
import { currentTheme, type Theme } from "./theme.js";

type HighlightJs = { getLanguage(name: string): unknown; highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string } };
let hljs: HighlightJs | undefined;
const load = () => (hljs ??= createRequire(import.meta.url)("highlight.js") as HighlightJs);

/** highlight.js scopes (the first class after `hljs-`) and how the theme paints them. */
function painter(theme: Theme): Record<string, (text: string) => string> {
  const fg = (token: Parameters<Theme["fg"]>[0]) => (text: string) => theme.fg(token, text);
  return {
    default: fg("text"),
    keyword: fg("syntaxKeyword"),
    built_in: fg("syntaxType"),
    literal: fg("syntaxNumber"),
    number: fg("syntaxNumber"),
    regexp: fg("syntaxString"),
    string: fg("syntaxString"),
    subst: fg("text"),
    comment: fg("syntaxComment"),
    doctag: fg("syntaxComment"),
    meta: fg("muted"),
    function: fg("syntaxFunction"),
    title: fg("syntaxFunction"),
    class: fg("syntaxType"),
    type: fg("syntaxType"),
    tag: fg("syntaxPunctuation"),
    name: fg("syntaxKeyword"),
    attr: fg("syntaxVariable"),
    variable: fg("syntaxVariable"),
    params: fg("syntaxVariable"),
    operator: fg("syntaxOperator"),
    punctuation: fg("syntaxPunctuation"),
    emphasis: (text) => theme.italic(text),
    strong: (text) => theme.bold(text),
    link: (text) => theme.underline(text),
    addition: fg("toolDiffAdded"),
    deletion: fg("toolDiffRemoved"),
  };
}

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };
const decodeEntities = (html: string) => html.replace(/&(?:lt|gt|amp|quot|#x27|#39);/g, (entity) => ENTITIES[entity] ?? entity);

/** highlight.js's HTML as lines of painted text: the innermost scope paints each run of text. */
function paintHtml(html: string, paints: Record<string, (text: string) => string>): string[] {
  const lines: string[] = [""];
  const scopes: string[] = [];
  const emit = (text: string) => {
    const paint = paints[scopes.findLast((scope) => paints[scope]) ?? "default"] ?? paints.default!;
    text.split("\n").forEach((part, index) => {
      if (index > 0) lines.push("");
      if (part !== "") lines[lines.length - 1] += paint(part);
    });
  };
  for (const match of html.matchAll(/<span class="([^"]*)">|<\/span>|[^<]+/g)) {
    if (match[0] === "</span>") scopes.pop();
    else if (match[1] !== undefined) scopes.push(/hljs-([\w-]+)/.exec(match[1])?.[1] ?? "");
    else emit(decodeEntities(match[0]));
  }
  return lines;
}

export function highlightCode(code: string, lang?: string): string[] {
  const theme = currentTheme();
  const plain = () =>
    String(code)
      .split("\n")
      .map((line) => theme.fg("mdCodeBlock", line));
  if (!lang) return plain();
  try {
    const highlighter = load();
    if (!highlighter.getLanguage(lang)) return plain();
    return paintHtml(highlighter.highlight(String(code), { language: lang, ignoreIllegals: true }).value, painter(theme));
  } catch {
    return plain();
  }
}

const LANGUAGES: Record<string, string> = {
  ts: "typescript",
  tsx: "typescript",
  js: "javascript",
  jsx: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  py: "python",
  rb: "ruby",
  rs: "rust",
  go: "go",
  java: "java",
  kt: "kotlin",
  swift: "swift",
  dart: "dart",
  groovy: "groovy",
  gradle: "groovy",
  nix: "nix",
  c: "c",
  h: "c",
  cpp: "cpp",
  cc: "cpp",
  cxx: "cpp",
  hpp: "cpp",
  cs: "csharp",
  php: "php",
  sh: "bash",
  bash: "bash",
  zsh: "bash",
  fish: "fish",
  ps1: "powershell",
  sql: "sql",
  html: "html",
  htm: "html",
  css: "css",
  scss: "scss",
  sass: "sass",
  less: "less",
  json: "json",
  yaml: "yaml",
  yml: "yaml",
  toml: "toml",
  xml: "xml",
  md: "markdown",
  markdown: "markdown",
  dockerfile: "dockerfile",
  makefile: "makefile",
  cmake: "cmake",
  lua: "lua",
  perl: "perl",
  r: "r",
  scala: "scala",
  clj: "clojure",
  ex: "elixir",
  exs: "elixir",
  erl: "erlang",
  hs: "haskell",
  ml: "ocaml",
  vim: "vim",
  graphql: "graphql",
  proto: "protobuf",
  tf: "hcl",
  hcl: "hcl",
};

/** The language pi names for a file's extension (the part after the last dot), else undefined. */
export function getLanguageFromPath(filePath: string): string | undefined {
  const extension = String(filePath).split(".").pop()?.toLowerCase();
  return extension ? LANGUAGES[extension] : undefined;
}
