/**
 * Boot: parse flags, load settings, load plugins (the transport first), apply, boot, serve.
 * Anything that goes wrong before serving is one clear line on stderr and a non-zero exit.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { claimStdout, createKernel, loadSettings, PluginLoader, resolveAgentDir, toKernelError } from "../kernel/index.js";
import { helpText, parseArgs, UsageError } from "./args.js";
import { BUILTIN_MODULES } from "./builtins.js";
import { BUILTIN_PLUGINS } from "./plugins.js";

// This file runs from dist/cli/ (compiled or bundled): the package root is two levels up.
const INSTALL_DIR = fileURLToPath(new URL("../../", import.meta.url));
const BUILTIN_DIR = fileURLToPath(new URL("../plugins/", import.meta.url));
// Resolved at run time: the CLI never imports a plugin statically.
const AUTH_CLI = new URL("../plugins/models/auth-cli.js", import.meta.url).href;
const KERNEL_ENTRY = fileURLToPath(new URL("../kernel/index.js", import.meta.url));

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === "auth") return runAuth(argv.slice(1));
  let args;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`atomic: ${error.message}\nRun 'atomic --help' for the list of options.\n`);
    return 2;
  }
  if (args.help) {
    process.stdout.write(helpText());
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${await version()}\n`);
    return 0;
  }

  // Claimed before any plugin module is imported, so nothing else can write protocol noise.
  claimStdout();
  const agentDir = resolveAgentDir(process.env);
  const cwd = process.cwd();
  try {
    const { settings, notes } = await loadSettings(agentDir, cwd);
    for (const note of notes) process.stderr.write(`[atomic] ${note}\n`);
    const mode = args.mode || settings.transport || "rpc";
    args.mode = mode;
    const kernel = createKernel({ config: { agentDir, cwd, settings, cli: args, env: process.env, installDir: INSTALL_DIR } });
    const loader = new PluginLoader({
      builtinDir: BUILTIN_DIR,
      builtins: BUILTIN_MODULES,
      baseDir: agentDir,
      // User plugins outside this package still get the kernel and the same zod instance.
      aliases: () => ({ "atomic-agent": KERNEL_ENTRY, "atomic-agent/kernel": KERNEL_ENTRY, zod: dirname(createRequire(import.meta.url).resolve("zod/package.json")) }),
    });
    const specs = [`transport-${mode}`, ...BUILTIN_PLUGINS, ...(settings.plugins ?? [])];
    await kernel.use(await loader.loadAll(specs));
    await kernel.boot();
    const transport = kernel.services.maybe("transport");
    if (!transport) throw new Error(`Plugin "transport-${mode}" did not provide a transport`);
    return await transport.serve();
  } catch (error) {
    process.stderr.write(`atomic: ${toKernelError(error).message}\n`);
    return 1;
  }
}

async function runAuth(argv: string[]): Promise<number> {
  const { runAuthCommand } = (await import(AUTH_CLI)) as { runAuthCommand(argv: string[], io: object): Promise<number> };
  return runAuthCommand(argv, { agentDir: resolveAgentDir(process.env), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
}

async function version(): Promise<string> {
  const pkg = JSON.parse(await readFile(`${INSTALL_DIR}package.json`, "utf8")) as { version: string };
  return pkg.version;
}
