/**
 * Loading extensions over the built CLI: bad files are reported (`extension_error`, event
 * "load") while the others load; failing handlers are isolated (a throwing tool_call blocks) and
 * stderr names the line that threw; duplicate commands keep the first; stdout stays the
 * protocol's; project extensions load only for trusted projects; discovery (agent dir, folders
 * with a manifest, settings, --no-extensions).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { notified, promptSettled, startExtensionAgent, stderrContains, toolResults, type ExtensionAgentOptions, useExtensionAgents } from "./helpers/extension-agent.js";
import { tempDir as makeTempDir, type Record_, type RpcClient } from "./helpers/rpc-client.js";
import { withoutBuiltins } from "./helpers/commands.js";

const fixture = (name: string) => resolve(import.meta.dirname, "fixtures/extensions", `${name}.ts`);
const command = (name: string) =>
  `export default function (pi) { pi.registerCommand(${JSON.stringify(name)}, { description: "from ${name}", handler: async (_a, ctx) => ctx.ui.notify(${JSON.stringify(`ran ${name}`)}) }); }\n`;
const clients: RpcClient[] = [];
const folders: string[] = [];
/** A temp folder removed after the test (the agent's own folders go with it). */
function tempDir(prefix: string): string {
  const dir = makeTempDir(prefix);
  folders.push(dir);
  return dir;
}
const fake = useExtensionAgents(clients);
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function write(path: string, text: string): string {
  mkdirSync(join(path, ".."), { recursive: true });
  writeFileSync(path, text);
  return path;
}

async function start(options: ExtensionAgentOptions): Promise<RpcClient> {
  const client = await startExtensionAgent(fake, options);
  clients.push(client);
  return client;
}

const names = async (c: RpcClient) => withoutBuiltins((await c.ok({ type: "get_commands" })).commands as { name: string }[]).map((entry) => entry.name);
const errors = (c: RpcClient) => c.records.filter((r) => r.type === "extension_error") as (Record_ & { extensionPath: string; event: string; error: string })[];

