/** parseArgs: pi 1.6's command-line grammar (read from its cli/args.js) into pi's Args record. */
import { execFile } from "node:child_process";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { type Args, parseArgs } from "./args.js";

const REPO = resolve(import.meta.dirname, "../../..");
const PI_ARGS = join(REPO, "node_modules/@earendil-works/pi-coding-agent/dist/cli/args.js");

/** Command lines parsed by pi 1.6 itself and by Atomic, which must agree. */
const LINES: string[][] = [
  [],
  ["hello", "world"],
  ["-p", "say hi", "--model", "anthropic/claude:high", "--thinking", "high"],
  ["--print", "---\nfront: matter\n---"],
  ["-p", "@notes.md", "question"],
  ["--mode", "rpc", "--no-session", "-e", "a.ts", "--extension", "b.ts", "-ne"],
  ["--mode", "tui"],
  ["--mode", "--verbose"],
  ["--mode"],
  ["--models", " a/* , ,b ", "--tools", "read,bash", "-xt", "edit"],
  ["--tools", "+read,bash"],
  ["--tools", "+rea*"],
  ["-t", "+read,-bash"],
  ["--thinking", "loud"],
  ["--thinking"],
  ["--provider"],
  ["-e"],
  ["--name"],
  ["-n", "my session", "--session-id", "s1", "--fork", "f", "--session-dir", "d", "--session", "x.jsonl"],
  ["--list-models"],
  ["--list-models", "sonnet"],
  ["--list-models", "@file"],
  ["--use-theme", "dark", "--theme", "t1", "--theme", "t2", "--no-themes"],
  ["--use-theme", "-x"],
  ["--tui-mode", "fullscreen"],
  ["--tui-mode", "wide"],
  ["--tui-mode"],
  ["-a", "--no-approve"],
  ["--approve", "--offline", "--verbose", "-c", "-r", "-h", "-v"],
  ["--plan", "--depth=3", "--flag", "value", "--switch", "--", "-p", "@f", "text"],
  ["--my-flag", "@file", "-z"],
  ["--append-system-prompt", "one", "--append-system-prompt", "two", "--system-prompt", "base", "--api-key", "k"],
  ["--skill", "s", "--prompt-template", "p", "-ns", "-np", "-nc", "-nt", "-nbt", "--no-mcp", "--export", "out.html"],
];

const parsed = (argv: string[]) => {
  const { messages, fileArgs, unknownFlags, diagnostics, ...options } = parseArgs(argv);
  return { options, messages, fileArgs, unknownFlags: Object.fromEntries(unknownFlags), diagnostics: diagnostics.map((d) => `${d.type}: ${d.message}`) };
};
const only = (options: Partial<Args>, rest: Partial<ReturnType<typeof parsed>> = {}) => ({ options, messages: [], fileArgs: [], unknownFlags: {}, diagnostics: [], ...rest });

