/**
 * The `atomic` executable's boot: subcommands, then the host (settings, plugins, flags), then
 * serving with the chosen transport. Signals ask the host for teardown. Anything that goes wrong
 * before serving is one clear line on stderr: exit 2 for a usage mistake, 1 otherwise.
 */
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { claimStdout, ErrorCode, isKernelError, prepareHost, protocolSchema, resolveAgentDir, toKernelError, type PreparedHost } from "../kernel/index.js";
import { BUILTIN_MODULES, BUILTIN_PLUGINS } from "./builtins.js";

// This file runs from dist/cli/ (compiled or bundled): the package root is two levels up.
const INSTALL_DIR = fileURLToPath(new URL("../../", import.meta.url));
// Resolved at run time: the CLI never imports a plugin's internals statically.
const AUTH_CLI = new URL("../plugins/models/auth-cli.js", import.meta.url).href;
const KERNEL_ENTRY = fileURLToPath(new URL("../kernel/index.js", import.meta.url));

const SIGNAL_EXIT_CODES = { SIGTERM: 143, SIGINT: 130, SIGHUP: 129 } as const;

export async function main(argv: string[]): Promise<number> {
  if (argv[0] === "auth") return runAuth(argv.slice(1));
  const subcommand = argv[0] === "schema" ? "schema" : undefined;
  if (subcommand) argv = argv.slice(1);
  // Claimed before any user plugin is imported: nothing else can write protocol noise.
  const stdout = claimStdout();
  const agentDir = resolveAgentDir(process.env);
  let prepared: PreparedHost;
  try {
    prepared = await prepareHost({
      cwd: process.cwd(),
      agentDir,
      env: process.env,
      plugins: BUILTIN_PLUGINS,
      // User plugins outside this package still get the kernel and the same zod instance.
      loader: { builtins: BUILTIN_MODULES, aliases: () => ({ "atomic-agent": KERNEL_ENTRY, "atomic-agent/kernel": KERNEL_ENTRY, zod: dirname(createRequire(import.meta.url).resolve("zod/package.json")) }) },
      argv,
      installDir: INSTALL_DIR,
    });
  } catch (error) {
    return fail(error);
  }
  if (prepared.cli.help) {
    stdout.write(helpText(prepared));
    await stdout.flush();
    return 0;
  }
  if (prepared.cli.version) {
    stdout.write(`${await version()}\n`);
    await stdout.flush();
    return 0;
  }
  try {
    const host = await prepared.boot();
    if (subcommand === "schema") {
      // Every registered command and event, user plugins included: the protocol this build speaks.
      stdout.write(`${JSON.stringify(protocolSchema(host.kernel), null, 2)}\n`);
      await host.shutdown("exit");
      await stdout.flush();
      return 0;
    }
    let signalCode: number | undefined;
    for (const [signal, code] of Object.entries(SIGNAL_EXIT_CODES)) {
      process.once(signal, () => {
        signalCode ??= code;
        void host.shutdown("signal");
      });
    }
    const code = await host.serve();
    return signalCode ?? code;
  } catch (error) {
    return fail(error);
  }
}

function fail(error: unknown): number {
  const coded = toKernelError(error);
  const usage = isKernelError(error) && coded.code === ErrorCode.USAGE;
  process.stderr.write(`atomic: ${coded.message}\n${usage ? "Run 'atomic --help' for the list of options.\n" : ""}`);
  return usage ? 2 : 1;
}

function helpText(prepared: PreparedHost): string {
  return [
    "atomic - a headless coding agent driven over JSON lines",
    "",
    "Usage:",
    "  atomic --mode rpc [options]       serve the RPC protocol on stdin/stdout",
    "  atomic auth set <provider>        store an API key (read from stdin)",
    "  atomic auth clear <provider>      remove a stored API key",
    "  atomic auth list                  show which providers have credentials",
    "  atomic schema                     print the protocol as one JSON Schema document",
    "",
    "Options:",
    prepared.helpText(),
    "",
    "Environment: ATOMIC_CODING_AGENT_DIR (agent dir, default ~/.atomic/agent),",
    "ATOMIC_CODING_AGENT_SESSION_DIR, ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY.",
    "",
  ].join("\n");
}

async function runAuth(argv: string[]): Promise<number> {
  const { runAuthCommand } = (await import(AUTH_CLI)) as { runAuthCommand(argv: string[], io: object): Promise<number> };
  return runAuthCommand(argv, { agentDir: resolveAgentDir(process.env), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
}

async function version(): Promise<string> {
  const pkg = JSON.parse(await readFile(`${INSTALL_DIR}package.json`, "utf8")) as { version: string };
  return pkg.version;
}
