/**
 * The import rules that keep the layers apart: the kernel imports only tapable, zod, jiti, node
 * built-ins and itself; a plugin reaches another plugin only through its `api.ts`; a library
 * (`lib/<name>/`) imports no plugin; provider plugins load their SDK lazily (only from adapters
 * loaded with import()).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, posix, relative, resolve, sep } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const KERNEL = join(ROOT, "kernel");
const KERNEL_ALLOWED = /^(node:|tapable$|zod$|jiti$|jiti\/native$|\.\/)/;
/** Files that are not part of the build (tests and their helpers). */
const TEST_FILE = /\.test\.ts$|\.test-support\.ts$|\/(?:test-harness|fixture-tree|process-probe)\.ts$/;

function importsOf(raw: string): string[] {
  const source = raw.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  for (const match of source.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|declare module ['"]([^'"]+)['"]/g)) {
    found.push((match[1] ?? match[2] ?? match[3])!);
  }
  return found;
}

/** The modules a file loads when it is loaded: value imports and re-exports, not `import type` or `import()`. */
function staticValueImportsOf(raw: string): string[] {
  const source = raw.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  const found: string[] = [];
  for (const match of source.matchAll(/^(?:(?:import|export)(?!\s+type\b)(?!\s*\()[^;'"]*?\bfrom\s*|import\s*)['"]([^'"]+)['"]/gm)) found.push(match[1]!);
  return found;
}

/** Every .ts file under `dir` that is part of the build, as repository-relative POSIX paths. */
function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (name.endsWith(".ts")) out.push(relative(ROOT, path).split(sep).join("/"));
  }
  return out.filter((file) => !TEST_FILE.test(file));
}

/**
 * Why `file`'s import of `spec` breaks a layer rule, or undefined. A plugin file may import its
 * own folder, a library, the kernel, npm packages, and another plugin's `api.js` only; a library
 * file may import no plugin.
 */
function layerViolation(file: string, spec: string): string | undefined {
  if (!spec.startsWith(".")) return undefined;
  // The package's type entry for the built-ins (`atomic-agent/plugins`): type re-exports only (checked below).
  if (file === "plugins/index.ts") return undefined;
  const target = posix.normalize(posix.join(posix.dirname(file), spec));
  const [fromLayer, fromName] = file.split("/");
  const [toLayer, toName, ...rest] = target.split("/");
  if (fromLayer === "lib" && toLayer === "plugins") return `${file}: a library imports plugin code (${spec})`;
  if (fromLayer === "plugins" && toLayer === "plugins" && toName !== fromName && rest.join("/") !== "api.js") {
    return `${file}: imports ${target}, an internal file of plugin ${toName} (use its api.ts, a service or a lib/)`;
  }
  return undefined;
}

describe("architecture", () => {
  const kernelFiles = readdirSync(KERNEL).filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"));
  const layered = [...sourceFiles(join(ROOT, "plugins")), ...sourceFiles(join(ROOT, "lib"))];

  it("has kernel, plugin and library files to check", () => {
    expect(kernelFiles.length).toBeGreaterThan(5);
    expect(layered.some((f) => f.startsWith("lib/provider-kit/"))).toBe(true);
    expect(layered.filter((f) => f.startsWith("plugins/")).length).toBeGreaterThan(50);
  });

  it.each(kernelFiles)("kernel/%s imports no plugin, SDK or transport", (file) => {
    const bad = importsOf(readFileSync(join(KERNEL, file), "utf8")).filter((spec) => !KERNEL_ALLOWED.test(spec));
    expect(bad).toEqual([]);
  });

  it("the kernel stays small and speaks no plugin's vocabulary (its owners declare their hooks)", () => {
    const sources = sourceFiles(KERNEL).map((file) => ({ file, text: readFileSync(join(ROOT, file), "utf8") }));
    const lines = sources.reduce((sum, { text }) => sum + text.split("\n").length - 1, 0);
    expect(lines).toBeLessThan(2000);
    const domain = /\b(sessions?|compactions?|compact|bash|agent_start|agent_end|turn_start|turn_end|message_update|tool_call|tool_result|before_agent_start|session_[a-z_]+)\b/i;
    const found = sources.flatMap(({ file, text }) => text.split("\n").flatMap((line, i) => (domain.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])));
    expect(found).toEqual([]);
  });

  it("every reference points inside the repository (the protocol and the decisions are docs here)", () => {
    const outside = /\bDECISIONS\b|rpc-mode\.txt|rpc-summary|\.\.\/shared\/|\b[Tt]he spec\b|\b[Ss]pec's\b/;
    const tracked = execFileSync("git", ["ls-files", "-z", "--", "*.ts", "*.cts", "*.mjs", "*.md", "*.py", "*.json"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
    expect(tracked.length).toBeGreaterThan(100);
    const self = "test/architecture.test.ts";
    const found = tracked
      .filter((file) => file !== self && existsSync(join(ROOT, file)))
      .flatMap((file) =>
        readFileSync(join(ROOT, file), "utf8")
          .split("\n")
          .flatMap((line, i) => (outside.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
      );
    expect(found).toEqual([]);
  });

  it("no plugin imports another plugin's internal files; no library imports a plugin", () => {
    const violations = layered.flatMap((file) => importsOf(readFileSync(join(ROOT, file), "utf8")).flatMap((spec) => layerViolation(file, spec) ?? []));
    expect(violations).toEqual([]);
  });

  it("plugins/index.ts (atomic-agent/plugins) re-exports types only, from every module that augments the kernel's types", () => {
    const source = readFileSync(join(ROOT, "plugins/index.ts"), "utf8")
      .replace(/\/\*[\s\S]*?\*\//g, "")
      .replace(/^\s*\/\/.*$/gm, "");
    const statements = source
      .split(";")
      .map((s) => s.trim())
      .filter(Boolean);
    expect(statements.every((s) => s.startsWith("export type {"))).toBe(true);
    const augmenting = layered.filter((f) => f.startsWith("plugins/") && f !== "plugins/index.ts" && /declare module/.test(readFileSync(join(ROOT, f), "utf8")));
    const missing = augmenting.filter((f) => !source.includes(`"./${f.slice("plugins/".length, -3)}.js"`));
    expect(missing).toEqual([]);
  });

  it("provider SDKs and the MCP SDK load lazily: no plugin entry or library reaches one through static imports", () => {
    // An adapter module may import its SDK at the top: it is itself loaded with import() on first use.
    const sdk = /^(@anthropic-ai\/sdk|@anthropic-ai\/bedrock-sdk|@aws-sdk\/client-bedrock-runtime|openai|@google\/genai|@modelcontextprotocol\/sdk|minisearch)(\/|$)/;
    const entries = [...layered.filter((f) => /^plugins\/[^/]+\/index\.ts$/.test(f)), ...layered.filter((f) => f.startsWith("lib/"))];
    const reached = new Set<string>();
    const pending = [...entries];
    const offending: string[] = [];
    while (pending.length > 0) {
      const file = pending.pop()!;
      if (reached.has(file)) continue;
      reached.add(file);
      for (const spec of staticValueImportsOf(readFileSync(join(ROOT, file), "utf8"))) {
        if (sdk.test(spec)) offending.push(`${file} imports ${spec}`);
        else if (spec.startsWith(".")) pending.push(posix.normalize(posix.join(posix.dirname(file), spec)).replace(/\.js$/, ".ts"));
      }
    }
    expect(reached.has("plugins/provider-openai/index.ts")).toBe(true);
    expect(reached.has("plugins/mcp/controller.ts")).toBe(true);
    expect(offending).toEqual([]);
  });

  it("the typed client loads no kernel or plugin code (a client process stays small): only lib/jsonl, protocol types and node built-ins", () => {
    const allowed = /^(node:|\.\/|\.\.\/lib\/jsonl\/index\.js$|\.\.\/lib\/protocol-types\/index\.js$)/;
    const files = sourceFiles(join(ROOT, "client"));
    expect(files.length).toBeGreaterThan(0);
    const bad = files.flatMap((file) =>
      importsOf(readFileSync(join(ROOT, file), "utf8"))
        .filter((spec) => !allowed.test(spec))
        .map((spec) => `${file}: ${spec}`),
    );
    expect(bad).toEqual([]);
  });

  it("the checkers themselves catch forbidden imports", () => {
    expect(importsOf(`import x from "../plugins/agent/index.js";\nconst s = await import("openai");`)).toEqual(["../plugins/agent/index.js", "openai"]);
    expect(
      staticValueImportsOf(
        `import type { A } from "openai";\nimport B, {\n  c,\n} from "openai/client";\nexport { d } from "./d.js";\nimport "./side.js";\nexport const e = "./e.js";\nimport("@google/genai");\nconst f = await import("./f.js");`,
      ),
    ).toEqual(["openai/client", "./d.js", "./side.js"]);
    expect(layerViolation("plugins/retry/retry-chain.ts", "../models/errors.js")).toMatch(/internal file of plugin models/);
    expect(layerViolation("plugins/provider-openai/index.ts", "../models/api.js")).toBeUndefined();
    expect(layerViolation("plugins/provider-openai/stream.ts", "./shared.js")).toBeUndefined();
    expect(layerViolation("plugins/provider-openai/stream.ts", "../../lib/provider-kit/history.js")).toBeUndefined();
    expect(layerViolation("plugins/provider-openai/stream.ts", "../../kernel/index.js")).toBeUndefined();
    expect(layerViolation("plugins/a/deep/x.ts", "../../b/api.js")).toBeUndefined();
    expect(layerViolation("plugins/a/deep/x.ts", "../../b/inner/api.js")).toMatch(/internal file of plugin b/);
    expect(layerViolation("lib/provider-kit/index.ts", "../../plugins/models/api.js")).toMatch(/library imports plugin code/);
    expect(layerViolation("lib/provider-kit/index.ts", "../truncate/index.js")).toBeUndefined();
  });
});
