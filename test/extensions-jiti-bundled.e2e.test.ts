/**
 * The CLI's jiti is a chunk of its bundle (scripts/bundle.mjs, `bundledJiti`): an agent with an
 * extension loads it through the launcher's code cache instead of Node's CommonJS loader compiling
 * the package's 190 KB at every start. Its babel stays in the package, required only to transpile
 * a file the transpile cache lacks. The same holds for picomatch, which fdir (the folder walker)
 * requires in a way the bundler cannot follow: a warm start with an extension requires no file of
 * node_modules at all. Nor does it load Node's child_process, which only running a program needs
 * (`pi.exec`, pi's shell operations, the typed client pi's modules re-export).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RpcClient, tempDir } from "./helpers/rpc-client.js";

const clients: RpcClient[] = [];

afterEach(() => {
  for (const client of clients.splice(0)) if (client.child.exitCode === null) client.child.kill("SIGKILL");
});

/** The files Node's CommonJS loader had loaded when an agent with `extension` exited, and the builtins. */
async function requiredFiles(agentDir: string, extension: string): Promise<{ files: string[]; builtins: string[] }> {
  const dir = tempDir("atomic-jiti-");
  const preload = join(dir, "record-required.cjs");
  const out = join(dir, "required.json");
  writeFileSync(
    preload,
    `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(out)}, JSON.stringify({ files: Object.keys(require.cache), builtins: process.moduleLoadList })));\n`,
  );
  const client = new RpcClient({
    agentDir,
    args: ["--mode", "rpc", "--no-session", "--provider", "replay", "--model", "demo", "-e", extension],
    env: { NODE_OPTIONS: `--require ${preload}` },
  });
  clients.push(client);
  const { commands } = await client.ok({ type: "get_commands" });
  expect((commands as { name: string }[]).map((command) => command.name)).toContain("bundled-hello");
  await client.close();
  return JSON.parse(readFileSync(out, "utf8")) as { files: string[]; builtins: string[] };
}

describe("jiti and the packages it walks with, in the CLI", () => {
  it("comes from the bundle; babel is required from the package only to transpile a file the cache lacks", async () => {
    const agentDir = tempDir("atomic-agent-");
    const extension = join(tempDir("atomic-ext-"), "hello.ts");
    writeFileSync(
      extension,
      'import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";\nexport default function (pi: ExtensionAPI) { pi.registerCommand("bundled-hello", { handler: async () => {} }); }\n',
    );
    const jitiFiles = (files: string[]) => files.filter((file) => /[\\/]node_modules[\\/]jiti[\\/]/.test(file));
    const cold = await requiredFiles(agentDir, extension);
    expect(jitiFiles(cold.files).map((file) => file.replace(/^.*[\\/]node_modules[\\/]jiti[\\/]/, ""))).toEqual(["dist/babel.cjs"]);
    // Warm, nothing comes from node_modules: fdir's picomatch is bundled too (`bundledPicomatch`).
    const warm = await requiredFiles(agentDir, extension);
    expect(warm.files.filter((file) => /[\\/]node_modules[\\/]/.test(file))).toEqual([]);
    expect(warm.builtins).toContain("NativeModule internal/fs/promises");
    expect(warm.builtins.filter((name) => /child_process/.test(name))).toEqual([]);
  });
});