describe("loading extensions", () => {
  it("reports each bad file as a load error and keeps going", async () => {
    const dir = tempDir("atomic-ext-");
    const bad = {
      syntax: write(join(dir, "syntax.ts"), "export default function (pi) { pi.registerCommand('x', { handler: async () => { ) } }); }\n"),
      empty: write(join(dir, "empty.ts"), "const unused = 1;\n"),
      number: write(join(dir, "number.ts"), "export default 42;\n"),
      named: write(join(dir, "named.ts"), "export function activate(pi) {}\nexport const version = 1;\n"),
      values: write(join(dir, "values.ts"), "export const name = 'x';\n"),
      throws: write(join(dir, "throws.ts"), "export default function (pi) { pi.registerCommand('half', { handler: async () => {} }); throw new Error('factory exploded'); }\n"),
      rejects: write(join(dir, "rejects.ts"), "export default async function (pi) { await Promise.resolve(); throw new Error('async factory failed'); }\n"),
      schema: write(
        join(dir, "schema.ts"),
        "export default function (pi) { pi.registerTool({ name: 'bad', description: 'd', parameters: { type: 'objekt' }, execute: async () => ({ content: [] }) }); }\n",
      ),
    };
    const good = write(join(dir, "good.ts"), command("good"));
    const missing = join(dir, "missing.ts");
    const c = await start({ extensions: [...Object.values(bad), missing, good] });
    expect(await names(c)).toEqual(["good"]);
    const byPath = new Map(errors(c).map((e) => [e.extensionPath, e]));
    expect(errors(c).every((e) => e.event === "load")).toBe(true);
    expect(byPath.get(bad.syntax)!.error).toMatch(/^Cannot load extension .*syntax\.ts: /);
    expect(byPath.get(bad.empty)!.error).toBe(`Extension ${bad.empty} must default-export a function (pi: ExtensionAPI) => void; it exports nothing`);
    expect(byPath.get(bad.number)!.error).toMatch(/must default-export a function .* it exports a default number$/);
    // jiti's interop answers `.default` for a module without one: its named exports are what it has.
    expect(byPath.get(bad.named)!.error).toBe(
      `Extension ${bad.named} must default-export a function (pi: ExtensionAPI) => void; it exports no default, only named exports (activate, version); to load activate, write \`export default function activate(pi) {...}\``,
    );
    expect(byPath.get(bad.values)!.error).toMatch(/; it exports no default, only named exports \(name\)$/);
    expect(byPath.get(bad.throws)!.error).toBe(`Extension ${bad.throws} failed while loading: factory exploded`);
    expect(byPath.get(bad.rejects)!.error).toBe(`Extension ${bad.rejects} failed while loading: async factory failed`);
    // The author's own words: the file, the tool's name and its `parameters` (not the kernel's internal field).
    expect(byPath.get(bad.schema)!.error).toBe(
      `Extension ${bad.schema} failed while loading: registerTool("bad"): parameters must describe an object (type "object"), not "objekt"`,
    );
    expect(byPath.get(missing)!.error).toBe(`Extension not found: ${missing}`);
    await c.ok({ type: "prompt", message: "/good" });
    await notified(c, "ran good");
  });

  it("a handler for an event Atomic does not have is a warning that names the event meant", async () => {
    const dir = tempDir("atomic-ext-");
    const typo = write(join(dir, "typo.ts"), "export default function (pi) { pi.on('sesion_start', () => {}); pi.on('editor_redraw', () => {}); }\n");
    const c = await start({ extensions: [typo] });
    await stderrContains(c, `[${typo}] pi.on("sesion_start"): Atomic has no such event; this handler never runs. Did you mean "session_start"?`);
    await stderrContains(c, `[${typo}] pi.on("editor_redraw"): Atomic has no such event; this handler never runs.\n`);
    expect(errors(c)).toEqual([]);
  });

  it("isolates failing handlers: errors are reported, a throwing tool_call blocks, the agent keeps running", async () => {
    const c = await start({ extensions: [fixture("handler-errors")] });
    fake.script({ toolCalls: [{ name: "read", args: { path: "notes.md" } }] }, { text: "done" });
    const from = await promptSettled(c, "read it");
    expect(toolResults(c, from)).toEqual([{ tool: "read", isError: true, text: "Tool call blocked: the guard crashed" }]);
    const path = fixture("handler-errors");
    await c.waitFor((r) => r.type === "extension_error" && r.event === "agent_end", 10_000, from);
    expect(errors(c).map((e) => [e.extensionPath, e.event, e.error])).toEqual([
      [path, "turn_start", "turn_start exploded"],
      [path, "tool_call", "the guard crashed"],
      [path, "turn_start", "turn_start exploded"],
      [path, "agent_end", "agent_end rejected"],
    ]);
    await c.ok({ type: "prompt", message: "/boom" });
    await c.waitFor((r) => r.type === "extension_error" && r.event === "command");
    expect(errors(c).at(-1)).toMatchObject({ extensionPath: path, event: "command", error: "command failed" });
    // stderr names the line of the extension that threw (not the whole stack); the event keeps the message alone.
    for (const [event, message, line] of [
      ["turn_start", "turn_start exploded", 6],
      ["tool_call", "the guard crashed", 12],
      ["agent_end", "agent_end rejected", 9],
      ["command", "command failed", 15],
    ] as const) {
      await stderrContains(c, `[${path}] ${event} failed: ${message} (at ${path}:${line}:`);
    }
    await promptSettled(c, "still alive");
  });

  it("a command name registered by two extensions: the first wins, the error names both paths", async () => {
    const dir = tempDir("atomic-ext-");
    const first = write(join(dir, "first.ts"), command("dup"));
    const second = write(join(dir, "second.ts"), `${command("dup")}`.replace('"ran dup"', '"ran second"'));
    const c = await start({ extensions: [first, second] });
    expect(await names(c)).toEqual(["dup"]);
    expect(errors(c)).toEqual([
      {
        type: "extension_error",
        extensionPath: second,
        event: "register_command",
        error: `Command "/dup" is already registered by ${first}; the one from ${second} is ignored (the first one wins)`,
      },
    ]);
    await c.ok({ type: "prompt", message: "/dup" });
    await notified(c, "ran dup");
  });

  it("an extension writing to stdout cannot corrupt the protocol: the writes go to stderr", async () => {
    const c = await start({ extensions: [fixture("noisy")] });
    await c.ok({ type: "prompt", message: "/noise" });
    await notified(c, "noise made");
    await promptSettled(c, "hi");
    expect(c.records.filter((r) => r.type === "__non_json__" || (r as { fake?: boolean }).fake)).toEqual([]);
    for (const line of ["console.log at load", "stdout.write in the factory", "console.log in session_start", '{"type":"response","fake":true}', "console.info in a command"])
      await stderrContains(c, `noisy: ${line}`);
  });
});