describe("parseArgs", () => {
  it("reads options, messages and @files", () => {
    expect(parsed(["-p", "say hi", "--model", "anthropic/claude:high", "--thinking", "high", "@a.md", "more"])).toEqual(
      only({ print: true, model: "anthropic/claude:high", thinking: "high" }, { messages: ["say hi", "more"], fileArgs: ["a.md"] }),
    );
    // A prompt that starts with frontmatter is a prompt; an @file after -p is a file.
    expect(parsed(["--print", "---\na: 1\n---"])).toEqual(only({ print: true }, { messages: ["---\na: 1\n---"] }));
    expect(parsed(["-p", "@notes.md"])).toEqual(only({ print: true }, { fileArgs: ["notes.md"] }));
    expect(parsed(["--mode", "rpc", "--no-session", "-e", "a.ts", "--extension", "b.ts", "-ne", "-c", "-r", "-h", "-v"])).toEqual(
      only({ mode: "rpc", noSession: true, extensions: ["a.ts", "b.ts"], noExtensions: true, continue: true, resume: true, help: true, version: true }),
    );
    expect(parsed(["--append-system-prompt", "one", "--append-system-prompt", "two", "--theme", "t1", "--theme", "t2", "--skill", "s", "--prompt-template", "p"])).toEqual(
      only({ appendSystemPrompt: ["one", "two"], themes: ["t1", "t2"], skills: ["s"], promptTemplates: ["p"] }),
    );
    expect(parsed(["-n", "my session", "--session-id", "s1", "--fork", "f", "--session-dir", "d", "--session", "x.jsonl", "--export", "o.html", "--api-key", "k"])).toEqual(
      only({ name: "my session", sessionId: "s1", fork: "f", sessionDir: "d", session: "x.jsonl", export: "o.html", apiKey: "k" }),
    );
    expect(parsed(["-ns", "-np", "-nc", "-nt", "-nbt", "--no-mcp", "--no-themes", "--verbose", "--offline"])).toEqual(
      only({ noSkills: true, noPromptTemplates: true, noContextFiles: true, noTools: true, noBuiltinTools: true, noMcp: true, noThemes: true, verbose: true, offline: true }),
    );
  });

  it("splits comma lists and checks +name/-name tool entries", () => {
    expect(parsed(["--models", " a/* , ,b ", "--tools", "read,bash", "-xt", "edit"])).toEqual(only({ models: ["a/*", "b"], tools: ["read", "bash"], excludeTools: ["edit"] }));
    expect(parsed(["-t", "+read,-bash"])).toEqual(only({ tools: ["+read", "-bash"] }));
    expect(parsed(["--tools", "+read,bash"]).diagnostics).toEqual(["error: --tools: tool names cannot be mixed with +name or -name entries"]);
    expect(parsed(["-t", "+rea*"]).diagnostics).toEqual(["error: -t: +name and -name entries take exact tool names, not patterns: +rea*"]);
  });

  it("reports bad values as diagnostics, never throwing", () => {
    expect(parsed(["--mode", "tui"]).diagnostics).toEqual(['error: Invalid mode "tui". Valid values: text, json, rpc']);
    expect(parsed(["--mode", "--verbose"])).toEqual(only({ verbose: true }, { diagnostics: ["error: --mode requires text, json, or rpc"] }));
    expect(parsed(["--thinking", "loud"]).diagnostics).toEqual(['warning: Invalid thinking level "loud". Valid values: off, minimal, low, medium, high, xhigh, max']);
    expect(parsed(["--name"]).diagnostics).toEqual(["error: --name requires a value"]);
    expect(parsed(["--use-theme", "-x"]).diagnostics).toEqual(["error: --use-theme requires a theme name", "error: Unknown option: -x"]);
    expect(parsed(["--tui-mode", "wide"]).diagnostics).toEqual(['error: Invalid TUI mode "wide". Valid values: regular, fullscreen']);
    expect(parsed(["--tui-mode", "fullscreen"])).toEqual(only({ tuiMode: "fullscreen" }));
    expect(parsed(["-e"]).diagnostics).toEqual(["error: Unknown option: -e"]);
  });

  it("keeps the last word on trust, --list-models' optional pattern, unknown flags and what follows --", () => {
    expect(parsed(["-a", "--no-approve"])).toEqual(only({ projectTrustOverride: false }));
    expect(parsed(["--list-models"])).toEqual(only({ listModels: true }));
    expect(parsed(["--list-models", "sonnet"])).toEqual(only({ listModels: "sonnet" }));
    expect(parsed(["--list-models", "@f"])).toEqual(only({ listModels: true }, { fileArgs: ["f"] }));
    // An option missing its value at the end is an unknown (extension) flag, as in pi.
    expect(parsed(["--provider"])).toEqual(only({}, { unknownFlags: { provider: true } }));
    expect(parsed(["--plan", "--depth=3", "--flag", "value", "--switch", "--", "-p", "@f", "text"])).toEqual(
      only({}, { unknownFlags: { plan: true, depth: "3", flag: "value", switch: true }, messages: ["-p", "text"], fileArgs: ["f"] }),
    );
  });

  it("agrees with pi 1.6's own parseArgs (run under Node 22, which pi needs)", async (ctx) => {
    let node: string;
    try {
      const { nodeRuntime } = (await import(pathToFileURL(join(REPO, "scripts/node-runtime.mjs")).href)) as { nodeRuntime(major: number): Promise<string> };
      node = await nodeRuntime(22);
    } catch (error) {
      console.log(`skipped: no Node 22 to run pi 1.6's parser: ${(error as Error).message}`);
      ctx.skip();
      return;
    }
    const script = `const { parseArgs } = await import(${JSON.stringify(pathToFileURL(PI_ARGS).href)});
      const lines = JSON.parse(process.argv[1]);
      process.stdout.write(JSON.stringify(lines.map((line) => { const args = parseArgs(line); return { ...args, unknownFlags: [...args.unknownFlags] }; })));`;
    const { stdout } = await promisify(execFile)(node, ["--input-type=module", "-e", script, JSON.stringify(LINES)], { timeout: 60_000 });
    const expected = JSON.parse(stdout) as Record<string, unknown>[];
    expect(expected).toHaveLength(LINES.length);
    LINES.forEach((line, index) => {
      const args = parseArgs(line);
      expect({ ...args, unknownFlags: [...args.unknownFlags] }, JSON.stringify(line)).toEqual(expected[index]);
    });
  }, 90_000);
});
