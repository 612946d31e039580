/**
 * Local package sources as a pi user has them, through the built CLI with no network: a single
 * extension file is a package source (pi 1.6 loads it as one extension, from `atomic install`,
 * the `packages` setting or `-e`), and a source that is neither a folder nor an extension file is
 * refused by `atomic install` instead of being recorded as installed and failing at every start.
 * `atomic list` counts what an entry's filters let load, says a missing folder is missing, and
 * says which entry of a package named twice is the one that loads. `atomic update` says what
 * each local source is: a folder, an extension file, or a path that does not exist (a failure).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { withoutBuiltins } from "./helpers/commands.js";
import { RpcClient, runCli, tempDir } from "./helpers/rpc-client.js";

const command = (name: string) => `export default function (pi: any) { pi.registerCommand(${JSON.stringify(name)}, { description: "from a file", handler: async () => {} }); }\n`;

function layout() {
  const root = tempDir("atomic-pkg-file-");
  const agentDir = join(root, "agent");
  const cwd = join(root, "work");
  mkdirSync(cwd, { recursive: true });
  return { root, agentDir, cwd };
}

async function started(agentDir: string, cwd: string): Promise<{ names: string[]; errors: unknown[]; stderr: string }> {
  const client = new RpcClient({ agentDir, cwd, args: ["--mode", "rpc", "--provider", "replay", "--model", "demo", "--no-session"] });
  const data = (await client.ok({ type: "get_commands" }, 60_000)) as { commands: { name: string }[] };
  await client.close();
  const errors = client.records.filter((record) => record.type === "extension_error");
  return { names: withoutBuiltins(data.commands).map((entry) => entry.name), errors, stderr: client.stderr };
}

describe("local package sources", () => {
  it("an extension file is a package: installed, listed, loaded at startup, removed", async () => {
    const { root, agentDir, cwd } = layout();
    writeFileSync(join(root, "single.ts"), command("single"));
    const installed = await runCli(["install", "../single.ts"], { cwd, agentDir });
    expect(installed).toMatchObject({ code: 0, stderr: "" });
    expect(installed.stdout).toContain("(1 extension, 0 skills, 0 prompt templates)");
    expect(JSON.parse(readFileSync(join(agentDir, "settings.json"), "utf8")).packages).toEqual(["../single.ts"]);
    expect((await runCli(["list"], { cwd, agentDir })).stdout).toContain(`../single.ts: ${join(root, "single.ts")}, 1 extension`);
    const run = await started(agentDir, cwd);
    expect(run.names).toEqual(["single"]);
    expect(run.errors).toEqual([]);
    expect((await runCli(["remove", "../single.ts"], { cwd, agentDir })).code).toBe(0);
    expect((await started(agentDir, cwd)).names).toEqual([]);
  }, 90_000);

  it("a file that is not an extension is refused by atomic install, naming what a local source must be; settings stay untouched", async () => {
    const { root, agentDir, cwd } = layout();
    writeFileSync(join(root, "notes.txt"), "hello\n");
    const refused = await runCli(["install", "../notes.txt"], { cwd, agentDir });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr).toBe(`atomic: Not a package: ${join(root, "notes.txt")} is neither a folder nor an extension file (.ts, .js, .mjs)\n`);
    expect(() => readFileSync(join(agentDir, "settings.json"), "utf8")).toThrow();
  }, 60_000);

  it("atomic list counts what a filtered entry loads, and names a missing folder as missing (a folder is never installed)", async () => {
    const { root, agentDir, cwd } = layout();
    mkdirSync(join(root, "tools", "extensions"), { recursive: true });
    writeFileSync(join(root, "tools", "extensions", "hello.ts"), command("hello"));
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ packages: [{ source: "../tools", extensions: [] }, "../gone"] }));
    const listed = await runCli(["list"], { cwd, agentDir });
    expect(listed.code).toBe(0);
    expect(listed.stdout.split("\n").slice(1, 3)).toEqual([
      `  ../tools [filtered]: ${join(root, "tools")}, 0 extensions, 0 skills, 0 prompt templates`,
      `  ../gone: missing (${join(root, "gone")} does not exist)`,
    ]);
    expect((await started(agentDir, cwd)).names).toEqual([]);
  }, 60_000);

  it("atomic list says which entry of a package named twice loads: the first, the project's over the user's", async () => {
    const { root, agentDir, cwd } = layout();
    mkdirSync(join(root, "tools", "extensions"), { recursive: true });
    writeFileSync(join(root, "tools", "extensions", "hello.ts"), command("hello"));
    mkdirSync(agentDir, { recursive: true });
    mkdirSync(join(cwd, ".atomic"), { recursive: true });
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ packages: ["../tools", { source: "../tools", extensions: [] }] }));
    const user = (await runCli(["list"], { cwd, agentDir })).stdout.split("\n");
    expect(user[1]).toBe(`  ../tools: ${join(root, "tools")}, 1 extension, 0 skills, 0 prompt templates`);
    expect(user[2]).toBe("  ../tools [filtered]: not loaded: the same package as ../tools above, which loads");
    writeFileSync(join(cwd, ".atomic", "settings.json"), JSON.stringify({ packages: ["../../tools"] }));
    const both = (await runCli(["list", "--approve"], { cwd, agentDir })).stdout.split("\n");
    expect(both[1]).toBe(`  ../tools: not loaded: the same package as ../../tools in the project's settings, which loads`);
    expect(both[4]).toBe(`  ../../tools: ${join(root, "tools")}, 1 extension, 0 skills, 0 prompt templates`);
  }, 60_000);

  it("atomic update names each local source for what it is: a folder, an extension file, a missing path (a failed entry)", async () => {
    const { root, agentDir, cwd } = layout();
    mkdirSync(join(root, "tools", "extensions"), { recursive: true });
    writeFileSync(join(root, "tools", "extensions", "hello.ts"), command("hello"));
    writeFileSync(join(root, "single.ts"), command("single"));
    mkdirSync(agentDir, { recursive: true });
    writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ packages: ["../tools", "../single.ts", "../gone"] }));
    const updated = await runCli(["update"], { cwd, agentDir });
    expect(updated.stdout).toBe("../tools: a local folder, used where it is (nothing to update)\n../single.ts: a local extension file, used where it is (nothing to update)\n");
    expect(updated.stderr).toBe(`atomic: ../gone: missing (${join(root, "gone")} does not exist): nothing to update\n`);
    expect(updated.code).toBe(1);
  }, 60_000);
});