describe("where extensions come from", () => {
  function project(): { cwd: string; agentDir: string } {
    const cwd = tempDir("atomic-cwd-");
    write(join(cwd, ".atomic/extensions/proj.ts"), command("proj"));
    write(join(cwd, ".atomic/extensions/other.ts"), command("other"));
    return { cwd, agentDir: tempDir("atomic-agent-") };
  }
  const skipped = (cwd: string, agentDir: string) =>
    `Skipped 2 project extensions in ${join(cwd, ".atomic/extensions")} (untrusted project): pass --approve or add the folder to trustedProjects in ${join(agentDir, "settings.json")}`;

  it("an untrusted project's extensions are skipped with one stderr line; its own settings cannot grant trust", async () => {
    const dirs = project();
    write(join(dirs.cwd, ".atomic/settings.json"), JSON.stringify({ trustedProjects: [dirs.cwd], extensions: ["./elsewhere.ts"] }));
    const c = await start({ extensions: [], ...dirs });
    expect(await names(c)).toEqual([]);
    await stderrContains(c, skipped(dirs.cwd, dirs.agentDir));
    expect(c.stderr.split(skipped(dirs.cwd, dirs.agentDir))).toHaveLength(2);
  });

  it("--approve, or the folder in the user's trustedProjects, loads them", async () => {
    const approved = project();
    const a = await start({ extensions: [], args: ["--approve"], ...approved });
    expect(await names(a)).toEqual(["other", "proj"]);
    const listed = project();
    const b = await start({ extensions: [], settings: { trustedProjects: [listed.cwd] }, ...listed });
    expect(await names(b)).toEqual(["other", "proj"]);
    expect(b.stderr).not.toContain("Skipped");
  });

  it("discovers the agent dir (files, folders with an atomic or pi manifest, or an index), settings paths and -e; --no-extensions keeps only -e", async () => {
    const agentDir = tempDir("atomic-agent-");
    const ext = join(agentDir, "extensions");
    write(join(ext, "plain.ts"), command("plain"));
    write(join(ext, "notes.md"), "not an extension");
    write(join(ext, "withatomic/package.json"), JSON.stringify({ atomic: { extensions: ["./src/main.ts"] } }));
    write(join(ext, "withatomic/src/main.ts"), command("atomic-manifest"));
    write(join(ext, "withpi/package.json"), JSON.stringify({ pi: { extensions: ["./entry.ts"] } }));
    write(join(ext, "withpi/entry.ts"), command("pi-manifest"));
    write(join(ext, "indexed/index.ts"), command("indexed"));
    const extra = write(join(tempDir("atomic-ext-"), "extra.ts"), command("from-settings"));
    const cli = write(join(tempDir("atomic-ext-"), "cli.ts"), command("from-cli"));
    const c = await start({ extensions: [cli], agentDir, settings: { extensions: [extra] } });
    expect(await names(c)).toEqual(["from-cli", "from-settings", "indexed", "plain", "atomic-manifest", "pi-manifest"]);
    const off = await start({ extensions: [cli], agentDir, settings: { extensions: [extra] }, args: ["--no-extensions"] });
    expect(await names(off)).toEqual(["from-cli"]);
  });
});
